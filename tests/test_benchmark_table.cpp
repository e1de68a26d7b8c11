// The report's throughput table of one bench_* program (immerse report): each kernel's fraction is
// taken against the bandwidth of the memory pattern it declares, measured on its own backend in the
// same run; kernels above it are cache-resident; noisy runs are flagged. The JSON is built here, in
// Google Benchmark's output format.
#include <gtest/gtest.h>

#include "immerse/reports/benchmark_table.hpp"

using immerse::reports::benchmark_table;
using nlohmann::json;

namespace {
// One row of Google Benchmark's output; `label`: the memory pattern the kernel declares.
json bench(const std::string& name, double ms, double bytes_per_second = 0, const char* label = nullptr) {
  json b = {{"name", name},   {"run_type", "iteration"}, {"real_time", ms},
            {"cpu_time", ms}, {"time_unit", "ms"},       {"iterations", 10}};
  if (bytes_per_second > 0) b["bytes_per_second"] = bytes_per_second;
  if (label) b["label"] = label;
  return b;
}
json context() { return {{"num_cpus", 2}, {"mhz_per_cpu", 2600}}; }
}  // namespace

TEST(BenchmarkTable, FractionOfTheSameBackendsTriad) {
  const json out = {{"context", context()},
                    {"benchmarks",
                     {bench("stream_triad/openmp/real_time", 5, 40e9), bench("stream_triad/serial/real_time", 9, 20e9),
                      bench("kernel/openmp/128/real_time", 2, 30e9), bench("kernel/serial/128/real_time", 4, 10e9)}}};
  const std::string md = benchmark_table("bench_x", out);
  EXPECT_NE(md.find("| kernel/openmp/128/real_time | 2 |  | 30.00 | 75% of triad |"), std::string::npos) << md;
  EXPECT_NE(md.find("| kernel/serial/128/real_time | 4 |  | 10.00 | 50% of triad |"), std::string::npos) << md;
  EXPECT_NE(md.find("in this program's run (best of before and after the kernels): openmp triad 40.00 GB/s, serial "
                    "triad 20.00 GB/s."),
            std::string::npos)
      << md;
}

// A kernel is compared with the pattern it declares (its label): the AA lattice kernel with the
// in-place row, the pull kernel with the copy row, each the best of before and after. Against the
// triad (60 GB/s here, as on machines where write-allocate makes the triad look fast) the in-place
// kernel would read 50%, and this table once called it "at the bandwidth ceiling" at 60%.
TEST(BenchmarkTable, KernelAgainstItsOwnPattern) {
  json aa = bench("collide_stream/openmp/fp32/256/real_time", 10, 30e9, "inplace");
  json pull = bench("collide_stream/openmp/fp32/256/pull/real_time", 12, 20e9, "copy");
  const json out = {{"context", context()},
                    {"benchmarks",
                     {bench("stream_inplace/openmp/before/real_time", 5, 48e9), aa, pull,
                      bench("stream_copy/openmp/real_time", 5, 25e9), bench("stream_triad/openmp/real_time", 5, 60e9),
                      bench("stream_inplace/openmp/real_time", 5, 50e9)}}};
  const std::string md = benchmark_table("bench_lbm3d", out);
  EXPECT_NE(md.find("| collide_stream/openmp/fp32/256/real_time | 10 |  | 30.00 | 60% of in-place |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| collide_stream/openmp/fp32/256/pull/real_time | 12 |  | 20.00 | 80% of copy |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| stream_copy/openmp/real_time | 5 |  | 25.00 |  |"), std::string::npos) << md;  // no self-ratio
  EXPECT_NE(md.find("Quiet run: in-place bandwidth before and after the kernels: openmp 48.00 -> 50.00 GB/s (+4%)"),
            std::string::npos)
      << md;
}

// The runtime's copy moves the bytes of the copy and the in-place pattern: what it reaches is either
// pattern's bandwidth too. On the H200 of 2026-11-29 the Kokkos copy and in-place kernels moved 1.52
// TiB/s, cudaMemcpy 3.60 TiB/s: against the kernels the pull kernel read 122%. The runtime's copy
// is measured after the kernels only and takes no part in the drift check.
TEST(BenchmarkTable, RuntimesCopyCountsForTheCopyAndInPlacePatterns) {
  json pull = bench("collide_stream/cuda/fp32/256/pull/real_time", 1, 2.0e12, "copy");
  json aa = bench("collide_stream/cuda/fp32/256/real_time", 1, 1.2e12, "inplace");
  const json out = {{"context", context()},
                    {"benchmarks",
                     {bench("stream_inplace/cuda/before/real_time", 1, 1.6e12), pull, aa,
                      bench("stream_copy/cuda/real_time", 1, 1.6e12), bench("stream_memcpy/cuda/real_time", 1, 4.0e12),
                      bench("stream_inplace/cuda/real_time", 1, 1.6e12)}}};
  const std::string md = benchmark_table("bench_lbm3d", out);
  EXPECT_NE(md.find("| collide_stream/cuda/fp32/256/pull/real_time | 1 |  | 2000.00 | 50% of copy |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| collide_stream/cuda/fp32/256/real_time | 1 |  | 1200.00 | 30% of in-place |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| stream_memcpy/cuda/real_time | 1 |  | 4000.00 |  |"), std::string::npos) << md;
  EXPECT_NE(md.find("cuda copy 4000.00 GB/s, cuda in-place 4000.00 GB/s"), std::string::npos) << md;
  EXPECT_NE(md.find("Quiet run: in-place bandwidth before and after the kernels: cuda 1600.00 -> 1600.00 GB/s"),
            std::string::npos)
      << md;
}

