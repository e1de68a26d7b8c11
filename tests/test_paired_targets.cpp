// The jellyfish section's tables (jellyfish_section.cpp): the kernel's targets (paired_targets):
// bench_lbm3d's collide_paired rows, one per backend, each ratio and the cores' rate with its range
// over the rounds, and each storage's rate against its own in cache (the lattice's size from the rows);
// the frames per second against the paper.
#include <gtest/gtest.h>

#include "immerse/reports/report.hpp"

using immerse::reports::jellyfish_section;
using immerse::reports::ReportContext;
using nlohmann::json;

namespace {

json paired_row(const std::string& backend, double fraction, double speedup) {
  return {{"name", "collide_paired/" + backend + "/256/iterations:1/real_time"},
          {"rounds", 10},
          {"inplace_GBps", 100.0},
          {"fp32_MLUPS", 700.0},
          {"fp16s_MLUPS", 770.0},
          {"fp32_of_inplace", fraction},
          {"fp32_of_inplace_min", fraction - 0.1},
          {"fp32_of_inplace_max", fraction + 0.05},
          {"fp16s_over_fp32", speedup},
          {"fp16s_over_fp32_min", speedup - 0.2},
          {"fp16s_over_fp32_max", speedup + 0.3},
          {"core_GFLOPs", 420.0},
          {"core_GFLOPs_min", 250.0},
          {"core_GFLOPs_max", 440.0},
          {"fp32_of_in_cache", 0.72},
          {"fp16s_of_in_cache", 0.98},
          {"in_cache_side", 16}};
}

}  // namespace

TEST(PairedTargets, OneRowPerBackendWithTheRangeOfTheRounds) {
  ReportContext ctx;
  ctx.benchmarks["bench_lbm3d"] = {{"benchmarks",
                                    {{{"name", "collide_stream/openmp/fp32/256/real_time"}},
                                     paired_row("serial", 0.85, 1.07),
                                     paired_row("openmp", 0.83, 1.18)}}};
  const std::string md = jellyfish_section(ctx);
  EXPECT_NE(
      md.find(
          "| serial | 10 | 100.0 | 420 (250-440) | 700 | 0.85 (0.75-0.90) | 0.72 | 770 | 1.07 (0.87-1.37) | 0.98 |"),
      std::string::npos)
      << md;
  EXPECT_NE(
      md.find(
          "| openmp | 10 | 100.0 | 420 (250-440) | 700 | 0.83 (0.73-0.88) | 0.72 | 770 | 1.18 (0.98-1.48) | 0.98 |"),
      std::string::npos)
      << md;
  // The in-cache lattice as the rows record it (a side of 16 here, not the bench's 32).
  EXPECT_NE(md.find("on a 256 x 16 x 16 lattice that stays in the caches"), std::string::npos) << md;
}

TEST(PairedTargets, LeftOutWithoutPairedRows) {
  ReportContext ctx;
  ctx.benchmarks["bench_lbm3d"] = {{"benchmarks", {{{"name", "collide_stream/openmp/fp32/256/real_time"}}}}};
  EXPECT_EQ(jellyfish_section(ctx).find("collide_paired"), std::string::npos);
}

// The speed table's bench_lbm3d column: jellyfish_frame runs a fixed window of frames, so its rows'
// names carry Google Benchmark's "/iterations:N" (the old lookup by "<name>/real_time" showed "-").
TEST(JellyfishSpeed, FindsTheFixedWindowFrameRows) {
  ReportContext ctx;
  ctx.benchmarks["bench_lbm3d"] = {{"benchmarks",
                                    {{{"name", "jellyfish_frame/openmp/40/iterations:500/real_time"},
                                      {"run_name", "jellyfish_frame/openmp/40/iterations:500/real_time"},
                                      {"frames_per_s", 812.34}},
                                     {{"name", "jellyfish_frame/openmp/80/iterations:100/real_time"},
                                      {"run_name", "jellyfish_frame/openmp/80/iterations:100/real_time"},
                                      {"frames_per_s", 201.06}}}}};
  const std::string md = jellyfish_section(ctx);
  EXPECT_NE(md.find("| jellyfish | - | 1.1 | - | 812.3 | >= 300 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| jellyfish_fine | - | 0.43 | - | 201.1 | >= 40 |"), std::string::npos) << md;
}
