// The backend comparison's agreement rule (immerse compare): which metric differences pass, which
// fail, and that the failing metric is named. The values are constructed here; the rule itself is
// |a - b| <= abs + rel * max(|a|, |b|) with rel 1e-12 unless the case states otherwise.
#include <gtest/gtest.h>

#include "immerse/reports/compare.hpp"

using immerse::reports::compare_metrics;
using nlohmann::json;

namespace {
const immerse::reports::MetricDifference* find(const std::vector<immerse::reports::MetricDifference>& d,
                                               const std::string& m) {
  for (const auto& x : d)
    if (x.metric == m) return &x;
  return nullptr;
}
}  // namespace

TEST(Compare, IdenticalMetricsAgree) {
  const json m = {{"flux", 1.25}, {"table", {{{"u", 0.5}}, {{"u", -2.0}}}}, {"capsized", false}, {"name", "x"}};
  for (const auto& d : compare_metrics(m, m, json::object())) EXPECT_TRUE(d.pass()) << d.metric;
}

TEST(Compare, DefaultToleranceIsRoundingOnly) {
  // 1 part in 1e10 exceeds the default 1e-12 relative: a backend-specific perturbation that small
  // is caught, and the nested metric is named.
  const json a = {{"table", {{{"u", 0.5}}}}, {"flux", 2.0}};
  const json b = {{"table", {{{"u", 0.5 * (1 + 1e-10)}}}}, {"flux", 2.0 * (1 + 1e-13)}};
  const auto d = compare_metrics(a, b, json::object());
  ASSERT_NE(find(d, "table[0].u"), nullptr);
  EXPECT_FALSE(find(d, "table[0].u")->pass());
  EXPECT_TRUE(find(d, "flux")->pass());  // 1e-13 < 1e-12
}

TEST(Compare, StatedToleranceIsHonoured) {
  const json a = {{"mass_drift_rel", 1e-6}, {"columns", {{{"energy", 10.0}}}}};
  const json b = {{"mass_drift_rel", 1.1e-6}, {"columns", {{{"energy", 10.0 + 5e-5}}}}};
  const json tol = {{"mass_drift_rel", {{"rel", 0.2}, {"why", "FP32 sum"}}},
                    {"energy", {{"rel", 1e-6}, {"why", "reduction order"}}}};
  const auto d = compare_metrics(a, b, tol);
  EXPECT_TRUE(find(d, "mass_drift_rel")->pass());
  EXPECT_EQ(find(d, "mass_drift_rel")->why, "FP32 sum");
  // matched by leaf name; 5e-5 > 1e-6 * 10 fails
  EXPECT_FALSE(find(d, "columns[0].energy")->pass());
}

TEST(Compare, TimingMetricsAreSkippedAndMissingOnesFail) {
  const json a = {{"frames_per_s", 100.0}, {"solve_ms", 3.0}, {"step_us", 1.0}, {"speed", 1.0}, {"turns", 2}};
  const json b = {{"frames_per_s", 300.0}, {"solve_ms", 1.0}, {"step_us", 9.0}, {"turns", 3}};
  const auto d = compare_metrics(a, b, json::object());
  EXPECT_EQ(find(d, "frames_per_s"), nullptr);
  EXPECT_EQ(find(d, "solve_ms"), nullptr);
  EXPECT_EQ(find(d, "step_us"), nullptr);
  EXPECT_FALSE(find(d, "speed")->pass());  // missing on the other backend
  EXPECT_FALSE(find(d, "turns")->pass());  // integers compared exactly
}

TEST(Compare, TimingObjectsAndTheBackendLabelAreSkipped) {
  const json a = {{"backend", "serial"}, {"columns", {{{"phase_ms", {{"forces", 1.0}}}, {"draft", 0.2}}}}};
  const json b = {{"backend", "openmp"}, {"columns", {{{"phase_ms", {{"forces", 2.0}}}, {"draft", 0.3}}}}};
  const auto d = compare_metrics(a, b, json::object());
  EXPECT_EQ(find(d, "backend"), nullptr);
  EXPECT_EQ(find(d, "columns[0].phase_ms.forces"), nullptr);
  EXPECT_FALSE(find(d, "columns[0].draft")->pass());
}

TEST(Compare, NonNumbersMustBeEqual) {
  const auto d = compare_metrics({{"capsized", true}}, {{"capsized", false}}, json::object());
  EXPECT_FALSE(find(d, "capsized")->pass());
}

TEST(Compare, ACaseMayMarkADerivedValueAsTiming) {
  // fps_objects stores whether each column's measured frame rate meets its target: a boolean
  // that depends on wall time. The case marks it {"timing": true}; unmarked, it must be equal.
  const json a = {{"columns", {{{"meets_target", false}, {"objects", 50}}}}};
  const json b = {{"columns", {{{"meets_target", true}, {"objects", 50}}}}};
  const json tol = {{"meets_target", {{"timing", true}, {"why", "wall time"}}}};
  const auto d = compare_metrics(a, b, tol);
  EXPECT_EQ(find(d, "columns[0].meets_target"), nullptr);
  EXPECT_TRUE(find(d, "columns[0].objects")->pass());
  EXPECT_FALSE(find(compare_metrics(a, b, json::object()), "columns[0].meets_target")->pass());
}
