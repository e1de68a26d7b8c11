// The elastic section's Table 1 (elastic_section.cpp): frames/s from the case's alternative "alone"
// (the run without its staircase twin), the ratio and the target from it, the canned run's figure
// beside it; "nan" where the alternative did not run. The runs are written here.
#include <gtest/gtest.h>

#include "immerse/reports/report.hpp"

using immerse::reports::ReportContext;
using nlohmann::json;

namespace {
json windmill_metrics(double fps) {
  return {
      {"metrics", {{"grid", "256x256"}, {"dt", 0.05}, {"substeps", 100}, {"elements", 160}, {"frames_per_s", fps}}}};
}
}  // namespace

TEST(ElasticSection, TableOneTakesTheRunWithoutTheTwin) {
  ReportContext ctx;
  ctx.dir = testing::TempDir();  // the windmill's plot scripts go here
  auto& canned = ctx.runs["windmill"];
  canned.name = "windmill";
  canned.result = windmill_metrics(150);
  immerse::reports::AlternativeRun alone;
  alone.model = {"alone", "without the twin", {"coupling.compare=false"}};
  alone.run.result = windmill_metrics(171);
  ctx.alternatives["windmill"].push_back(alone);
  std::string md = immerse::reports::elastic_section(ctx);
  EXPECT_NE(md.find("| windmill | 256x256 | 0.05 | 100 | 160 | 9 | 171.00 | 19.00x | 180 | 150.00 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| windmill | boundary map, alone |"), std::string::npos) << md;

  ctx.alternatives.clear();
  md = immerse::reports::elastic_section(ctx);
  EXPECT_NE(md.find("| windmill | 256x256 | 0.05 | 100 | 160 | 9 | nan | nanx | 180 | 150.00 |"), std::string::npos)
      << md;
}
