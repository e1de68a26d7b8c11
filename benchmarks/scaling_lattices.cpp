// Scaling of the lattice solvers over MPI ranks (docs/mpi.md): Google Benchmark rows, run under the
// MPI launcher, e.g. on a 2-core machine
//   OMP_NUM_THREADS=2 scaling_lattices                      (1 rank x 2 threads)
//   mpirun -np 2 -x OMP_NUM_THREADS=1 scaling_lattices      (2 ranks x 1 thread)
// Rows, D3Q15 (AA pattern, FP32, periodic; blocks split along y and z):
//   lbm3d_weak/<N>/ranks:R/threads:T    every rank updates an N^3 block (the lattice N x N py x N pz);
//                                       N = 64, 128 and 256 (out of any cache)
//   lbm3d_strong/<N>/ranks:R/threads:T  one N^3 lattice split among the ranks
//   lbm3d_strong_blocking/<N>/...       the same with the exchange before and after the whole update
//                                       instead of beside the interior's (LbmBlock::overlap off)
//   On one node the ranks of these rows share the populations (split along z; LbmBlock::share_node):
//   nothing is copied, the exchange is the wait for the neighbours' word that a step is done.
//   lbm3d_strong_messages/<N>/...       the strong split with ghost layers and messages instead, as
//   lbm3d_strong_messages_blocking/...  between nodes (share_node off), with and without overlap
//   lbm3d_weak_messages/<N>/...         the weak rows so
//   lbm3d_exchange/<N>/...              the messages rows' ghost-layer exchanges alone (no update; 2
//                                       ranks or more)
// and the same six for the shallow-water lattice (FP32, periodic; blocks of rows, shared on one
// node: SwBlock::share always), swlbm_weak/<N> (N^2 per rank), swlbm_weak_messages/<N>,
// swlbm_strong/<N>, ..._blocking/<N>, swlbm_strong_messages/<N> and ..._messages_blocking/<N>.
// Every rank runs the same fixed number of iterations (a collective loop cannot let each rank pick
// its own); an iteration's time is the slowest rank's (manual time), and rank 0 reports. Counters:
// lattice_updates_per_s of the whole lattice; halo_ms_per_step, the slowest rank's exchange phase
// (pack, start, wait for the neighbours, unpack: with overlap, what the interior update did not
// hide); halo_bytes_per_step, what the busiest rank sent per step, as its exchange buffers counted
// it (halo_bytes_sent; D3Q15 AA: a fill before the exchange step and a give-back after it, none
// around the local step); for the exchange row, halo_GBps: those bytes over that time, per rank.
// The machine's rates come first and last, machine/before and machine/after: every rank sweeps the
// in-place bandwidth row's array and runs the core_fma rows' kernel (bench_main) at once, and the
// ranks' rates are added, so each arrangement measures the whole machine (inplace_GBps,
// core_GFLOPs): what tells a slower sitting, or a run that shared the cores, from a slower split;
// on several ranks of one node, shared_huge_pages: the share of the node's shared memory (as the
// shared lattices get it) that lies in 2 MiB pages (shared_huge_page_share).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/node_shared.hpp"
#include "immerse/lbm3d/lbm_blocks.hpp"
#include "immerse/lbm3d/lbm_halo.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/swlbm/sw_blocks.hpp"
#include "support/bench_main.hpp"

using namespace immerse;

