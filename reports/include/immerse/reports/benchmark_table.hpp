#pragma once
// The throughput table of one Google Benchmark program's JSON output, as `immerse report` prints it
// for every bench_* program: ms per iteration, throughput counters, GB/s and the fraction of the
// bandwidth of the memory pattern the kernel uses (its label: "inplace", "copy"; else the triad),
// measured by the same program on the same backend (the second element of the benchmark's name,
// e.g. collide_stream/openmp/...). Kernels above 1.1x that bandwidth are marked cache-resident; a
// run whose in-place bandwidth or cores' multiply-add rate (core_fma rows) moved by more than 20%
// between before and after the kernels, or where other processes took more than 10% of the CPU
// time, is flagged as noisy.
#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace immerse::reports {

std::string benchmark_table(const std::string& program, const nlohmann::json& out);

// How far the machine's bandwidth or cores' rate may move during a run (relative) before the report
// calls its figures noisy.
constexpr double kMachineDriftLimit = 0.2;

// A kernel measured above this multiple of its memory pattern's bandwidth cannot be streaming from
// memory: its arrays sat in the caches (benchmark_table.cpp says when the bandwidth test is what
// falls short instead).
constexpr double kCacheResident = 1.1;

// The memory pattern a benchmark row declares: "inplace", "copy" or "triad" (no label).
std::string kernel_pattern(const nlohmann::json& row);
// The best bandwidth (B/s) of that row's pattern on its backend measured in the program's run; 0 if
// not run.
double pattern_bandwidth(const nlohmann::json& out, const nlohmann::json& row);

// Whether a bench program's run was noisy: its in-place bandwidth or its cores' multiply-add rate
// moved by more than 20 % from before to after the kernels, or other processes took more than 10 %
// of the CPU time.
bool noisy_run(const nlohmann::json& out);

// With --benchmark_repetitions=N Google Benchmark writes N rows per benchmark and its aggregates
// (mean, median, stddev, cv): the same output with each benchmark's median in place of its
// repetitions, named as a single run is (its run_name), run_type "iteration", "repetitions": N. The
// tables and sections read this. A benchmark without a median (one run, or every repetition failed)
// keeps its first row; the other aggregates are dropped.
nlohmann::json median_rows(const nlohmann::json& out);

// The bench_*.json files in `dir` by program (the file's stem), as Google Benchmark wrote them; a
// file that is not valid JSON is left out with a message on stderr. Empty if `dir` holds none.
std::map<std::string, nlohmann::json> read_bench_outputs(const std::string& dir);

}  // namespace immerse::reports