// SW-LBM at 175^2 once showed 213% of the triad: a grid that fits in cache. Above 1.1x its pattern's
// bandwidth a kernel is marked as cache-resident.
TEST(BenchmarkTable, AboveBandwidthIsCacheResident) {
  json small = bench("sw_step/openmp/175/real_time", 0.1, 60e9, "copy");
  const json out = {{"context", context()}, {"benchmarks", {small, bench("stream_copy/openmp/real_time", 5, 25e9)}}};
  const std::string md = benchmark_table("bench_swlbm", out);
  EXPECT_NE(md.find("240% of copy (above memory bandwidth: cache-resident) |"), std::string::npos) << md;
  // Without a declared pattern the kernel is compared with the triad and not called cache-resident:
  // it may move memory in a cheaper pattern (a GPU's 2048^2 shallow-water step read 144% of triad).
  const json unlabelled = {
      {"context", context()},
      {"benchmarks", {bench("sw_step/cuda/2048/real_time", 0.2, 36e9), bench("stream_triad/cuda/real_time", 5, 25e9)}}};
  const std::string md2 = benchmark_table("bench_swlbm", unlabelled);
  EXPECT_NE(md2.find("| 144% of triad |"), std::string::npos) << md2;
  // A working set larger than any cache cannot be cache-resident: 84 ms at 48 GB/s is 4 GB per
  // iteration (the D3Q15 AA kernel at 256^3); there the bandwidth test is what falls short.
  json large = bench("collide_stream/openmp/fp32/256/real_time", 84, 48e9, "inplace");
  const json out3 = {{"context", context()},
                     {"benchmarks", {large, bench("stream_inplace/openmp/real_time", 5, 40e9)}}};
  const std::string md3 = benchmark_table("bench_lbm3d", out3);
  EXPECT_NE(md3.find("120% of in-place (above the bandwidth test with 4 GB per iteration, more than any cache holds: "
                     "the test underestimates this pattern) |"),
            std::string::npos)
      << md3;
}

// Whether a working set fits the caches follows the caches the run's context lists: 0.51 GB per
// iteration (the D3Q15 AA kernel at 128^3, 126 MB of populations read and written twice) is more
// than 4x a 32 MB last-level cache, but fits a 480 MB one (a Xeon VM's), where that row ran at 176% of
// the in-place test from the cache.
TEST(BenchmarkTable, WhatFitsTheCachesFollowsTheMachinesCaches) {
  auto table = [](double llc_bytes) {
    json c = context();
    c["caches"] = {{{"type", "Data"}, {"level", 1}, {"size", 49152}, {"num_sharing", 1}},
                   {{"type", "Unified"}, {"level", 3}, {"size", llc_bytes}, {"num_sharing", 2}}};
    const json out = {{"context", c},
                      {"benchmarks",
                       {bench("collide_stream/openmp/fp32/128/real_time", 5, 102e9, "inplace"),
                        bench("stream_inplace/openmp/real_time", 5, 58e9)}}};
    return benchmark_table("bench_lbm3d", out);
  };
  const std::string small = table(32.0 * 1024 * 1024), large = table(480.0 * 1024 * 1024);
  EXPECT_NE(small.find("176% of in-place (above the bandwidth test with 0.51 GB per iteration, more than any cache "
                       "holds"),
            std::string::npos)
      << small;
  EXPECT_NE(large.find("176% of in-place (above memory bandwidth: cache-resident) |"), std::string::npos) << large;
}

// A run whose in-place bandwidth moved by more than 20% between before and after the kernels, or
// where other processes took more than 10% of the CPU time, is flagged.
TEST(BenchmarkTable, FlagsANoisyRun) {
  json before = bench("stream_inplace/openmp/before/real_time", 5, 50e9);
  before["others_cpu_pct"] = 0.5;
  json after = bench("stream_inplace/openmp/real_time", 5, 35e9);
  after["others_cpu_pct"] = 2.0;
  std::string md = benchmark_table("bench_x", {{"context", context()}, {"benchmarks", {before, after}}});
  EXPECT_NE(md.find("**Noisy run**"), std::string::npos) << md;
  EXPECT_NE(md.find("openmp 50.00 -> 35.00 GB/s (-30%); the cores' multiply-add rate: not measured; other processes "
                    "used 2.0% of the CPU time"),
            std::string::npos)
      << md;
  after["bytes_per_second"] = 49e9;
  after["others_cpu_pct"] = 25.0;
  md = benchmark_table("bench_x", {{"context", context()}, {"benchmarks", {before, after}}});
  EXPECT_NE(md.find("**Noisy run**"), std::string::npos) << md;
  EXPECT_NE(md.find("other processes used 25.0% of the CPU time"), std::string::npos) << md;
  after["others_cpu_pct"] = 1.0;
  md = benchmark_table("bench_x", {{"context", context()}, {"benchmarks", {before, after}}});
  EXPECT_NE(md.find("Quiet run"), std::string::npos) << md;
}

