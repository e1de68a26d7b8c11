#include "immerse/reports/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "immerse/core/error.hpp"
#include "immerse/core/output_file.hpp"
#include "immerse/core/versions.hpp"
#include "immerse/reports/baseline_section.hpp"
#include "immerse/reports/benchmark_table.hpp"
#include "immerse/reports/compare.hpp"
#include "unbound_command.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

std::string first_line_matching(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  return "unknown";
}

std::string machine_section(Backend backend) {
  std::string backends;
  for (Backend b : enabled_backends()) backends += (backends.empty() ? "" : ", ") + to_string(b);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M %Z", std::localtime(&now));
  return fmt::format(
      "## Machine\n\n| | |\n|---|---|\n| date | {} |\n| CPU | {} |\n| hardware threads | {} |\n| memory | {} |\n"
      "| immerse | {} (git {}) |\n| Kokkos | {} ({}) |\n| compiler | {} |\n| SIMD compiled for | {} |\n"
      "| backend of the case runs | {} |\n\n",
      date, first_line_matching("/proc/cpuinfo", "model name"), std::thread::hardware_concurrency(),
      first_line_matching("/proc/meminfo", "MemTotal"), immerse_version(), git_hash(), kokkos_version(), backends,
      compiler_version(), simd_extensions(), to_string(backend));
}

std::string cases_section(const ReportContext& ctx) {
  std::string md =
      "## Canned cases\n\nEach check's kind says what its pass is worth: *prediction* (a reference the inputs do not "
      "fix), *calibration* (a coefficient was fitted to it), *conservation* (a law the scheme does not impose), "
      "*consistency* (an identity, a read-back or a stopping rule: a health check, not validation).\n\n"
      "| case | paper | checks passed | kinds | ms/step | phases (ms/step) | status | output |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const auto& [name, run] : ctx.runs) {
    if (!run.error.empty()) {
      md += fmt::format("| {} | | | | | | FAILED: {} | |\n", name, run.error);
      continue;
    }
    const long passed = std::count_if(run.checks.begin(), run.checks.end(), [](const auto& c) { return c.pass(); });
    const long unexpected =
        std::count_if(run.checks.begin(), run.checks.end(), [](const auto& c) { return !c.as_expected(); });
    const long deviations = std::count_if(run.checks.begin(), run.checks.end(),
                                          [](const auto& c) { return !c.pass() && !c.deviation.empty(); });
    std::map<std::string, int> kinds;
    for (const auto& c : run.checks) ++kinds[to_string(c.kind)];
    std::string kind_text;
    for (const auto& [kind, n] : kinds) kind_text += fmt::format("{}{} {}", kind_text.empty() ? "" : ", ", n, kind);
    std::string phases;
    // Phases may be grouped (fps_objects: per column): the paper's section tabulates those.
    bool grouped = false;
    for (const auto& [phase, ms] : run.result["timings"]["phases_ms"].items()) {
      if (ms.is_number()) phases += fmt::format("{}{} {:.3g}", phases.empty() ? "" : ", ", phase, ms.get<double>());
      grouped = grouped || ms.is_object();
    }
    if (grouped) phases += (phases.empty() ? "" : "; ") + std::string("per group in the paper's section");
    md += fmt::format(
        "| {} | {} | {}/{} | {} | {:.4g} | {} | {} | `{}` |\n", name, run.result["paper"].get<std::string>(), passed,
        run.checks.size(), kind_text, run.result["timings"]["per_step_ms"].get<double>(), phases,
        unexpected > 0   ? "FAIL"
        : deviations > 0 ? fmt::format("PASS ({} documented deviation{})", deviations, deviations > 1 ? "s" : "")
                         : "PASS",
        run.dir);
  }
  return md + "\n";
}

