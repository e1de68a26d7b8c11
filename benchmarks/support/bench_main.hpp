#pragma once
// Shared main of the immerse benchmark programs (bench_<family>): initialises Kokkos, prints the
// versions and the Kokkos configuration (also into the JSON context), registers STREAM copy/triad
// for every enabled backend beside the program's own kernels, and ends with one summary line per
// memory-bound kernel: its GB/s and the ratio to the best STREAM triad measured in the same run.
//
// Naming convention (the report relies on it): "<kernel>/<backend>/<size...>"; STREAM kernels are
// "stream_copy/<backend>" and "stream_triad/<backend>". Byte counts follow STREAM (no write-allocate).
#include <functional>
#include <string>
#include <vector>

namespace immerse::bench {

struct Options {
  // Called after Kokkos is initialised: register the program's benchmarks (RegisterBenchmark).
  std::function<void()> register_benchmarks;
  // Full benchmark names whose GB/s the summary compares with STREAM triad.
  std::vector<std::string> summary_kernels;
  bool with_stream = true;
};

int run(int argc, char** argv, const Options& options);

}  // namespace immerse::bench
