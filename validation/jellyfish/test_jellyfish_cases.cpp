// Validation of the jellyfish paper's canned cases: the Fig. 6 checks on the velocity and diameter
// curves (run over two pulses, 15 s, instead of the full 75 s to keep ctest within its budget: every
// check is per pulse or a range the first pulses already span; the full run is `immerse validate
// jellyfish`), the generic lattice case's analytic decay, serial vs openmp, and the Fig. 8/9 scenes.
#include <gtest/gtest.h>

#include <filesystem>

#include "immerse/cases/runner.hpp"
#include "support/backends.hpp"
#include "support/case_runs.hpp"

using namespace immerse;
using test::expect_all_pass;
using test::expect_backends_agree;
using test::Length;
using test::run;

// Fig. 6 over two pulses (375 frames of 0.04 s): diameter range, peak speed, ~0 in relaxation, the
// speed peak near the diameter minimum, quiet lattice border, small mass drift.
TEST(JellyfishCases, Fig6VelocityAndDiameterCurves) {
  const auto out = run("jellyfish", default_backend(), {"time.steps=375"});
  expect_all_pass(out, 7);
  const auto& m = out.result["metrics"];
  for (const char* key : {"peak_velocity_cm_s", "min_bell_diameter_cm", "max_bell_diameter_cm", "pulse_period_s",
                          "mean_velocity_cm_s", "mass_drift_rel", "frames_per_s"})
    EXPECT_TRUE(m.contains(key)) << key;
  EXPECT_EQ(m["pulses"].get<int>(), 2);
  // The measured period between diameter minima is the schedule's 7.5 s to within one frame.
  EXPECT_NEAR(m["pulse_period_s"].get<double>(), 7.5, 0.04 + 1e-9);
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out.out_dir) / "series.csv"));
}

// The propulsion really moves the bell: without it the distance is zero, with it positive.
TEST(JellyfishCases, PropulsionMovesTheBellOnlyWhenEnabled) {
  const auto off =
      run("jellyfish", default_backend(), {"time.steps=100", "propulsion.enabled=false"}, Length::full, "-still");
  EXPECT_EQ(off.result["metrics"]["distance_cm"].get<double>(), 0.0);
  const auto on = run("jellyfish", default_backend(), {"time.steps=100"}, Length::full, "-moving");
  EXPECT_GT(on.result["metrics"]["distance_cm"].get<double>(), 0.1);
}

template <class Exec>
class GenericLattice : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(GenericLattice, test::EnabledSpaces, test::SpaceName);

// The canned generic case: decay at 2 nu k^2 within 1% and exact mass conservation.
TYPED_TEST(GenericLattice, ShearWaveCase) { expect_all_pass(run("lattice_shear_wave", this->backend), 2); }

#if defined(IMMERSE_ENABLE_SERIAL) && defined(IMMERSE_ENABLE_OPENMP)
// Serial and openmp give the same jellyfish run (the quick one): every non-timing metric agrees within
// the case's compare tolerances (identical per-cell arithmetic; only the mass sum's order differs).
TEST(JellyfishCases, SerialAndOpenmpAgree) {
  const auto a = run("jellyfish", Backend::serial, {}, Length::quick, "-agree"),
             b = run("jellyfish", Backend::openmp, {}, Length::quick, "-agree");
  expect_backends_agree(a, b);
}
#endif

// Figs. 8 and 9 (quick runs): the water the bell pushes moves the tracers and bends the algae.
TEST(JellyfishCases, ParticlesAndAlgaeAreMovedByTheWater) {
  const auto p = run("jellyfish_particles", default_backend(), {}, Length::quick);
  EXPECT_GT(p.result["metrics"]["tracer_max_displacement_cm"].get<double>(), 0.05);
  const auto a = run("jellyfish_algae", default_backend(), {}, Length::quick);
  EXPECT_GT(a.result["metrics"]["algae_max_tip_deflection_cm"].get<double>(), 1e-3);
}
