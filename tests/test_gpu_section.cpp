// The report's "CUDA on a GPU" section (gpu_section.cpp): it shows the newest kept kit run of
// reports/gpu/, one row per case with cuda against the reference backend, and a throughput table
// per bench_*.json. The folders are built here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "immerse/reports/report.hpp"
#include "support/json_files.hpp"

namespace fs = std::filesystem;
using immerse::reports::gpu_section;
using immerse::test::write_json_file;
using nlohmann::json;

TEST(GpuSection, ShowsTheNewestRun) {
  const fs::path root = fs::temp_directory_path() / "immerse_gpu_section";
  fs::remove_all(root);
  write_json_file(root / "gpu" / "2026-01-01-h100" / "run.json", {{"gpu", "OLD GPU"}});
  write_json_file(
      root / "gpu" / "2026-11-26-h200" / "run.json",
      {{"gpu", "NVIDIA H200 (143771 MiB)"}, {"driver", "580"}, {"commit", "abc1234"}, {"date", "2026-11-26"}});
  write_json_file(root / "gpu" / "2026-11-26-h200" / "backends.json", json::parse(R"({
    "backends": "serial,openmp,cuda", "quick": true, "reference_backend": "serial", "verdict": "FAIL",
    "cases": [
      {"case": "jellyfish", "runs": [
        {"backend": "serial", "ms_per_step": 4.0, "verdict": "PASS"},
        {"backend": "cuda", "ms_per_step": 1.0, "speedup_over_reference": 4.0, "worst_rel_difference": 2e-6,
         "worst_metric": "mass", "worst_excess_over_tolerance": 2.0, "verdict": "FAIL"}]},
      {"case": "river", "runs": [
        {"backend": "serial", "ms_per_step": 1.0, "verdict": "PASS"},
        {"backend": "openmp", "ms_per_step": 1.0, "verdict": "PASS"}]}]})"));
  write_json_file(root / "gpu" / "2026-11-26-h200" / "bench_swlbm.json", json::parse(R"({
    "context": {"num_cpus": 16},
    "benchmarks": [{"name": "sw_step/cuda/2048/real_time", "run_type": "iteration", "real_time": 0.2,
                    "cpu_time": 0.2, "time_unit": "ms", "iterations": 10, "bytes_per_second": 3e12}]})"));
  const std::string md = gpu_section((root / "gpu").string(), (root / "latest").string());
  EXPECT_NE(md.find("NVIDIA H200 (143771 MiB) (driver 580), immerse at git abc1234"), std::string::npos) << md;
  EXPECT_EQ(md.find("OLD GPU"), std::string::npos) << md;
  EXPECT_NE(md.find("(../gpu/2026-11-26-h200/README.md)"), std::string::npos) << md;
  EXPECT_NE(md.find("| jellyfish | 4 | 1 | 4.00 | 2.00e-06 (mass, 2 x its tolerance) | FAIL |"), std::string::npos)
      << md;
  EXPECT_EQ(md.find("| river |"), std::string::npos) << md;  // no cuda run: no row
  EXPECT_NE(md.find("sw_step/cuda/2048/real_time"), std::string::npos) << md;
  fs::remove_all(root);
}

// A run cut short lacks the comparison or some programs: those come from the newest earlier run that
// has them, named.
TEST(GpuSection, TakesEachFileFromTheNewestRunThatHasIt) {
  const fs::path root = fs::temp_directory_path() / "immerse_gpu_section_bench";
  fs::remove_all(root);
  const auto bench = [](const char* name, double ms) {
    return json{{"context", {{"num_cpus", 16}}},
                {"benchmarks",
                 {{{"name", name},
                   {"run_type", "iteration"},
                   {"real_time", ms},
                   {"cpu_time", ms},
                   {"time_unit", "ms"},
                   {"iterations", 10}}}}};
  };
  write_json_file(root / "gpu" / "2026-11-26-h200" / "run.json", {{"gpu", "H200"}});
  write_json_file(root / "gpu" / "2026-11-26-h200" / "bench_swlbm.json", bench("sw_step/cuda/2048/real_time", 0.2));
  write_json_file(root / "gpu" / "2026-11-26-h200" / "bench_lbm3d.json", bench("collide_stream/cuda/fp32/64/old", 0.1));
  write_json_file(
      root / "gpu" / "2026-11-26-h200" / "backends.json",
      json::parse(R"({"backends": "serial,cuda", "reference_backend": "serial", "verdict": "PASS", "cases": [
          {"case": "river", "runs": [{"backend": "serial", "ms_per_step": 1.0},
                                     {"backend": "cuda", "ms_per_step": 2.0, "verdict": "PASS"}]}]})"));
  write_json_file(root / "gpu" / "2026-11-27-h200" / "run.json", {{"gpu", "H200"}});
  write_json_file(root / "gpu" / "2026-11-27-h200" / "bench_lbm3d.json",
                  bench("collide_stream/cuda/fp32/256/new", 3.0));
  const std::string md = gpu_section((root / "gpu").string(), (root / "latest").string());
  EXPECT_NE(md.find("From the earlier run 2026-11-26-h200 (the newest did not run the comparison): Every canned "
                    "case on serial,cuda"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| river | 1 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("collide_stream/cuda/fp32/256/new"), std::string::npos) << md;
  EXPECT_EQ(md.find("collide_stream/cuda/fp32/64/old"), std::string::npos) << md;
  EXPECT_NE(md.find("sw_step/cuda/2048/real_time"), std::string::npos) << md;
  EXPECT_NE(md.find("bench_swlbm (GPU machine, the earlier run 2026-11-26-h200"), std::string::npos) << md;
  fs::remove_all(root);
}

TEST(GpuSection, SaysSoWithoutARun) {
  const std::string md = gpu_section("/nonexistent/gpu", "reports/latest");
  EXPECT_NE(md.find("No run of the GPU kit in /nonexistent/gpu"), std::string::npos) << md;
}
