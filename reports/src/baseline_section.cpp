// The report's "Against the baseline" section and baseline_comparison.json (immerse report
// --baseline DIR): each benchmark row's repetitions in this run against those of an earlier report
// folder, with the U test (mann_whitney.cpp) deciding what is noise.
#include "immerse/reports/baseline_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "immerse/core/error.hpp"
#include "immerse/core/median.hpp"
#include "immerse/reports/benchmark_table.hpp"
#include "immerse/reports/mann_whitney.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace immerse::reports {
namespace {

// ms per iteration of every repetition, by run name, in the order the rows first appear; failed
// repetitions and aggregates left out.
using Samples = std::vector<std::pair<std::string, std::vector<double>>>;
Samples samples(const json& out) {
  Samples rows;
  if (!out.contains("benchmarks") || !out["benchmarks"].is_array()) return rows;
  for (const auto& b : out["benchmarks"]) {
    if (!b.is_object() || b.value("run_type", "") == "aggregate" || b.value("error_occurred", false) ||
        !b.contains("real_time") || !b["real_time"].is_number())
      continue;
    const std::string unit = b.value("time_unit", "ns");
    const double to_ms = unit == "ns" ? 1e-6 : unit == "us" ? 1e-3 : unit == "s" ? 1e3 : 1.0;
    const std::string name = b.value("run_name", b.value("name", ""));
    auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.first == name; });
    if (it == rows.end()) it = rows.insert(rows.end(), {name, {}});
    it->second.push_back(b["real_time"].get<double>() * to_ms);
  }
  return rows;
}

BaselineRow compare_row(const std::string& name, const std::vector<double>& base, const std::vector<double>& now) {
  BaselineRow r;
  r.row = name;
  r.baseline = base;
  r.now = now;
  r.baseline_ms = median(base);
  r.now_ms = median(now);
  if (base.empty() || now.empty()) {
    r.verdict = base.empty() ? "new" : "gone";
    return r;
  }
  r.change_percent = r.baseline_ms > 0 ? 100 * (r.now_ms / r.baseline_ms - 1) : 0;
  const std::size_t n = std::min(base.size(), now.size());
  if (n < 2) {
    r.verdict = "no repetitions: not tested";
    return r;
  }
  if (n < static_cast<std::size_t>(kBaselineMinRepetitions)) {
    r.verdict = fmt::format("{} repetitions: not tested", n);
    return r;
  }
  r.p = mann_whitney_u(base, now).p;
  if (*r.p >= kBaselineAlpha)
    r.verdict = "same (noise)";
  else if (r.change_percent > kBaselineThresholdPercent)
    r.verdict = "slower";
  else if (r.change_percent < -kBaselineThresholdPercent)
    r.verdict = "faster";
  else
    r.verdict = fmt::format("same (< {:g} %)", kBaselineThresholdPercent);
  return r;
}

// "date, git hash" of a run, from the context Google Benchmark and bench_main wrote (first program).
std::string run_context(const std::map<std::string, json>& outputs) {
  for (const auto& [program, out] : outputs)
    if (out.contains("context") && out["context"].is_object()) {
      const json& c = out["context"];
      return fmt::format("run {}, git {}", c.value("date", std::string("?")), c.value("git", std::string("?")));
    }
  return "run unknown";
}

}  // namespace

std::map<std::string, json> read_baseline(const std::string& dir) {
  if (!fs::is_directory(dir))
    throw InputError(
        fmt::format("--baseline {}: no such folder (give an earlier report folder, e.g. the last "
                    "run's reports/latest)",
                    dir));
  auto outputs = read_bench_outputs(dir);
  if (outputs.empty())
    throw InputError(
        fmt::format("--baseline {}: the folder holds no bench_*.json (Google Benchmark output of an "
                    "earlier `immerse report`)",
                    dir));
  return outputs;
}

BaselineComparison compare_with_baseline(const std::string& baseline_dir, const std::map<std::string, json>& baseline,
                                         const std::map<std::string, json>& now) {
  BaselineComparison c;
  c.baseline_dir = baseline_dir;
  c.baseline_run = run_context(baseline);
  c.this_run = run_context(now);
  std::set<std::string> programs;
  for (const auto& [program, out] : now) programs.insert(program);
  for (const auto& [program, out] : baseline) programs.insert(program);
  for (const auto& program : programs) {
    if (baseline.count(program) && noisy_run(baseline.at(program))) c.noisy_baseline.push_back(program);
    if (now.count(program) && noisy_run(now.at(program))) c.noisy_now.push_back(program);
    const Samples b = baseline.count(program) ? samples(baseline.at(program)) : Samples{};
    const Samples n = now.count(program) ? samples(now.at(program)) : Samples{};
    auto& rows = c.programs[program];
    auto find = [](const Samples& list, const std::string& name) -> std::vector<double> {
      const auto it = std::find_if(list.begin(), list.end(), [&](const auto& r) { return r.first == name; });
      return it == list.end() ? std::vector<double>{} : it->second;
    };
    for (const auto& [name, values] : n) rows.push_back(compare_row(name, find(b, name), values));
    for (const auto& [name, values] : b)
      if (find(n, name).empty()) rows.push_back(compare_row(name, values, {}));
    for (const auto& r : rows) {
      if (r.verdict == "new") {
        ++c.added;
        continue;
      }
      if (r.verdict == "gone") {
        ++c.gone;
        continue;
      }
      ++c.compared;
      if (r.verdict == "slower")
        ++c.slower;
      else if (r.verdict == "faster")
        ++c.faster;
      else if (r.p)
        ++c.same;
      else
        ++c.untested;
    }
  }
  return c;
}

