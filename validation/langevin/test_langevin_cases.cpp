// Validation of the Langevin-rigid cases (paper 001): each case's qualitative checks (helical fall
// and rotation of the paper, the airplane's turning motions, the ellipsoid oscillating more with the
// Langevin terms than without) on every backend; every metric the issue names is present; the same
// seed gives the same trajectory; serial and OpenMP agree.
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

namespace {

void expect_metrics(const cases::RunOutcome& out, std::vector<std::string> names) {
  names.insert(names.end(), {"mean_descent_speed", "lateral_amplitude", "precompute_added_mass_ms",
                             "precompute_turbulence_ms", "runtime_step_us"});
  for (const auto& n : names) EXPECT_TRUE(out.result["metrics"].contains(n)) << "metric " << n << " missing";
}

}  // namespace

template <class Exec>
class LangevinCases : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(LangevinCases, test::EnabledSpaces, test::SpaceName);

TYPED_TEST(LangevinCases, FallingPaperFallsAlongAHelixRotatingAboutItsMajorAxis) {
  const auto out = run("falling_paper", this->backend);
  expect_all_pass(out, 4);
  expect_metrics(out, {"rotation_about_major_axis_turns"});
}

TYPED_TEST(LangevinCases, PaperAirplaneTurns) {
  const auto out = run("paper_airplane", this->backend);
  expect_all_pass(out, 2);
  expect_metrics(out, {"turns"});
}

TYPED_TEST(LangevinCases, RubberEllipsoidOscillatesMoreWithLangevin) {
  const auto out = run("rubber_ellipsoid", this->backend);
  expect_all_pass(out, 1);
  expect_metrics(out, {"oscillation_amplitude_deg", "oscillation_amplitude_deg_no_langevin"});
}

// The checks can fail: without the Langevin terms the paper does not fall along a helix (a pure
// Kirchhoff fall in still fluid has no source of heading changes beyond the release tilt).
TEST(LangevinCasesSensitivity, PaperWithoutLangevinFailsTheHelixCheck) {
  const auto out = run("falling_paper", Backend::serial, {"langevin.enabled=false"}, Length::full, "-nolangevin");
  long failed = 0;
  for (const auto& c : out.checks) failed += !c.pass();
  EXPECT_GT(failed, 0);
}

// Same seed, same trajectory (every metric but the timings identical); another seed differs.
TEST(LangevinCasesReproducibility, SameSeedSameTrajectory) {
  const auto a = run("falling_paper", Backend::serial, {}, Length::quick, "-a");
  const auto b = run("falling_paper", Backend::serial, {}, Length::quick, "-b");
  const auto c = run("falling_paper", Backend::serial, {"langevin.seed=2"}, Length::quick, "-c");
  for (const char* m :
       {"mean_descent_speed", "lateral_amplitude", "heading_turns", "rotation_about_major_axis_turns"}) {
    EXPECT_EQ(a.result["metrics"][m].get<double>(), b.result["metrics"][m].get<double>()) << m;
  }
  EXPECT_NE(a.result["metrics"]["lateral_amplitude"].get<double>(),
            c.result["metrics"]["lateral_amplitude"].get<double>());
}

// Serial and OpenMP on the same case: every metric within the case's stated compare tolerances (the
// turbulence means are parallel reductions whose order differs at ~1e-16).
TEST(LangevinCasesBackends, SerialAndOpenMPAgree) {
#if defined(IMMERSE_ENABLE_OPENMP)
  const auto a = run("rubber_ellipsoid", Backend::serial, {}, Length::quick, "-cmp");
  const auto b = run("rubber_ellipsoid", Backend::openmp, {}, Length::quick, "-cmp");
  expect_backends_agree(a, b);
#endif
}
