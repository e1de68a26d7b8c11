// bench_mac2d: Google Benchmark timings of the penalty solver's time step against STREAM-style
// memory-bandwidth kernels, for every backend compiled into this build.
//
//   penalty_step/<backend>/<N>  one PenaltyFlow::step() on a physical N x N channel
//   stream_inplace, stream_copy, stream_triad  bandwidth rows from support/bench_main (2, 2, 3 x 8 B per element)
//
// Byte counts follow the STREAM convention (no write-allocate traffic counted). For penalty_step the
// count is the minimum a step must move: read u, v and write u, v, p, 5 doubles = 40 B per cell.
// The shared main prints versions and the Kokkos configuration and ends with a summary line: the
// openmp 2048^2 step's GB/s and its ratio to the copy bandwidth (its pattern: u, v read from one
// buffer and written to the other) measured in the same run. Run with OMP_PROC_BIND=spread
// OMP_PLACES=threads.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "immerse/core/backend.hpp"
#include "immerse/mac2d/penalty_flow.hpp"
#include "immerse/mac2d/stability.hpp"
#include "support/bench_main.hpp"

namespace {

using immerse::Backend;
namespace mac2d = immerse::mac2d;

constexpr int kWarmupSteps = 3;
constexpr int kSizes[] = {256, 1024, 2048};

// --- penalty step -------------------------------------------------------------------------------

mac2d::PenaltyParams channel(int n) {
  mac2d::PenaltyParams p;
  p.nx = p.ny = n;
  p.dx = p.dy = 1.0 / n;
  p.Re = 100;
  p.eps = 0.005;
  p.mode = mac2d::BoundaryMode::physical;
  p.left = mac2d::Side::inflow;
  p.right = mac2d::Side::outflow;
  p.bottom = mac2d::Side::noslip;
  p.top = mac2d::Side::noslip;
  p.inflow_u = "4*y*(1-y)";  // peak 1
  p.velocity_scale = 1.0;
  p.dt = 0.5 * mac2d::stability_limits(p, p.velocity_scale).dt_max();
  p.source = "bench_mac2d";
  return p;
}

void penalty_step(benchmark::State& state, Backend backend, int n) {
  auto flow = mac2d::make_penalty_flow(backend, channel(n));
  for (int s = 0; s < kWarmupSteps; ++s) flow->step();
  for (auto _ : state) flow->step();  // step() fences after each phase
  if (!flow->status().finite) state.SkipWithError("non-finite field after the timed steps");
  const double cells = double(n) * n * state.iterations();
  state.counters["cells_per_s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
  state.SetBytesProcessed(std::int64_t(40) * n * n * state.iterations());
  state.SetLabel("copy");  // u, v read from one buffer, written to the other
}

}  // namespace

int main(int argc, char** argv) {
  immerse::bench::Options options;
  options.register_benchmarks = [] {
    for (Backend b : immerse::enabled_backends())
      for (int n : kSizes)
        benchmark::RegisterBenchmark(("penalty_step/" + immerse::to_string(b) + "/" + std::to_string(n)).c_str(),
                                     penalty_step, b, n)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
  };
  options.summary_kernels = {"penalty_step/openmp/2048"};
  return immerse::bench::run(argc, argv, options);
}
