// Validation of the Langevin-rigid cases (paper 001): each case's qualitative checks (helical fall
// and rotation of the paper, the airplane's turning motions, the ellipsoid oscillating more with the
// Langevin terms than without) on every backend; every metric the issue names is present; the same
// seed gives the same trajectory; serial and OpenMP agree.
#include <gtest/gtest.h>

#include <filesystem>

#include "immerse/cases/runner.hpp"
#include "support/backends.hpp"

using namespace immerse;

namespace {

cases::RunOutcome run(const std::string& name, Backend b, std::vector<std::string> sets = {}, bool quick = false,
                      const std::string& tag = "") {
  cases::RunRequest req;
  req.case_name = name;
  req.sets = std::move(sets);
  req.quick = quick;
  req.options.backend = b;
  req.options.quiet = true;
  req.out_dir = (std::filesystem::temp_directory_path() / "immerse-validation" / (name + "-" + to_string(b) + tag)).string();
  return cases::run_case(req);
}

void expect_all_pass(const cases::RunOutcome& out, size_t min_checks) {
  ASSERT_GE(out.checks.size(), min_checks);
  for (const auto& c : out.checks)
    EXPECT_TRUE(c.pass()) << c.quantity << ": ours " << c.ours << ", reference " << c.reference << ", tolerance " << c.tolerance
                          << " (" << c.source << ")";
}

void expect_metrics(const cases::RunOutcome& out, std::vector<std::string> names) {
  names.insert(names.end(), {"mean_descent_speed", "lateral_amplitude", "precompute_added_mass_ms", "precompute_turbulence_ms",
                             "runtime_step_us"});
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
  expect_all_pass(out, 2);
  expect_metrics(out, {"oscillation_amplitude_deg", "oscillation_amplitude_deg_no_langevin"});
}

// The checks can fail: without the Langevin terms the paper does not fall along a helix (a pure
// Kirchhoff fall in still fluid has no source of heading changes beyond the release tilt).
TEST(LangevinCasesSensitivity, PaperWithoutLangevinFailsTheHelixCheck) {
  const auto out = run("falling_paper", Backend::serial, {"langevin.enabled=false"}, false, "-nolangevin");
  long failed = 0;
  for (const auto& c : out.checks) failed += !c.pass();
  EXPECT_GT(failed, 0);
}

// Same seed, same trajectory (every metric but the timings identical); another seed differs.
TEST(LangevinCasesReproducibility, SameSeedSameTrajectory) {
  const auto a = run("falling_paper", Backend::serial, {}, true, "-a");
  const auto b = run("falling_paper", Backend::serial, {}, true, "-b");
  const auto c = run("falling_paper", Backend::serial, {"langevin.seed=2"}, true, "-c");
  for (const char* m : {"mean_descent_speed", "lateral_amplitude", "heading_turns", "rotation_about_major_axis_turns"}) {
    EXPECT_EQ(a.result["metrics"][m].get<double>(), b.result["metrics"][m].get<double>()) << m;
  }
  EXPECT_NE(a.result["metrics"]["lateral_amplitude"].get<double>(), c.result["metrics"]["lateral_amplitude"].get<double>());
}

// Serial and OpenMP on the same case: the turbulence means are parallel reductions (order differs
// at ~1e-16), and the runtime is strongly damped (alpha ~ 10/s), so the metrics agree to 1e-6.
TEST(LangevinCasesBackends, SerialAndOpenMPAgree) {
#if defined(KOKKOS_ENABLE_OPENMP)
  const auto a = run("rubber_ellipsoid", Backend::serial, {}, true, "-cmp");
  const auto b = run("rubber_ellipsoid", Backend::openmp, {}, true, "-cmp");
  for (const char* m : {"mean_descent_speed", "lateral_amplitude", "oscillation_amplitude_deg", "chi_final", "eps_final"}) {
    const double x = a.result["metrics"][m], y = b.result["metrics"][m];
    EXPECT_NEAR(x, y, 1e-6 * std::max(std::abs(x), std::abs(y))) << m;
  }
#endif
}
