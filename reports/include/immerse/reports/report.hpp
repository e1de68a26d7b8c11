#pragma once
// `immerse report`: runs every canned case, the benchmarks and the quick backend comparison, then
// writes reports/latest/index.md with one section per paper (paper's figures beside ours, plots by
// gnuplot), the throughput table, the backends compared and the machine it ran on.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "immerse/cases/case_library.hpp"
#include "immerse/cases/counterexamples.hpp"
#include "immerse/cases/runner.hpp"

namespace immerse::reports {

struct ReportOptions {
  std::string dir = "reports/latest";
  Backend backend = default_backend();
  bool skip_benchmarks = false;
  bool skip_compare = false;  // --no-compare: leave out the quick backend comparison (backends.md)
  std::string benchmark_dir;  // where the bench_* programs are (default: found next to the immerse program)
  // --reuse: write index.md from the runs (runs/<case>/result.json) and benchmark outputs
  // (bench_*.json) already in `dir`, running nothing: to re-render after a report-only change.
  bool reuse = false;
  std::string self;  // argv[0]
  // The kept runs of the GPU kit (ci/device-kit.sh), one folder each; the newest is shown.
  std::string gpu_dir = "reports/gpu";
  // --repetitions N: each bench program runs every row N times (Google Benchmark's
  // --benchmark_repetitions, each repetition timed for 0.5 s / N); the tables show the medians and
  // --baseline tests the repetitions (5 or more on both runs for a verdict). 1 (default): one 0.5 s
  // run per row, as long as before: a repetition repeats a row's setup too (bench_lbm3d's 256^3
  // lattices), which about doubles the benchmarks' time at 5.
  int repetitions = 1;
  // --baseline DIR: an earlier report folder; every benchmark row is compared with its bench_*.json
  // (baseline_section.hpp). Empty: no comparison.
  std::string baseline_dir;
};

struct CaseRun {
  std::string name, dir;
  json result;
  std::vector<cases::Check> checks;
  std::string error;  // non-empty when the run failed
};

// A case's alternative model (cases::Alternative), run in full beside it.
struct AlternativeRun {
  cases::Alternative model;
  CaseRun run;
};

struct ReportContext {
  std::string dir;                                                  // report directory
  std::map<std::string, CaseRun> runs;                              // by case name
  std::map<std::string, std::vector<AlternativeRun>> alternatives;  // by case name, as declared
  // Google Benchmark JSON output per program (bench_mac2d, ...), each row the median of its
  // repetitions (median_rows); benchmark_repetitions: the same as the program wrote it.
  std::map<std::string, json> benchmarks;
  std::map<std::string, json> benchmark_repetitions;
  // The counterexamples run per case that declares them (short forms), and the errors of those that
  // could not run.
  std::map<std::string, cases::Discrimination> discrimination;
  std::map<std::string, std::string> discrimination_errors;
};

// A section writer returns Markdown; it may write plot files into ctx.dir.
using SectionWriter = std::function<std::string(const ReportContext&)>;

// Runs `gnuplot script` in `dir`; returns false (and says why on stderr) when gnuplot is missing.
bool run_gnuplot(const std::string& dir, const std::string& script_name, const std::string& script);

// metrics[key] where it is a number, else NaN (shown as "nan" in a table).
double number_or_nan(const json& metrics, const std::string& key);

std::string patent_section(const ReportContext& ctx);
std::string langevin_section(const ReportContext& ctx);
std::string elastic_section(const ReportContext& ctx);
// The lid-driven cavities (Stable Fluids alone against Ghia et al.); part of elastic_section.
std::string cavity_section(const ReportContext& ctx);
std::string jellyfish_section(const ReportContext& ctx);
std::string floating_section(const ReportContext& ctx);
// A case beside its alternatives: every scalar metric and every check, one column per model; empty
// when the case declares none.
std::string alternatives_markdown(const ReportContext& ctx, const std::string& case_name);
// Per paper: each case's checks x counterexamples matrix and the checks no counterexample breaks.
std::string discrimination_section(const ReportContext& ctx);
// The newest GPU kit run kept in gpu_dir: cuda against the reference backend, and its benchmarks
// (links relative to report_dir, where index.md is written).
std::string gpu_section(const std::string& gpu_dir, const std::string& report_dir);

// The lattices over MPI ranks (scaling_section.cpp): runs scaling_lattices from `bench_dir` as 1 rank x
// T threads and T ranks x 1 thread, in rounds that run each lattice and size in both arrangements
// back to back, into report_dir (nothing without it or mpirun); the section tabulates the rounds
// found in ctx.dir, empty when they are missing.
void run_scaling_benchmark(const std::filesystem::path& bench_dir, const std::string& report_dir);
std::string scaling_section(const ReportContext& ctx);

int write_report(const ReportOptions& opt);

}  // namespace immerse::reports