std::string BaselineComparison::summary() const {
  if (compared == 0 && added == 0)
    return "No benchmark output in this run (--no-bench?): nothing compared with the baseline.";
  // The rows of a verdict, the first 8 named (a machine that got busier slows every row).
  auto names = [&](const std::string& verdict) {
    std::string s;
    int n = 0;
    for (const auto& [program, rows] : programs)
      for (const auto& r : rows)
        if (r.verdict == verdict && ++n <= 8)
          s += fmt::format("{}{} {} ({:+.1f} %)", s.empty() ? "" : ", ", program, r.row, r.change_percent);
    return n > 8 ? fmt::format("{} and {} more (see the tables)", s, n - 8) : s;
  };
  std::string line =
      fmt::format("{} of {} rows slower (significant, > {:g} %)", slower, compared, kBaselineThresholdPercent);
  if (slower > 0) line += ": " + names("slower");
  line += fmt::format("; {} faster", faster);
  if (faster > 0) line += ": " + names("faster");
  line += fmt::format("; {} the same within noise", same);
  if (untested > 0)
    line += fmt::format("; {} not tested (fewer than {} repetitions a side)", untested, kBaselineMinRepetitions);
  if (added > 0 || gone > 0) line += fmt::format("; {} new, {} gone", added, gone);
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& p : v) s += (s.empty() ? "" : ", ") + p;
    return s;
  };
  if (!noisy_baseline.empty() || !noisy_now.empty())
    line += fmt::format(". Noisy runs, verdicts unreliable: {}{}{}",
                        noisy_baseline.empty() ? "" : "baseline " + list(noisy_baseline),
                        !noisy_baseline.empty() && !noisy_now.empty() ? "; " : "",
                        noisy_now.empty() ? "" : "this run " + list(noisy_now));
  return line + ".";
}

json BaselineComparison::to_json() const {
  json j = {{"baseline", baseline_dir},
            {"baseline_run", baseline_run},
            {"this_run", this_run},
            {"alpha", kBaselineAlpha},
            {"threshold_percent", kBaselineThresholdPercent},
            {"min_repetitions", kBaselineMinRepetitions},
            {"summary", summary()},
            {"noisy_baseline", noisy_baseline},
            {"noisy_now", noisy_now},
            {"counts",
             {{"compared", compared},
              {"slower", slower},
              {"faster", faster},
              {"same", same},
              {"not_tested", untested},
              {"new", added},
              {"gone", gone}}},
            {"programs", json::object()}};
  for (const auto& [program, rows] : programs) {
    json list = json::array();
    for (const auto& r : rows)
      list.push_back({{"row", r.row},
                      {"verdict", r.verdict},
                      {"baseline_ms", r.baseline.empty() ? json() : json(r.baseline_ms)},
                      {"now_ms", r.now.empty() ? json() : json(r.now_ms)},
                      {"change_percent", r.baseline.empty() || r.now.empty() ? json() : json(r.change_percent)},
                      {"p_value", r.p ? json(*r.p) : json()},
                      {"baseline_repetitions_ms", r.baseline},
                      {"now_repetitions_ms", r.now}});
    j["programs"][program] = std::move(list);
  }
  return j;
}

std::string baseline_section(const BaselineComparison& c) {
  std::string md = fmt::format(
      "## Against the baseline\n\n**{}**\n\nBaseline: `{}` ({}); this run: {}. baseline_comparison.json here has "
      "every repetition. Times are the median ms per iteration of each run's repetitions; the change is that of "
      "the median (+ is slower); p is the two-sided Mann-Whitney U test over the repetitions (the convention of "
      "Google Benchmark's compare.py). A row is slower or faster only when its median moved by more than {:g} % "
      "and p < {:g}, with at least {} repetitions on each side; a baseline without repetitions gets the change "
      "and no verdict (run both reports with `--repetitions 5`). The stream_* rows measure the machine's bandwidth: "
      "where they moved too, the machine "
      "changed, not the code.\n\n",
      c.summary(), c.baseline_dir, c.baseline_run, c.this_run, kBaselineThresholdPercent, kBaselineAlpha,
      kBaselineMinRepetitions);
  for (const auto& [program, rows] : c.programs) {
    md += fmt::format(
        "### `{}` against the baseline\n\n| benchmark | baseline ms (repetitions) | now ms (repetitions) | "
        "change | p | verdict |\n|---|---|---|---|---|---|\n",
        program);
    for (const auto& r : rows) {
      const bool both = !r.baseline.empty() && !r.now.empty();
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", r.row,
                        r.baseline.empty() ? "-" : fmt::format("{:.4g} ({})", r.baseline_ms, r.baseline.size()),
                        r.now.empty() ? "-" : fmt::format("{:.4g} ({})", r.now_ms, r.now.size()),
                        both ? fmt::format("{:+.1f} %", r.change_percent) : "", r.p ? fmt::format("{:.3g}", *r.p) : "",
                        r.verdict == "slower" || r.verdict == "faster" ? "**" + r.verdict + "**" : r.verdict);
    }
    md += "\n";
  }
  return md;
}

}  // namespace immerse::reports
