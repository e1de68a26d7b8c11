// bench_stable: Google Benchmark timings of the Stable Fluids solver and the elastic-body cases.
//
//   stable_step/<backend>/<N>            one fluid step (jet into an N x N box, outflow opposite),
//                                        steps 4 to 3 + step_window(N), counters: per-phase ms, pressure
//                                        V-cycles/iterations per solve
//   pressure_solve/<solver>/<backend>/<N> the same step with jacobi, rbsor, multigrid or mgcg to the same
//                                        divergence tolerance (1e-3 1/s): ms and iterations per solve
//                                        (jacobi at 128^2 only: at 256^2 one solve takes minutes), from
//                                        step 3 on (the jet just started)
//   pressure_solve/<solver>/<backend>/256/developed
//                                        multigrid and mgcg from step 300 on (a developed jet)
//   case_step/<case>/<backend>           one coupled step of the canned elastic_bar / windmill case at
//                                        the paper's parameters (256^2, 35 / 100 sub-steps), frames 4 to
//                                        3 + kCaseWindow: frames_per_s
//
// The rows that step a flow time a fixed window of its steps, the same on every backend and
// machine. A step's cost changes as the flow develops (the windmill's frames 4-63 run at about
// 1.2x the rate of its whole 600), so an adaptive iteration count would time later, dearer steps
// on a faster backend or a faster day. The whole run's rate is the case's own frames_per_s
// (result.json; the report's Table 1).
//
// Run with OMP_PROC_BIND=spread OMP_PLACES=threads.
#include <benchmark/benchmark.h>

#include <string>

#include "immerse/cases/case_library.hpp"
#include "immerse/cases/simulation.hpp"
#include "immerse/core/backend.hpp"
#include "immerse/mac2d/stable_flow.hpp"
#include "support/bench_main.hpp"

namespace {

using immerse::Backend;
namespace mac2d = immerse::mac2d;

mac2d::StableParams jet_box(int n, mac2d::LinearSolver solver) {
  mac2d::StableParams p;
  p.nx = p.ny = n;
  p.h = 1.0 / n;
  p.walls[1].type = mac2d::WallType::outflow;
  p.jets.push_back({0, 0.3, 0.5, "0.2"});
  p.dt = 0.013 * 256.0 / n;  // the bar case's Courant number at every size
  p.nu = 1e-4;
  p.pressure_solver = solver;
  p.pressure_tol = 1e-3;
  p.max_iterations = 1000000;
  p.source = "bench_stable";
  return p;
}

// warmup: steps before the timed ones. kStarting: just past the impulsive start, where the jet's front still
// changes the pressure markedly from step to step (two V-cycles per solve at 256^2); kDeveloped: a
// developed jet, where the previous step's pressure is close to the new one (one V-cycle).
constexpr int kStarting = 3, kDeveloped = 300;
// Timed steps of stable_step at N^2: about half a second on one core here.
int step_window(int n) { return n <= 256 ? 100 : n <= 512 ? 30 : 8; }
constexpr int kCaseWindow = 60;  // timed frames of case_step (the windmill: 0.6 s on one core here)
void stable_step(benchmark::State& state, Backend backend, int n, mac2d::LinearSolver solver, int warmup) {
  auto flow = mac2d::make_stable_flow(backend, jet_box(n, solver));
  for (int s = 0; s < warmup; ++s) flow->step();
  const auto phases0 = flow->phase_seconds();
  const auto p0 = flow->pressure_stats();
  for (auto _ : state) flow->step();
  const double k = state.iterations();
  const auto phases = flow->phase_seconds();
  for (size_t q = 0; q < phases.size(); ++q) {
    double before = 0;
    for (const auto& [name, s] : phases0)
      if (name == phases[q].first) before = s;
    state.counters[phases[q].first + "_ms"] = 1e3 * (phases[q].second - before) / k;
  }
  const auto& p = flow->pressure_stats();
  state.counters["pressure_iterations_per_solve"] = double(p.iterations - p0.iterations) / (p.solves - p0.solves);
  state.counters["pressure_ms_per_solve"] = 1e3 * (p.seconds - p0.seconds) / (p.solves - p0.solves);
  state.counters["cells_per_s"] = benchmark::Counter(double(n) * n * k, benchmark::Counter::kIsRate);
}

void case_step(benchmark::State& state, const std::string& name, Backend backend) {
  using namespace immerse::cases;
  const CaseDoc doc = load_case(name);
  const immerse::json params = resolve_case(doc, {"output.frames=0", "coupling.compare=false"});
  RunOptions opt;
  opt.backend = backend;
  opt.quiet = true;
  std::unique_ptr<Simulation> sim = make_simulation(params, doc.source, opt);
  for (int s = 0; s < 3; ++s) sim->step();
  for (auto _ : state) sim->step();
  state.counters["frames_per_s"] = benchmark::Counter(state.iterations(), benchmark::Counter::kIsRate);
}

}  // namespace

int main(int argc, char** argv) {
  immerse::bench::Options options;
  options.register_benchmarks = [] {
    for (Backend b : immerse::enabled_backends()) {
      const std::string bn = immerse::to_string(b);
      for (int n : {256, 512, 1024})
        benchmark::RegisterBenchmark(("stable_step/" + bn + "/" + std::to_string(n)).c_str(), stable_step, b, n,
                                     mac2d::LinearSolver::multigrid, kStarting)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(step_window(n));
      for (auto s : {mac2d::LinearSolver::multigrid, mac2d::LinearSolver::mgcg, mac2d::LinearSolver::rbsor,
                     mac2d::LinearSolver::jacobi})
        for (int n : {128, 256}) {
          if (s == mac2d::LinearSolver::jacobi && n > 128) continue;  // minutes per solve at 256^2
          benchmark::RegisterBenchmark(
              ("pressure_solve/" + std::string(mac2d::to_string(s)) + "/" + bn + "/" + std::to_string(n)).c_str(),
              stable_step, b, n, s, kStarting)
              ->UseRealTime()
              ->Unit(benchmark::kMillisecond)
              ->Iterations(s == mac2d::LinearSolver::jacobi ? 2 : 10);
        }
      for (auto s : {mac2d::LinearSolver::multigrid, mac2d::LinearSolver::mgcg})
        benchmark::RegisterBenchmark(
            ("pressure_solve/" + std::string(mac2d::to_string(s)) + "/" + bn + "/256/developed").c_str(), stable_step,
            b, 256, s, kDeveloped)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(30);
      for (const char* c : {"elastic_bar", "windmill"})
        benchmark::RegisterBenchmark(("case_step/" + std::string(c) + "/" + bn).c_str(), case_step, std::string(c), b)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(kCaseWindow);
    }
  };
  options.with_stream = true;
  return immerse::bench::run(argc, argv, options);
}
