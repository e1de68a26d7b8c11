// Validation of the patent's canned cases on every enabled backend: each case's own checks (the
// printed table, the Poiseuille profile, conservation, internal boundaries) must all pass.
#include <gtest/gtest.h>

#include <filesystem>

#include "immerse/cases/runner.hpp"
#include "support/backends.hpp"
#include "support/case_runs.hpp"

using namespace immerse;
using test::expect_all_pass;
using test::run;

template <class Exec>
class PatentCases : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(PatentCases, test::EnabledSpaces, test::SpaceName);

// Every entry of the printed 5x5 table within 1e-6 + 2e-7 |printed| (27 entries x 3 quantities).
TYPED_TEST(PatentCases, Channel5x5MatchesThePrintedTable) {
  const auto out = run("channel5x5", this->backend);
  expect_all_pass(out, 82);
  EXPECT_EQ(out.result["metrics"]["table"].size(), 27u);
}

// The scheme details that reproduce the printed table (docs/patent.md) are load-bearing: a Reynolds number outside
// about 296-304 must break the match (the check can fail).
TYPED_TEST(PatentCases, Channel5x5DetectsAWrongReynoldsNumber) {
  const auto out = run("channel5x5", this->backend, {"physics.Re=290"}, test::Length::full, "-re290");
  long failed = 0;
  for (const auto& c : out.checks) failed += !c.pass();
  EXPECT_GT(failed, 0);
}

// Steady channel flow: outlet profile vs plane Poiseuille within 2 (dy/H)^2, the closure's flux
// deficit vs the analytic Poiseuille pressure within 4 (dy/H)^2, steady residual, mass identity.
TYPED_TEST(PatentCases, ChannelReachesPoiseuille) { expect_all_pass(run("channel", this->backend), 4); }

// Second order: halving dy (with dt scaled to the stability limit) must cut the profile error by
// about 4 (between 2.5 and 6 allows for the not-quite-asymptotic coarse grid).
TEST(PatentCasesConvergence, ChannelProfileErrorIsSecondOrder) {
  const auto coarse =
      run("channel", default_backend(),
          {"grid.nx=16", "grid.ny=8", "grid.dx=0.125", "grid.dy=0.125", "time.dt=3.6e-6", "time.steps=80000"},
          test::Length::full, "-coarse");
  const auto fine = run("channel", default_backend(), {}, test::Length::full, "-fine");
  const double e8 = coarse.result["metrics"]["outlet_max_deviation_rel"],
               e16 = fine.result["metrics"]["outlet_max_deviation_rel"];
  EXPECT_GT(e8 / e16, 2.5) << e8 << " " << e16;
  EXPECT_LT(e8 / e16, 6.0) << e8 << " " << e16;
}

// Posts, island and moving boat: solid faces move with the bodies; mass identity holds. A short run:
// the stagnation check needs the whole run (its reference run is in counterexamples.river).
TYPED_TEST(PatentCases, RiverKeepsInternalBoundaries) {
  const auto out = run("river", this->backend, {"time.steps=3000", "output.frames=0"});
  test::expect_pass(out, "faces inside obstacles - obstacle velocity");
  test::expect_pass(out, "mass balance residual / flux");
}
