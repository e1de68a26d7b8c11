// The report's "CUDA on a GPU" section: the newest run of the GPU kit (ci/device-kit.sh) kept in
// reports/gpu/<date>-<gpu>/. This machine may have no GPU; the section shows that machine's figures
// (backend agreement of every canned case on cuda, throughput and bandwidth) with where they came from.
// A run cut short may lack the comparison or some benchmark programs: each of those comes from the
// newest run that has it, named beside it.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "immerse/reports/benchmark_table.hpp"
#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return in ? json::parse(in, nullptr, false) : json(json::value_t::discarded);
}

// cuda against the reference backend, one row per case (backends.json of `immerse compare`).
std::string agreement_table(const json& b) {
  std::string md = fmt::format(
      "Every canned case on {} ({} mode) against {}; verdict **{}**.\n\n"
      "| case | {} ms/step | cuda ms/step | speed-up | largest metric difference (relative) | verdict |\n"
      "|---|---|---|---|---|---|\n",
      b.value("backends", std::string("?")), b.value("quick", false) ? "quick" : "full",
      b.value("reference_backend", std::string("?")), b.value("verdict", std::string("?")),
      b.value("reference_backend", std::string("reference")));
  if (!b.contains("cases") || !b["cases"].is_array()) return md + "No cases in that backends.json.\n\n";
  for (const auto& c : b["cases"]) {
    if (!c.is_object() || !c.contains("runs") || !c["runs"].is_array()) continue;
    const json* ref = nullptr;
    const json* gpu = nullptr;
    for (const auto& r : c["runs"]) {
      if (!ref) ref = &r;
      if (r.value("backend", std::string()) == "cuda") gpu = &r;
    }
    if (!ref || !gpu) continue;
    const double excess = gpu->value("worst_excess_over_tolerance", 0.0);
    md += fmt::format(
        "| {} | {:.4g} | {:.4g} | {:.2f} | {} | {} |\n", c.value("case", std::string("?")),
        ref->value("ms_per_step", 0.0), gpu->value("ms_per_step", 0.0), gpu->value("speedup_over_reference", 0.0),
        excess <= 0 ? std::string("0 (identical)")
                    : fmt::format("{:.2e} ({}, {:.2g} x its tolerance)", gpu->value("worst_rel_difference", 0.0),
                                  gpu->value("worst_metric", std::string("?")), excess),
        gpu->value("verdict", std::string("?")));
  }
  return md + "\n";
}

}  // namespace

std::string gpu_section(const std::string& gpu_dir, const std::string& report_dir) {
  std::string md = "## CUDA on a GPU\n\n";
  std::vector<fs::path> runs;  // newest first (the folders are named <date>-<gpu>)
  if (fs::is_directory(gpu_dir))
    for (const auto& e : fs::directory_iterator(gpu_dir))
      if (e.is_directory()) runs.push_back(e.path());
  std::sort(runs.begin(), runs.end(), [](const fs::path& a, const fs::path& b) { return a.filename() > b.filename(); });
  if (runs.empty())
    return md + fmt::format("No run of the GPU kit in {} (docs/gpu-kit.md says how to make one).\n\n", gpu_dir);
  const fs::path& newest = runs.front();
  const json run = read_json(newest / "run.json");
  md += fmt::format(
      "The newest run of the GPU kit (docs/gpu-kit.md), on another machine: {} (driver {}), immerse at git {}, "
      "{}. Its files and what the run left out: [{}]({}). These figures are that machine's; the tables above are "
      "this one's.\n\n",
      run.value("gpu", std::string("?")), run.value("driver", std::string("?")), run.value("commit", std::string("?")),
      run.value("date", std::string("?")), newest.string(),
      fs::relative(fs::absolute(newest / "README.md"), fs::absolute(report_dir)).string());
  json backends;  // from the newest run whose backends.json reads
  auto with_backends = runs.begin();
  while (with_backends != runs.end() && (backends = read_json(*with_backends / "backends.json")).is_discarded())
    ++with_backends;
  if (with_backends == runs.end())
    md += "No backends.json in any run.\n\n";
  else
    md += (*with_backends == newest ? std::string()
                                    : fmt::format("From the earlier run {} (the newest did not run the comparison): ",
                                                  with_backends->filename().string())) +
          agreement_table(backends);
  std::map<std::string, fs::path> benches;  // program -> its JSON in the newest run that has it
  for (const auto& run_dir : runs)
    for (const auto& e : fs::directory_iterator(run_dir)) {
      const std::string program = e.path().stem().string();
      if (program.rfind("bench_", 0) == 0 && e.path().extension() == ".json" && !benches.count(program))
        benches.emplace(program, e.path());
    }
  for (const auto& [program, p] : benches) {
    const json j = read_json(p);
    if (j.is_discarded() || !j.contains("benchmarks")) continue;
    const fs::path run_dir = p.parent_path();
    md += benchmark_table(run_dir == newest ? program + " (GPU machine)"
                                            : program + " (GPU machine, the earlier run " +
                                                  run_dir.filename().string() + ": the newest did not run it)",
                          j);
  }
  return md;
}

}  // namespace immerse::reports
