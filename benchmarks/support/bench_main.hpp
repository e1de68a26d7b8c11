#pragma once
// Shared main of the immerse benchmark programs (bench_<family>): initialises Kokkos, prints the
// versions and the Kokkos configuration (also into the JSON context), registers the bandwidth rows of
// every enabled backend beside the program's own kernels, and ends with one summary line per
// memory-bound kernel: its GB/s and the ratio to the bandwidth of the pattern it uses, measured in
// the same run.
//
// Naming convention (the report relies on it): "<kernel>/<backend>/<size...>". Bandwidth rows:
// "stream_inplace/<backend>/before" first (read an array and write it back: the AA pattern), then the
// program's kernels, then "stream_copy/<backend>" (read one array, write another),
// "stream_memcpy/<backend>" (the same bytes through the runtime's own copy; it counts for the copy and
// the in-place pattern), "stream_triad/<backend>" and "stream_inplace/<backend>". The cores' arithmetic
// rate likewise: "core_fma/<backend>/before" and "core_fma/<backend>" (flops_per_s, single-precision
// multiply-adds in registers: cores taken by other work show there, not every slowdown of a larger
// kernel). Each carries
// others_cpu_pct (the share of the machine's CPU time other processes used since the program started)
// and loadavg_1m. A kernel declares its pattern with state.SetLabel("inplace") or SetLabel("copy");
// unlabelled kernels are compared with the triad. Byte counts follow STREAM (no write-allocate).
#include <functional>
#include <string>
#include <vector>

#include "immerse/core/backend.hpp"

namespace immerse::bench {

struct Options {
  // Called after Kokkos is initialised: register the program's benchmarks (RegisterBenchmark).
  std::function<void()> register_benchmarks;
  // Full benchmark names whose GB/s the summary compares with STREAM triad.
  std::vector<std::string> summary_kernels;
  bool with_stream = true;
};

int run(int argc, char** argv, const Options& options);

// Bytes per second of `passes` sweeps of the stream_inplace row's kernel over its array on `backend`
// (after one warm-up sweep): for a benchmark that times its kernels beside the bandwidth, in turn.
double inplace_bandwidth(immerse::Backend backend, int passes);

// Floating-point operations per second of one sweep of the core_fma rows' kernel on `backend` (after
// a warm-up sweep): for a benchmark whose ratios depend on the cores' rate, timed beside it.
double core_flops(immerse::Backend backend);

// Frees the arrays inplace_bandwidth sweeps; before Kokkos is finalised, in a program with its own main.
void release_stream_arrays();

}  // namespace immerse::bench