namespace {

template <class Flow>
double halo_seconds(const Flow& flow) {
  for (const auto& [name, s] : flow.phase_seconds())
    if (name == "halo") return s;
  return 0;
}

// Times `steps_per_iteration` steps of `flow` per iteration and sets the counters (the lattice has
// `cells` cells in all).
template <class Flow>
void time_steps(benchmark::State& state, Flow& flow, int steps_per_iteration, double cells) {
  Comm& comm = world();
  for (int s = 0; s < steps_per_iteration; ++s) flow.step();
  const double halo0 = halo_seconds(flow), bytes0 = flow.halo_bytes_sent();
  for (auto _ : state) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < steps_per_iteration; ++s) flow.step();
    state.SetIterationTime(comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  }
  const double steps = double(steps_per_iteration) * state.iterations();
  state.counters["lattice_updates_per_s"] =
      benchmark::Counter(cells * steps_per_iteration, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["halo_ms_per_step"] = 1e3 * comm.max(halo_seconds(flow) - halo0) / steps;
  state.counters["halo_bytes_per_step"] = comm.max(flow.halo_bytes_sent() - bytes0) / steps;  // the busiest rank
  state.counters["ranks"] = comm.size();
  state.counters["threads"] = backend_concurrency(default_backend());
}

void lattice_steps(benchmark::State& state, bool weak, bool overlap, bool share, int n) {
  Comm& comm = world();
  lbm3d::LbmParams p;
  p.nx = p.ny = p.nz = n;
  // Weak rows grow the lattice along the split's axes: along z where the ranks share the populations
  // (make_lbm_flow_on_ranks splits along z there).
  const bool shared = share && comm.size() > 1 && comm.one_node();
  const std::array<int, 3> dims =
      shared ? std::array<int, 3>{1, 1, comm.size()} : lbm3d::choose_dims(p, comm.size(), {0, 0, 0});
  if (weak) p.ny = n * dims[1], p.nz = n * dims[2];
  p.tau = 0.8;
  p.source = "scaling_lattices";
  p.block.overlap = overlap;
  p.block.share_node = share;
  p.init_ux = "0.02 * sin(2 * pi * y / " + std::to_string(p.ny) + ")";
  auto flow = lbm3d::make_lbm_flow_on_ranks(default_backend(), p, comm, dims);
  time_steps(state, *flow, 2, double(p.cells()));  // two steps: the AA pattern's exchange and local steps
}

// The ghost-layer exchanges of lattice_steps' strong split with messages (share off) alone: per iteration, after a
// barrier, the AA exchange step's fill and give-back on this rank's block, nothing updated. What moving the halo costs
// a rank with no work to hide it behind and no neighbour to wait for: the part of the overlapped rows' exchange that is
// copying, not waiting.
void exchange_only(benchmark::State& state, int n) {
  Comm& comm = world();
  lbm3d::LbmParams whole;
  whole.nx = whole.ny = whole.nz = n;
  const lbm3d::RankLayout layout =
      lbm3d::rank_layout_on(whole, lbm3d::choose_dims(whole, comm.size(), {0, 0, 0}), comm);
  const lbm3d::LbmParams p = lbm3d::block_params(whole, layout, comm.rank());
  const long stride = lbm3d::population_stride<float>(p.cells());
  Kokkos::View<float*> f("scaling_lattices::f", 15 * stride);
  Kokkos::deep_copy(f, 1.0f);
  lbm3d::LbmHalo<float, Kokkos::DefaultExecutionSpace> halo(p, stride, comm);
  const lbm3d::HaloGroups<Kokkos::DefaultExecutionSpace> none;
  double seconds = 0;
  for (auto _ : state) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    halo.fill(f, true, none);
    halo.give_back(f, none);
    const double t = comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    state.SetIterationTime(t);
    seconds += t;
  }
  const double steps = 2.0 * state.iterations(), bytes = comm.max(static_cast<double>(halo.bytes_sent()));
  state.counters["halo_ms_per_step"] = 1e3 * seconds / steps;
  state.counters["halo_bytes_per_step"] = bytes / steps;
  state.counters["halo_GBps"] = bytes / seconds / 1e9;
  state.counters["ranks"] = comm.size();
  state.counters["threads"] = backend_concurrency(default_backend());
}

// The shallow-water lattice, periodic, FP32, a shear flow; n x n per rank (weak) or in all (strong).
void water_steps(benchmark::State& state, bool weak, bool overlap, bool share, int n) {
  Comm& comm = world();
  swlbm::SwParams p;
  p.nx = n;
  p.ny = weak ? n * comm.size() : n;
  p.dx = 1;
  p.dt = 0.05;
  p.tau = 0.8;
  p.left = p.right = p.bottom = p.top = swlbm::Border::periodic;
  p.storage = swlbm::Storage::fp32;
  p.initial_h = "1";
  p.initial_u = "0.1 * sin(2 * pi * y / " + std::to_string(p.ny) + ")";
  p.source = "scaling_lattices";
  p.block.overlap = overlap;
  // The shared rows wherever the ranks can share them, whatever pages they get: the solver's own
  // choice (SwBlock::share) would run ghost rows on a node whose shared memory has 4 KiB pages.
  p.block.share = share ? NodeSharing::always : NodeSharing::never;
  auto flow = swlbm::make_sw_flow_on_ranks(default_backend(), p, comm, {0, 0, 0});
  time_steps(state, *flow, 1, double(p.nx) * p.ny);
}

