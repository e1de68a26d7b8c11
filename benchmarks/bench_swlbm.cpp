// bench_swlbm: Google Benchmark timings of the floating-bodies paper for every backend.
//
//   sw_step/<backend>/<N>            one shallow-water LBM step on an N x N basin (175, 512, 2048)
//   sw_step_fp32/<backend>/<N>, sw_step_fp16s/<backend>/<N>, sw_step_fp16c/<backend>/<N>
//                                    the same with the populations stored in float / binary16 / FP16C
//   fps_objects/<backend>/<column>   one frame of a Table 1 column (forces + Bullet + wetted section
//                                    + water step), the canned fps_objects case's grid and layout
//   stream_inplace, stream_copy, stream_triad   bandwidth rows from support/bench_main
//
// Bytes per cell of sw_step (STREAM convention, no write-allocate): read and write the 9
// populations (144 B in double, 72 B in float, 36 B in binary16), read the force field Fx, Fy and
// write h, u, v in the storage's arithmetic type (40 B in double for fp64, 20 B in float for fp32
// and fp16s): 184, 92 and 56 B.
// Run with OMP_PROC_BIND=spread OMP_PLACES=threads.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "../cases/floating/fps_objects.hpp"
#include "immerse/cases/case_library.hpp"
#include "immerse/core/backend.hpp"
#include "immerse/swlbm/sw_flow.hpp"
#include "support/bench_main.hpp"

namespace {

using immerse::Backend;
namespace swlbm = immerse::swlbm;
namespace cases = immerse::cases;

constexpr int kSizes[] = {175, 512, 2048};

swlbm::SwParams basin(int n) {
  swlbm::SwParams p;
  p.nx = p.ny = n;
  p.dx = 0.2;
  p.dt = 0.02;
  p.tau = 0.6;  // v = 10 m/s on 1 m deep water
  p.initial_h = "1 + 0.1 * exp(-((x - 10)^2 + (y - 10)^2))";
  p.source = "bench_swlbm";
  return p;
}

void sw_step(benchmark::State& state, Backend backend, int n, swlbm::Storage storage) {
  swlbm::SwParams p = basin(n);
  p.storage = storage;
  auto flow = swlbm::make_sw_flow(backend, p);
  for (int s = 0; s < 3; ++s) flow->step();
  for (auto _ : state) flow->step();  // step() fences
  if (!flow->status().healthy) state.SkipWithError("unhealthy water after the timed steps");
  const double cells = double(n) * n * state.iterations();
  state.counters["lattice_updates_per_s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
  const int pop_bytes = swlbm::population_bytes(storage);
  const int field_bytes = storage == swlbm::Storage::fp64 ? 8 : 4;
  state.SetBytesProcessed(std::int64_t(18 * pop_bytes + 5 * field_bytes) * n * n * state.iterations());
  state.SetLabel("copy");  // populations read from f_old, written to f_new
}

void fps_column(benchmark::State& state, Backend backend, int column) {
  const cases::CaseDoc doc = cases::load_case("fps_objects");
  const auto resolved = cases::resolve_case(doc, {});
  const cases::FloatCase fc = cases::float_case_from_json(resolved, doc.source);
  auto system =
      cases::make_fps_column(fc, fc.water, cases::fps_layout_from_json(resolved), column, backend, doc.source);
  for (int s = 0; s < 20; ++s) system->step();
  for (auto _ : state) system->step();
  state.counters["frames_per_s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["paper_frames_per_s"] = cases::kFpsColumns[column].paper_fps;
}

}  // namespace

int main(int argc, char** argv) {
  immerse::bench::Options options;
  options.register_benchmarks = [] {
    for (Backend b : immerse::enabled_backends()) {
      const std::string bn = immerse::to_string(b);
      for (const auto& [prefix, storage] : {std::pair<const char*, swlbm::Storage>{"sw_step/", swlbm::Storage::fp64},
                                            {"sw_step_fp32/", swlbm::Storage::fp32},
                                            {"sw_step_fp16s/", swlbm::Storage::fp16s},
                                            {"sw_step_fp16c/", swlbm::Storage::fp16c}})
        for (int n : kSizes)
          benchmark::RegisterBenchmark((prefix + bn + "/" + std::to_string(n)).c_str(), sw_step, b, n, storage)
              ->UseRealTime()
              ->Unit(benchmark::kMillisecond);
      for (int c = 0; c < 4; ++c)
        benchmark::RegisterBenchmark(("fps_objects/" + bn + "/" + cases::kFpsColumns[c].key).c_str(), fps_column, b, c)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
  };
  options.summary_kernels = {"sw_step/openmp/2048", "sw_step_fp32/openmp/2048", "sw_step_fp16s/openmp/2048",
                             "sw_step/openmp/512", "sw_step/openmp/175"};
  return immerse::bench::run(argc, argv, options);
}
