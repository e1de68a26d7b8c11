// The report's throughput table of one bench_* program (immerse report): the fraction of STREAM is
// taken against the triad measured on the benchmark's own backend in the same run, and the line
// listing the measured triads names only the backends that ran stream_triad. The JSON is built
// here, in Google Benchmark's output format.
#include <gtest/gtest.h>

#include "immerse/reports/benchmark_table.hpp"

using immerse::reports::benchmark_table;
using nlohmann::json;

namespace {
json bench(const std::string& name, double ms, double bytes_per_second = 0) {
  json b = {{"name", name},   {"run_type", "iteration"}, {"real_time", ms},
            {"cpu_time", ms}, {"time_unit", "ms"},       {"iterations", 10}};
  if (bytes_per_second > 0) b["bytes_per_second"] = bytes_per_second;
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
  EXPECT_NE(md.find("| kernel/openmp/128/real_time | 2 |  | 30.00 | 75% |"), std::string::npos) << md;
  EXPECT_NE(md.find("| kernel/serial/128/real_time | 4 |  | 10.00 | 50% |"), std::string::npos) << md;
  EXPECT_NE(md.find("in this program's run: openmp 40.00 GB/s, serial 20.00 GB/s."), std::string::npos) << md;
}

// A program without STREAM rows (bench_langevin): no fractions, and the triad line says so instead of
// listing every benchmark's second name element at 0 GB/s (it did: "airplane_288 0.00 GB/s, ...").
TEST(BenchmarkTable, NoTriadMeasuredListsNoBackend) {
  const json out = {
      {"context", context()},
      {"benchmarks", {bench("table1_step/airplane_288/dt5ms", 0.0003), bench("added_mass/host/1280/real_time", 11)}}};
  const std::string md = benchmark_table("bench_langevin", out);
  EXPECT_NE(md.find("in this program's run: not measured."), std::string::npos) << md;
  EXPECT_EQ(md.find("airplane_288 0.00"), std::string::npos) << md;
}
