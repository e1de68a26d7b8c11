// The report's table of a case beside its alternative models (alternatives_section.cpp): a row per
// scalar metric, the scalars of a nested object (a seed ensemble's medians) as "object.key", a row per
// check, "-" where a model lacks the value. The runs are written here.
#include <gtest/gtest.h>

#include "immerse/reports/report.hpp"

using immerse::reports::alternatives_markdown;
using immerse::reports::ReportContext;
using nlohmann::json;

TEST(AlternativesSection, NestedScalarsGetRowsBesideTopLevelOnes) {
  ReportContext ctx;
  auto& ref = ctx.runs["plane"];
  ref.name = "plane";
  ref.result = {{"metrics",
                 {{"turns", 5},
                  {"glide_ratio", 0.25},
                  {"series", json::array({1, 2})},
                  {"ensemble", {{"turns_median", 4.5}, {"turns", json::array({4, 5})}}}}}};
  ref.checks.push_back({"median turning motions", 4.5, 2, 1, "paper", immerse::cases::CheckKind::prediction});
  immerse::reports::AlternativeRun alt;
  alt.model = {"with_lift", "a wing", {"lift.model=slender_wing"}};
  alt.run.result = {{"metrics", {{"turns", 2}, {"glide_ratio", 2.5}}}};
  alt.run.checks.push_back({"median turning motions", 2, 2, 1, "paper", immerse::cases::CheckKind::prediction});
  ctx.alternatives["plane"].push_back(alt);
  const std::string md = alternatives_markdown(ctx, "plane");
  EXPECT_NE(md.find("| glide_ratio | 0.25 | 2.5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| ensemble.turns_median | 4.5 | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("| check: median turning motions | 4.5 **FAIL** | 2 pass |"), std::string::npos) << md;
  EXPECT_EQ(md.find("series"), std::string::npos) << md;  // arrays get no row
  EXPECT_EQ(md.find("ensemble.turns |"), std::string::npos) << md;
}