// A kernel held by arithmetic follows the cores' rate, not the bandwidth: a run whose core_fma rate
// moved by more than 20% is flagged though its bandwidth held (this VM's vector throughput halved for
// minutes while its memory did not), and the core rows show their rate.
TEST(BenchmarkTable, FlagsACoreRateDrift) {
  const json bw_before = bench("stream_inplace/openmp/before/real_time", 5, 100e9);
  const json bw_after = bench("stream_inplace/openmp/real_time", 5, 104e9);
  json core_before = bench("core_fma/openmp/before/real_time", 4.5);
  core_before["flops_per_s"] = 440e9;
  json core_after = bench("core_fma/openmp/real_time", 7.0);
  core_after["flops_per_s"] = 290e9;
  std::string md = benchmark_table(
      "bench_x", {{"context", context()}, {"benchmarks", {bw_before, core_before, bw_after, core_after}}});
  EXPECT_NE(md.find("**Noisy run**"), std::string::npos) << md;
  EXPECT_NE(md.find("the cores' multiply-add rate: openmp 440.00 -> 290.00 GFLOP/s (-34%)"), std::string::npos) << md;
  EXPECT_NE(md.find("| core_fma/openmp/before/real_time | 4.5 | 440.0 GFLOP/s |"), std::string::npos) << md;
  core_after["flops_per_s"] = 420e9;
  md = benchmark_table("bench_x",
                       {{"context", context()}, {"benchmarks", {bw_before, core_before, bw_after, core_after}}});
  EXPECT_NE(md.find("Quiet run"), std::string::npos) << md;
  EXPECT_TRUE(!immerse::reports::noisy_run({{"benchmarks", {bw_before, core_before, bw_after, core_after}}}));
}

// A program without STREAM rows (bench_langevin): no fractions, and the triad line says so instead of
// listing every benchmark's second name element at 0 GB/s (it did: "airplane_288 0.00 GB/s, ...").
TEST(BenchmarkTable, NoTriadMeasuredListsNoBackend) {
  const json out = {
      {"context", context()},
      {"benchmarks", {bench("table1_step/airplane_288/dt5ms", 0.0003), bench("added_mass/host/1280/real_time", 11)}}};
  const std::string md = benchmark_table("bench_langevin", out);
  EXPECT_NE(md.find("in this program's run (best of before and after the kernels): not measured."), std::string::npos)
      << md;
  EXPECT_EQ(md.find("airplane_288 0.00"), std::string::npos) << md;
}

// With repetitions (immerse report --repetitions N) each benchmark has N rows and its aggregates: the
// table shows one row per benchmark, the median, under the benchmark's own name, with its label.
TEST(BenchmarkTable, RepetitionsShowTheirMedian) {
  json out = {{"context", context()}, {"benchmarks", json::array()}};
  for (double ms : {4.0, 2.0, 3.0}) {
    json r = bench("kernel/openmp/128/real_time", ms, 30e9 * 2 / ms, "inplace");
    r["run_name"] = "kernel/openmp/128/real_time";
    r["repetitions"] = 3;
    out["benchmarks"].push_back(r);
  }
  for (const auto& [aggregate, ms] : {std::pair{"mean", 3.0}, std::pair{"median", 3.0}, std::pair{"stddev", 1.0}}) {
    json a = bench(std::string("kernel/openmp/128/real_time_") + aggregate, ms, 20e9);
    a["run_name"] = "kernel/openmp/128/real_time";
    a["run_type"] = "aggregate";
    a["aggregate_name"] = aggregate;
    out["benchmarks"].push_back(a);
  }
  const json m = immerse::reports::median_rows(out);
  ASSERT_EQ(m["benchmarks"].size(), 1u) << m.dump(1);
  EXPECT_EQ(m["benchmarks"][0]["name"], "kernel/openmp/128/real_time");
  EXPECT_EQ(m["benchmarks"][0]["label"], "inplace");
  const std::string md = benchmark_table("bench_x", m);
  EXPECT_NE(md.find("| kernel/openmp/128/real_time | 3 |  | 20.00 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("real_time_m"), std::string::npos) << md;
  // Without repetitions the output is unchanged.
  const json single = {{"context", context()}, {"benchmarks", {bench("kernel/openmp/128/real_time", 2)}}};
  EXPECT_EQ(immerse::reports::median_rows(single), single);
}