std::string benchmark_section(const ReportContext& ctx) {
  if (ctx.benchmarks.empty()) return "## Throughput\n\nBenchmarks skipped.\n\n";
  std::string md =
      "## Throughput (Google Benchmark)\n\nOne table per benchmark program. GB/s counts the bytes a kernel must move "
      "at least (each program's header comment says how: e.g. `penalty_step` reads u, v and writes u, v, p, 40 B/cell "
      "in double). The percentage compares it with the bandwidth of the memory pattern the kernel uses, on the same "
      "backend, measured by the same program in the same run: in-place (read an array and write it back: the "
      "lattice's AA pattern), copy (read one array, write another: the pull pattern, double buffers) or STREAM "
      "triad. A kernel above its pattern's bandwidth works from cache and is marked so. Each program measures the "
      "in-place bandwidth before and after its kernels and the CPU time other processes took; a table where either "
      "moved is flagged as noisy. Timings on a shared machine vary by up to 2x between runs; compare ratios within "
      "one run. A program run with repetitions (`immerse report --repetitions N`) shows each row's "
      "median.\n\n";
  for (const auto& [program, out] : ctx.benchmarks) md += benchmark_table(program, out);
  return md;
}

// `immerse compare` writes backends.md beside the report; link it with its verdict and date.
std::string backends_link(const std::string& dir) {
  const fs::path json_path = fs::path(dir) / "backends.json";
  if (!fs::exists(json_path))
    return "## Backends compared\n\nNot run (`immerse report --no-compare`, or `--reuse` in a folder without "
           "backends.json): `./immerse.sh compare --quick` writes backends.md here.\n\n";
  json b;
  try {
    std::ifstream in(json_path);
    b = json::parse(in);
  } catch (const std::exception&) {
    return "## Backends compared\n\nbackends.json is unreadable; rerun `./immerse.sh compare --quick`.\n\n";
  }
  return fmt::format(
      "## Backends compared\n\n[backends.md](backends.md): every canned case on {} ({}mode), verdict **{}**, "
      "run {} on git {}.\n\n",
      b.value("backends", std::string("?")), b.value("quick", false) ? "quick " : "full ",
      b.value("verdict", std::string("?")), b.value("date", std::string("?")),
      b["versions"].value("git", std::string("?")));
}

// The bench_* programs: in `dir` when given, else next to the immerse program (install tree) or in
// the build tree's benchmarks/ folder.
std::vector<fs::path> benchmark_programs(const ReportOptions& opt) {
  std::vector<fs::path> dirs;
  if (!opt.benchmark_dir.empty())
    dirs.push_back(opt.benchmark_dir);
  else
    dirs = {fs::path(opt.self).parent_path() / ".." / "benchmarks", fs::path(opt.self).parent_path()};
  std::vector<fs::path> found;
  for (const auto& dir : dirs) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("bench_", 0) == 0 && e.is_regular_file() &&
          (fs::status(e.path()).permissions() & fs::perms::owner_exec) != fs::perms::none)
        found.push_back(e.path());
    }
    if (!found.empty()) break;
  }
  std::sort(found.begin(), found.end());
  return found;
}

// A case run earlier into `run.dir` (for --reuse): its result.json and the checks stored in it.
void load_earlier_run(CaseRun& run) {
  const fs::path file = fs::path(run.dir) / "result.json";
  try {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("missing");
    run.result = json::parse(in);
    run.checks = cases::checks_from_json(run.result.value("checks", json::array()));
    if (run.result.value("status", std::string()) != "completed")
      run.error = "earlier run did not finish (status " + run.result.value("status", std::string("?")) + ")";
  } catch (const std::exception& e) {
    run.error = fmt::format("no earlier run to reuse: {} ({})", file.string(), e.what());
  }
}

// A bench program's output: kept as written (every repetition) and as the medians the tables show.
void add_benchmark(ReportContext& ctx, const std::string& program, json out) {
  ctx.benchmarks[program] = median_rows(out);
  ctx.benchmark_repetitions[program] = std::move(out);
}

// Google Benchmark's flags for N repetitions of every row, each timed for a share of the 0.5 s a
// single run takes by default (a row slower than that share runs one iteration per repetition);
// the JSON keeps every repetition beside the aggregates, the console shows the aggregates.
std::string repetition_flags(int repetitions) {
  if (repetitions <= 1) return "";
  return fmt::format(
      " --benchmark_repetitions={} --benchmark_min_time={:g} --benchmark_report_aggregates_only=false "
      "--benchmark_display_aggregates_only=true",
      repetitions, 0.5 / repetitions);
}

}  // namespace

double number_or_nan(const json& metrics, const std::string& key) {
  return metrics.contains(key) && metrics[key].is_number() ? metrics[key].get<double>() : NAN;
}

