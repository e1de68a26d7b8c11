// The `immerse` program: info, list, run, validate, report, compare.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <thread>

#include "immerse/cases/case_library.hpp"
#include "immerse/cases/runner.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/versions.hpp"
#include "immerse/reports/compare.hpp"
#include "immerse/reports/report.hpp"
#include "../langevin/added_mass_command.hpp"

using namespace immerse;
using namespace immerse::cases;

namespace {

int cmd_info() {
  std::string backends;
  for (Backend b : enabled_backends()) backends += (backends.empty() ? "" : ", ") + to_string(b);
  fmt::print("immerse   {}\ngit       {}\nkokkos    {}\nbackends  {} (default {})\n", immerse_version(), git_hash(),
             kokkos_version(), backends, to_string(default_backend()));
#if defined(KOKKOS_ENABLE_OPENMP)
  fmt::print("threads   {} (OpenMP; set OMP_NUM_THREADS to change)\n", Kokkos::OpenMP::concurrency());
#endif
  fmt::print("hardware  {} hardware threads\ncompiler  {}\n", std::thread::hardware_concurrency(), compiler_version());
  return 0;
}

int cmd_list(bool as_json, bool keys) {
  json out = json::array();
  for (const auto& c : canned_cases()) {
    const json r = resolve_case(c, {});
    std::string size;
    if (r.contains("grid")) size = fmt::format("{}x{} cells", r["grid"]["nx"].get<int>(), r["grid"]["ny"].get<int>());
    if (r.contains("time")) size += fmt::format(", {} steps", r["time"]["steps"].get<long>());
    out.push_back({{"name", c.name}, {"paper", r["paper"]}, {"experiment", r["experiment"]}, {"solver", r["solver"]},
                   {"default_size", size}, {"file", c.source}});
  }
  if (as_json) {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  for (const auto& c : out)
    fmt::print("{:<12} {:<28} {}\n{:<12} {}\n\n", c["name"].get<std::string>(), c["paper"].get<std::string>(),
               c["default_size"].get<std::string>(), "", c["experiment"].get<std::string>());
  if (keys) {
    std::vector<std::string> seen;
    for (const auto& c : out) {
      const std::string solver = c["solver"];
      if (std::find(seen.begin(), seen.end(), solver) != seen.end()) continue;
      seen.push_back(solver);
      fmt::print("Case-file keys for solver {}:\n| key | type | default | allowed | meaning [units] |\n|---|---|---|---|---|\n{}\n",
                 solver, case_schema(solver).describe());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!std::getenv("OMP_PROC_BIND")) setenv("OMP_PROC_BIND", "spread", 0), setenv("OMP_PLACES", "threads", 0);
  CLI::App app{"immerse: validation and benchmark suite for real-time fluid / immersed-body solvers"};
  app.require_subcommand(1);
  bool list_json = false, list_keys = false;
  auto* info = app.add_subcommand("info", "versions, git hash, Kokkos backends, threads, compiler");
  auto* list = app.add_subcommand("list", "canned cases with their paper, experiment and default size");
  list->add_flag("--json", list_json, "machine-readable");
  list->add_flag("--keys", list_keys, "also print every case-file key with type, default and range");

  RunRequest req;
  std::string backend_name = to_string(default_backend());
  long steps = -1;
  auto add_run_options = [&](CLI::App* c, bool with_out) {
    c->add_option("case", req.case_name, "canned case name or path/to/case.json")->required();
    c->add_option("--backend", backend_name, "serial|openmp|cuda (enabled: see `immerse info`)");
    // One value per --set, so `run --set a=1 case` does not swallow the case name.
    c->add_option("--set", req.sets, "override a case key: --set grid.nx=64 (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--steps", steps, "override time.steps");
    c->add_flag("--quiet", req.options.quiet, "no progress output");
    c->add_flag("--quick", req.quick, "apply the case's \"quick\" overrides: a short run (checks may not pass)");
    if (with_out) c->add_option("--out", req.out_dir, "output directory (default runs/<case>/<timestamp>/)");
  };
  auto* run = app.add_subcommand("run", "run a case: writes result.json, series.csv and VTK frames");
  add_run_options(run, true);
  auto* validate = app.add_subcommand("validate", "run a case and print each tolerance check; exit 1 if any fails");
  add_run_options(validate, true);

  const auto added_mass = add_added_mass_command(app);  // cases/langevin

  reports::ReportOptions ropt;
  auto* report = app.add_subcommand("report", "run every canned case and the benchmarks, write reports/latest/index.md");
  report->add_option("--dir", ropt.dir, "report directory");
  report->add_option("--backend", backend_name, "backend for the cases");
  report->add_flag("--no-bench", ropt.skip_benchmarks, "skip the benchmarks");
  report->add_flag("--reuse", ropt.reuse, "run nothing: rebuild index.md from the runs and bench_*.json already in --dir");
  report->add_option("--bench-dir", ropt.benchmark_dir, "folder of the bench_* programs (default: found next to this program)");

  reports::CompareOptions copt;
  std::string compare_cases = "all", compare_backends, compare_threads;
  auto* compare = app.add_subcommand("compare", "run every case on every backend, check the metrics agree, tabulate ms/step "
                                                "(writes <dir>/backends.md, backends.json, backends.png); exit 1 on disagreement");
  compare->add_option("--cases", compare_cases, "all, or a comma list of canned cases");
  compare->add_option("--backends", compare_backends, "comma list of enabled backends (default: all enabled; the first is the reference)");
  compare->add_option("--scaling-threads", compare_threads, "extra OpenMP runs at these thread counts, for scaling (comma list; default: powers of two below the hardware threads)");
  compare->add_flag("--quick", copt.quick, "apply each case's \"quick\" overrides (short runs)");
  compare->add_option("--dir", copt.dir, "report directory");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitBadInput;
  }

  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    if (*info) return cmd_info();
    if (*list) return cmd_list(list_json, list_keys);
    if (*added_mass.command) return added_mass.run();
    req.options.backend = parse_backend(backend_name);
    req.options.steps_override = steps;
    if (*run || *validate) {
      const RunOutcome out = run_case(req);
      if (!req.options.quiet) {
        fmt::print("{}: {} steps on {} in {:.3f} s ({:.4g} ms/step) -> {}/result.json\n", out.result["case"].get<std::string>(),
                   out.result["timings"]["steps"].get<long>(), out.result["backend"].get<std::string>(),
                   out.result["timings"]["total_s"].get<double>(), out.result["timings"]["per_step_ms"].get<double>(),
                   out.out_dir);
      }
      if (out.interrupted) {
        fmt::print(stderr, "interrupted: partial results kept in {}\n", out.out_dir);
        return kExitInterrupted;
      }
      if (*validate) return print_checks(out.checks) ? kExitOk : kExitValidationFailed;
      return kExitOk;
    }
    if (*compare) {
      copt.cases = reports::parse_case_list(compare_cases);
      copt.backends = reports::parse_backend_list(compare_backends);
      copt.openmp_threads = reports::parse_thread_list(compare_threads);
      copt.self = argv[0];
      return reports::compare_backends(copt);
    }
    if (*report) {
      ropt.backend = req.options.backend;
      ropt.self = argv[0];
      return reports::write_report(ropt);
    }
  } catch (const Error& e) {
    fmt::print(stderr, "immerse: error: {}\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    fmt::print(stderr, "immerse: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return 0;
}