// The sum over the ranks of `rate()`, each rank measuring at once after a barrier.
template <class Rate>
double summed_over_ranks(const Rate& rate) {
  Comm& comm = world();
  comm.barrier();
  double sum = 0;
  for (double r : comm.allgather({rate()})) sum += r;
  return sum;
}

void machine_rates(benchmark::State& state) {
  double bandwidth = 0, flops = 0;
  for (auto _ : state) {
    bandwidth = summed_over_ranks([] { return bench::inplace_bandwidth(default_backend(), 4); });
    flops = summed_over_ranks([] { return bench::core_flops(default_backend()); });
  }
  bench::release_stream_arrays();
  state.counters["inplace_GBps"] = bandwidth / 1e9;
  state.counters["core_GFLOPs"] = flops / 1e9;
  if (world().size() > 1 && world().one_node()) state.counters["shared_huge_pages"] = shared_huge_page_share(world());
  state.counters["ranks"] = world().size();
  state.counters["threads"] = backend_concurrency(default_backend());
}

// Rank 0 reports; the others run the same benchmarks silently.
class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  init_world(argc, argv);
  std::vector<char*> args(argv, argv + argc);
  if (world().rank() != 0)  // only rank 0 writes --benchmark_out
    args.erase(std::remove_if(args.begin(), args.end(),
                              [](const char* a) { return std::strncmp(a, "--benchmark_out", 15) == 0; }),
               args.end());
  int count = static_cast<int>(args.size());
  char** v = args.data();
  Kokkos::initialize(count, v);
  benchmark::Initialize(&count, v);
  const std::string suffix =
      "/ranks:" + std::to_string(world().size()) + "/threads:" + std::to_string(backend_concurrency(default_backend()));
  // Per lattice: its rows' prefix, what times them, a small and a large size (iterations: 40, 10).
  struct Lattice {
    const char* prefix;
    void (*steps)(benchmark::State&, bool weak, bool overlap, bool share, int n);
    int sizes[2];
  };
  struct Row {
    const char* name;
    bool weak, overlap, share;
  };
  const Row rows[] = {{"_weak/", true, true, true},
                      {"_weak_messages/", true, true, false},
                      {"_strong/", false, true, true},
                      {"_strong_blocking/", false, false, true},
                      {"_strong_messages/", false, true, false},
                      {"_strong_messages_blocking/", false, false, false}};
  auto machine = [&suffix](const char* when) {
    benchmark::RegisterBenchmark((std::string("machine/") + when + suffix).c_str(), machine_rates)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  };
  machine("before");
  for (const Lattice& l : {Lattice{"lbm3d", lattice_steps, {64, 128}}, Lattice{"swlbm", water_steps, {1024, 2048}}})
    for (int k = 0; k < 2; ++k)
      for (const Row& r : rows) {
        benchmark::RegisterBenchmark((l.prefix + std::string(r.name) + std::to_string(l.sizes[k]) + suffix).c_str(),
                                     l.steps, r.weak, r.overlap, r.share, l.sizes[k])
            ->UseManualTime()
            ->Iterations(k == 0 ? 40 : 10)
            ->Unit(benchmark::kMillisecond);
      }
  // The D3Q15 weak row at 256^3 per rank (1 GB of populations): at 128^3 the 1-rank lattice (126
  // MB) fits the last-level cache of some machines and the 2-rank one does not, and the weak ratio
  // then compares the cache with the memory; at 256^3 both lie in memory.
  benchmark::RegisterBenchmark(("lbm3d_weak/256" + suffix).c_str(), lattice_steps, true, true, true, 256)
      ->UseManualTime()
      ->Iterations(10)
      ->Unit(benchmark::kMillisecond);
  if (world().size() > 1)
    for (int n : {64, 128})
      benchmark::RegisterBenchmark(("lbm3d_exchange/" + std::to_string(n) + suffix).c_str(), exchange_only, n)
          ->UseManualTime()
          ->Iterations(n == 64 ? 400 : 100)
          ->Unit(benchmark::kMillisecond);
  machine("after");
  Silent silent;
  if (world().rank() == 0)
    benchmark::RunSpecifiedBenchmarks();
  else
    benchmark::RunSpecifiedBenchmarks(&silent);
  Kokkos::finalize();
  finalize_world();
  return 0;
}