int write_report(const ReportOptions& opt) {
  // A bad baseline is refused before anything runs (exit 2).
  const std::map<std::string, json> baseline =
      opt.baseline_dir.empty() ? std::map<std::string, json>{} : read_baseline(opt.baseline_dir);
  ReportContext ctx;
  ctx.dir = opt.dir;
  fs::create_directories(fs::path(opt.dir) / "runs");
  bool all_pass = true;
  const std::vector<cases::CaseDoc> canned = cases::canned_cases();
  for (const auto& c : canned) {
    CaseRun run;
    run.name = c.name;
    run.dir = (fs::path(opt.dir) / "runs" / c.name).string();
    if (opt.reuse) {
      load_earlier_run(run);
      if (!run.error.empty()) fmt::print(stderr, "report: {}: {}\n", c.name, run.error);
      for (const auto& ch : run.checks) all_pass = all_pass && ch.as_expected();
      all_pass = all_pass && run.error.empty();
      ctx.runs[c.name] = run;
      continue;
    }
    fs::remove_all(run.dir);
    cases::RunRequest req;
    req.case_name = c.name;
    req.out_dir = run.dir;
    req.options.backend = opt.backend;
    try {
      const cases::RunOutcome out = cases::run_case(req);
      run.result = out.result;
      run.checks = out.checks;
      for (const auto& ch : out.checks) all_pass = all_pass && ch.as_expected();
      fmt::print(stderr, "report: {} done ({} checks)\n", c.name, out.checks.size());
    } catch (const Error& e) {
      run.error = e.what();
      all_pass = false;
      fmt::print(stderr, "report: {} failed: {}\n", c.name, e.what());
    }
    ctx.runs[c.name] = run;
  }
  for (const auto& c : canned) {
    for (const auto& model : cases::alternatives(c)) {
      AlternativeRun alt{model, {}};
      alt.run.name = c.name;
      alt.run.dir = (fs::path(opt.dir) / "runs" / c.name / "alternatives" / model.name).string();
      if (opt.reuse) {
        load_earlier_run(alt.run);
      } else {
        fs::remove_all(alt.run.dir);
        cases::RunRequest req;
        req.case_name = c.name;
        req.sets = model.sets;
        req.out_dir = alt.run.dir;
        req.options.backend = opt.backend;
        req.options.quiet = true;
        try {
          const cases::RunOutcome out = cases::run_case(req);
          alt.run.result = out.result;
          alt.run.checks = out.checks;
          fmt::print(stderr, "report: {} alternative '{}' done\n", c.name, model.name);
        } catch (const Error& e) {
          if (e.exit_code() == 130) throw;
          alt.run.error = e.what();  // an alternative may fail (the paper's form as printed): shown, not fatal
          fmt::print(stderr, "report: {} alternative '{}' stopped: {}\n", c.name, model.name, e.what());
        }
      }
      ctx.alternatives[c.name].push_back(std::move(alt));
    }
  }
  for (const auto& c : canned) {
    if (!cases::has_counterexamples(c)) continue;
    const std::string dir = (fs::path(opt.dir) / "counterexamples" / c.name).string();
    try {
      if (opt.reuse) {
        std::ifstream in(fs::path(dir) / "discrimination.json");
        if (!in) throw Error("no earlier counterexample run to reuse in " + dir, kExitValidationFailed);
        ctx.discrimination[c.name] = cases::discrimination_from_json(json::parse(in));
      } else {
        fs::remove_all(dir);
        cases::RunRequest req;
        req.case_name = c.name;
        req.out_dir = dir;
        req.options.backend = opt.backend;
        req.options.quiet = true;
        ctx.discrimination[c.name] = cases::run_counterexamples(req, false);
        fmt::print(stderr, "report: {} counterexamples done\n", c.name);
      }
      const auto& d = ctx.discrimination[c.name];
      all_pass = all_pass && d.reference_passes() && d.all_caught();
    } catch (const std::exception& e) {
      ctx.discrimination_errors[c.name] = e.what();
      all_pass = false;
      fmt::print(stderr, "report: {} counterexamples failed: {}\n", c.name, e.what());
    }
  }
  if (opt.reuse) {
    // The bench_*.json an earlier report left in the folder (the programs themselves need not exist).
    for (auto& [program, out] : read_bench_outputs(opt.dir)) add_benchmark(ctx, program, std::move(out));
  } else if (!opt.skip_benchmarks) {
    const auto programs = benchmark_programs(opt);
    if (programs.empty()) fmt::print(stderr, "report: no bench_* programs found; throughput tables left out\n");
    const auto started = std::chrono::steady_clock::now();
    for (const auto& prog : programs) {
      const std::string name = prog.filename().string();
      const std::string out = (fs::absolute(opt.dir) / (name + ".json")).string();
      const std::string cmd = fmt::format("'{}' --benchmark_out='{}' --benchmark_out_format=json{} >&2", prog.string(),
                                          out, repetition_flags(opt.repetitions));
      fmt::print(stderr, "report: running {}\n", cmd);
      if (run_unbound(cmd) == 0) {
        std::ifstream in(out);
        add_benchmark(ctx, name, json::parse(in));
      } else {
        fmt::print(stderr, "report: benchmark program {} failed; its table is left out\n", prog.string());
      }
    }
    if (!programs.empty()) run_scaling_benchmark(programs.front().parent_path(), opt.dir);
    if (!programs.empty())
      fmt::print(stderr, "report: the benchmark programs took {:.0f} s ({} repetition{} per row)\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), opt.repetitions,
                 opt.repetitions > 1 ? "s" : "");
  }

  std::optional<BaselineComparison> against_baseline;
  if (!opt.baseline_dir.empty()) {
    against_baseline = compare_with_baseline(opt.baseline_dir, baseline, ctx.benchmark_repetitions);
    write_file_atomically((fs::path(opt.dir) / "baseline_comparison.json").string(),
                          against_baseline->to_json().dump(2) + "\n");
  }

  bool backends_agree = true;
  if (!opt.reuse && !opt.skip_compare) {
    CompareOptions copt;
    copt.quick = true;
    copt.dir = opt.dir;
    copt.self = opt.self;
    fmt::print(stderr, "report: comparing the backends (every case, quick mode)\n");
    backends_agree = compare_backends(copt) == kExitOk;
  }

  std::string md =
      "# immerse report\n\nEvery canned case run and validated, the papers' figures beside ours, and "
      "throughput. Regenerate with `./immerse.sh report`.\n\n";
  // One section per paper, in the order of the README's table. A section that throws (an unexpected
  // metric shape, say) is replaced by its error: the other sections and the runs are not lost.
  const std::vector<std::pair<std::string, SectionWriter>> sections = {
      {"machine", [&](const ReportContext&) { return machine_section(opt.backend); }},
      {"cases", cases_section},
      {"counterexamples", discrimination_section},
      {"throughput", benchmark_section},
      {"scaling", scaling_section},
      {"baseline", [&](const ReportContext&) { return against_baseline ? baseline_section(*against_baseline) : ""; }},
      {"backends", [&](const ReportContext&) { return backends_link(opt.dir); }},
      {"gpu", [&](const ReportContext&) { return gpu_section(opt.gpu_dir, opt.dir); }},
      {"jellyfish", jellyfish_section},
      {"langevin", langevin_section},
      {"patent", patent_section},
      {"elastic", elastic_section},
      {"floating", floating_section}};
  bool sections_ok = true;
  for (const auto& [name, write] : sections) {
    try {
      md += write(ctx);
    } catch (const std::exception& e) {
      sections_ok = false;
      md += fmt::format("## {} section: not written\n\nThe report generator failed on it: `{}`.\n\n", name, e.what());
      fmt::print(stderr, "report: the {} section failed: {}\n", name, e.what());
    }
  }
  const std::string index = (fs::path(opt.dir) / "index.md").string();
  std::ofstream(index) << md;
  fmt::print("report written to {} ({}{}{})\n", index, all_pass ? "all checks pass" : "SOME CHECKS FAIL",
             backends_agree ? "" : "; BACKENDS DISAGREE, see backends.md",
             sections_ok ? "" : "; SOME SECTIONS FAILED, see above");
  if (against_baseline) fmt::print("against the baseline {}: {}\n", opt.baseline_dir, against_baseline->summary());
  if (!sections_ok) return kExitInternal;
  return all_pass && backends_agree ? kExitOk : kExitValidationFailed;
}

}  // namespace immerse::reports
