// `immerse compare`: runs, agreement checks, and the backends table (see compare.hpp).
#include "immerse/reports/compare.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "immerse/cases/case_library.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/versions.hpp"
#include "immerse/reports/report.hpp"
#include "unbound_command.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace immerse::reports {
namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream s(list);
  std::string item;
  while (std::getline(s, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Flattens nested metrics into "a.b[2].c" -> leaf value.
void flatten(const json& j, const std::string& prefix, std::map<std::string, json>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], fmt::format("{}[{}]", prefix, i), out);
  } else {
    out[prefix] = j;
  }
}

// The leaf name of a flattened key ("columns[2].frames_per_s" -> "frames_per_s").
std::string leaf(const std::string& key) {
  const auto dot = key.find_last_of('.');
  std::string name = dot == std::string::npos ? key : key.substr(dot + 1);
  const auto bracket = name.find('[');
  return bracket == std::string::npos ? name : name.substr(0, bracket);
}

// The tolerance a case states for a metric: exact name first, then the leaf name.
MetricTolerance tolerance_for(const json& tolerances, const std::string& key) {
  MetricTolerance t;
  // The full key, its leaf name, then each enclosing name ("columns" covers "columns[2].draft").
  std::vector<std::string> names = {key, leaf(key)};
  std::string part;
  std::stringstream path(key);
  std::vector<std::string> parts;
  while (std::getline(path, part, '.')) parts.push_back(part.substr(0, part.find('[')));
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) names.push_back(*it);
  for (const std::string& name : names)
    if (tolerances.is_object() && tolerances.contains(name)) {
      const json& e = tolerances[name];
      t.rel = e.value("rel", 0.0);
      t.abs = e.value("abs", 0.0);
      t.why = e.value("why", std::string("stated by the case"));
      t.timing = e.value("timing", false);
      return t;
    }
  return t;
}

struct Run {
  std::string label;  // "serial", "openmp", "openmp x1"
  Backend backend;
  int threads = 0;  // 0: the backend's default
  std::string dir;
  std::string error = {};
  json result = {};
  double ms_per_step = 0;
};

// The program to start for each run: this very executable, as /proc/<pid>/exe, which keeps naming
// the build this process runs even when a rebuild replaces its file during a long report (its path
// would then start the new build, or nothing), so every run of one comparison is the same build.
std::string self_path(const std::string& argv0) {
  const std::string own = "/proc/" + std::to_string(getpid()) + "/exe";
  return ::access(own.c_str(), X_OK) == 0 ? own : fs::absolute(argv0).string();
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

void execute(Run& run, const std::string& self, const std::string& case_name, bool quick) {
  fs::remove_all(run.dir);
  fs::create_directories(run.dir);
  const std::string log = (fs::path(run.dir) / "run.log").string();
  std::string env = "OMP_PROC_BIND=spread OMP_PLACES=threads";
  if (run.threads > 0) env += fmt::format(" OMP_NUM_THREADS={}", run.threads);
  const std::string cmd = fmt::format("{} {} run {} --backend {} {} --quiet --out {} > {} 2>&1", env, shell_quote(self),
                                      shell_quote(case_name), to_string(run.backend), quick ? "--quick" : "",
                                      shell_quote(run.dir), shell_quote(log));
  const int status = run_unbound(cmd);
  std::ifstream in(fs::path(run.dir) / "result.json");
  if (in) {
    try {
      run.result = json::parse(in);
    } catch (const std::exception&) {
    }
  }
  if (status != 0 || run.result.is_null() || run.result.value("status", "") != "completed") {
    std::ifstream l(log);
    std::string text((std::istreambuf_iterator<char>(l)), std::istreambuf_iterator<char>());
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    const auto last = text.find_last_of('\n');
    run.error = fmt::format("run failed (see {}): {}", log, last == std::string::npos ? text : text.substr(last + 1));
    return;
  }
  run.ms_per_step = run.result["timings"].value("per_step_ms", 0.0);
}

double relative(const json& a, const json& b) {
  if (!a.is_number() || !b.is_number()) return a == b ? 0 : INFINITY;
  const double x = a.get<double>(), y = b.get<double>(), m = std::max(std::abs(x), std::abs(y));
  return m == 0 ? 0 : std::abs(x - y) / m;
}

std::string fmt_value(const json& v) {
  return v.is_number_float() ? fmt::format("{:.17g}", v.get<double>()) : v.dump();
}

// The tolerances a case states, grouped by their reason (cases give one reason to many metrics):
// one bullet per reason, then the metrics with their bounds.
std::string stated_tolerances(const json& tolerances) {
  std::vector<std::pair<std::string, std::string>> groups;  // reason, metrics; in first-seen order
  for (const auto& [metric, t] : tolerances.items()) {
    const std::string why = t.value("why", std::string("no reason stated"));
    const std::string bound =
        t.value("timing", false)
            ? "not compared"
            : fmt::format("rel {:g}{}", t.value("rel", 0.0),
                          t.value("abs", 0.0) > 0 ? fmt::format(", abs {:g}", t.value("abs", 0.0)) : "");
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == why; });
    if (g == groups.end()) g = groups.insert(groups.end(), {why, ""});
    g->second += fmt::format("{}`{}` ({})", g->second.empty() ? "" : ", ", metric, bound);
  }
  std::string md = "Stated tolerances, by reason:\n\n";
  for (const auto& [why, metrics] : groups) md += fmt::format("- {}: {}\n", why, metrics);
  return md;
}

}  // namespace

bool is_timing_metric(const std::string& name) {
  return ends_with(name, "_per_s") || ends_with(name, "_ms") || ends_with(name, "_us");
}

std::vector<MetricDifference> compare_metrics(const json& ref, const json& other, const json& tolerances) {
  std::map<std::string, json> a, b;
  flatten(ref, "", a);
  flatten(other, "", b);
  std::vector<MetricDifference> out;
  for (const auto& [key, va] : a) {
    // Timings anywhere in the path ("columns[3].phase_ms.forces") and the run's own backend label
    // are not results of the computation.
    bool timing = leaf(key) == "backend";
    std::string part;
    std::stringstream path(key);
    while (std::getline(path, part, '.')) timing = timing || is_timing_metric(part.substr(0, part.find('[')));
    if (timing) continue;
    const MetricTolerance t = tolerance_for(tolerances, key);
    if (t.timing) continue;
    const auto it = b.find(key);
    MetricDifference d{key, va, it == b.end() ? json() : it->second, 0, ""};
    if (it == b.end()) {
      d.excess = INFINITY;
      d.why = "missing on this backend";
    } else if (va.is_number() && it->second.is_number()) {
      const double x = va.get<double>(), y = it->second.get<double>();
      const double allowed = t.abs + t.rel * std::max(std::abs(x), std::abs(y));
      const double diff = std::abs(x - y);
      d.why = t.why;
      if (std::isnan(x) || std::isnan(y))
        d.excess = std::isnan(x) && std::isnan(y) ? 0 : INFINITY;
      else
        d.excess = diff == 0 ? 0 : allowed > 0 ? diff / allowed : INFINITY;
    } else {
      d.excess = va == it->second ? 0 : INFINITY;
      d.why = "non-numeric: must be equal";
    }
    out.push_back(d);
  }
  return out;
}

std::vector<std::string> parse_case_list(const std::string& list) {
  std::vector<std::string> names;
  for (const auto& c : cases::canned_cases()) names.push_back(c.name);
  if (list.empty() || list == "all") return names;
  std::vector<std::string> out;
  for (const auto& item : split(list)) {
    if (std::find(names.begin(), names.end(), item) == names.end()) {
      std::string all;
      for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
      throw InputError(
          fmt::format("--cases: '{}' is not a canned case (allowed: all or a comma list of {})", item, all));
    }
    out.push_back(item);
  }
  return out;
}

std::vector<Backend> parse_backend_list(const std::string& list) {
  if (list.empty()) return enabled_backends();
  std::vector<Backend> out;
  for (const auto& item : split(list)) out.push_back(parse_backend(item));  // InputError names the enabled ones
  return out;
}

std::vector<int> parse_thread_list(const std::string& list) {
  std::vector<int> out;
  for (const auto& item : split(list)) {
    char* end = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (*end != '\0' || n < 1 || n > 4096)
      throw InputError(fmt::format(
          "--scaling-threads: '{}' is not a thread count (allowed: integers in [1, 4096], comma-separated)", item));
    out.push_back(static_cast<int>(n));
  }
  return out;
}

int compare_backends(const CompareOptions& opt) {
  const std::vector<std::string> names = opt.cases.empty() ? parse_case_list("all") : opt.cases;
  const std::vector<Backend> backends = opt.backends.empty() ? enabled_backends() : opt.backends;
  std::vector<int> threads = opt.openmp_threads;
  const bool with_openmp = std::find(backends.begin(), backends.end(), Backend::openmp) != backends.end();
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads.empty())
    for (int n = 1; n < hw; n *= 2) threads.push_back(n);
  const std::string self = self_path(opt.self);
  const fs::path root = fs::path(opt.dir) / "backends";
  fs::create_directories(root);

  json cases_json = json::array();
  const std::string intro = fmt::format(
      "Every {}case on every backend with the same parameters{}, each run in its own process. "
      "ms/step is the wall time per step of the whole run (`timings.per_step_ms`); speed-up is over the first backend "
      "({}). Agreement: every metric of every run against the first backend's, within the tolerance the case states "
      "(`compare_tolerances` in result.json, with its reason) or 1e-12 relative; timing metrics are not compared. "
      "`openmp xN` rows are the OpenMP backend limited to N threads (OMP_NUM_THREADS), for thread scaling; this "
      "machine has {} hardware threads. Regenerate with `./immerse.sh compare{}`.\n\n",
      "canned ", opt.quick ? " (quick mode: each case's \"quick\" overrides)" : "", to_string(backends.front()), hw,
      opt.quick ? " --quick" : "");
  std::string md;  // one section per case
  bool all_agree = true;
  std::vector<std::string> failures;
  std::ofstream chart_data(fs::path(opt.dir) / "backends.dat");
  chart_data << "# case";
  std::vector<std::string> chart_columns;

  for (const std::string& name : names) {
    std::vector<Run> runs;
    for (Backend b : backends) runs.push_back({to_string(b), b, 0, (root / name / to_string(b)).string()});
    if (with_openmp)
      for (int n : threads)
        if (n != hw)
          runs.push_back({fmt::format("openmp x{}", n), Backend::openmp, n,
                          (root / name / fmt::format("openmp_x{}", n)).string()});
    if (chart_columns.empty()) {
      for (const auto& r : runs) chart_columns.push_back(r.label);
      for (const auto& c : chart_columns) chart_data << " \"" << c << "\"";
      chart_data << "\n";
    }
    for (Run& r : runs) {
      fmt::print(stderr, "compare: {} on {} ...\n", name, r.label);
      execute(r, self, name, opt.quick);
    }
    const Run& ref = runs.front();
    json case_json = {{"case", name}, {"runs", json::array()}};
    md += fmt::format("## {}\n\n", name);
    if (!ref.error.empty()) {
      md += fmt::format("Reference run failed: {}\n\n", ref.error);
      failures.push_back(fmt::format("{}: the {} run failed: {}", name, ref.label, ref.error));
      case_json["verdict"] = "FAIL";
      case_json["error"] = ref.error;
      cases_json.push_back(case_json);
      all_agree = false;
      continue;
    }
    const json tolerances = ref.result.value("compare_tolerances", json::object());
    md += fmt::format(
        "{} steps{}.\n\n| backend | threads | ms/step | speed-up over {} | largest metric difference (relative) | "
        "verdict |\n"
        "|---|---|---|---|---|---|\n",
        ref.result["timings"].value("steps", 0L),
        ref.result.value("precision", "") == "" ? "" : ", " + ref.result["precision"].get<std::string>(), ref.label);
    bool case_ok = true;
    chart_data << "\"" << name << "\"";
    for (const Run& r : runs) {
      json run_json = {{"backend", to_string(r.backend)},
                       {"label", r.label},
                       {"threads", r.threads == 0 ? json() : json(r.threads)}};
      if (!r.error.empty()) {
        md += fmt::format("| {} | | | | FAIL: {} |\n", r.label, r.error);
        failures.push_back(fmt::format("{} on {}: {}", name, r.label, r.error));
        run_json["verdict"] = "FAIL";
        run_json["error"] = r.error;
        case_json["runs"].push_back(run_json);
        case_ok = false;
        chart_data << " NaN";
        continue;
      }
      const auto diffs = &r == &ref ? std::vector<MetricDifference>{}
                                    : compare_metrics(ref.result["metrics"], r.result["metrics"], tolerances);
      // The worst metric is the one closest to (or furthest over) its tolerance.
      double worst_excess = -1, worst_rel = 0;
      std::string worst_metric = "-";
      bool ok = true;
      json failed = json::array();
      for (const auto& d : diffs) {
        if (d.excess > worst_excess) {
          worst_excess = d.excess;
          worst_rel = relative(d.reference, d.other);
          worst_metric = d.metric;
        }
        if (d.excess > 1) {
          ok = false;
          failed.push_back({{"metric", d.metric}, {ref.label, d.reference}, {r.label, d.other}, {"why", d.why}});
          failures.push_back(fmt::format("{}: metric '{}' disagrees: {} = {}, {} = {} (tolerance: {})", name, d.metric,
                                         ref.label, fmt_value(d.reference), r.label, fmt_value(d.other), d.why));
        }
      }
      if (worst_excess <= 0) worst_metric = "-";
      const double speedup = r.ms_per_step > 0 ? ref.ms_per_step / r.ms_per_step : 0;
      const long threads = r.result.value("concurrency", 0L);
      // A GPU's concurrency (resident threads, 270336 on an H200) says nothing about host threads.
      const std::string threads_cell = r.backend == Backend::cuda ? "GPU" : threads > 0 ? std::to_string(threads) : "?";
      md += fmt::format("| {} | {} | {:.4g} | {:.2f} | {} | {} |\n", r.label, threads_cell, r.ms_per_step, speedup,
                        &r == &ref ? std::string("reference")
                        : worst_excess <= 0
                            ? std::string("0 (identical)")
                            : fmt::format("{:.2e} ({}, {:.2g} x its tolerance)", worst_rel, worst_metric, worst_excess),
                        ok ? "PASS" : "FAIL");
      run_json.update({{"concurrency", threads},
                       {"ms_per_step", r.ms_per_step},
                       {"speedup_over_reference", speedup},
                       {"worst_rel_difference", worst_rel},
                       {"worst_excess_over_tolerance", std::max(0.0, worst_excess)},
                       {"worst_metric", worst_metric},
                       {"verdict", ok ? "PASS" : "FAIL"},
                       {"disagreements", failed},
                       {"output", r.dir}});
      case_json["runs"].push_back(run_json);
      case_ok = case_ok && ok;
      chart_data << " " << r.ms_per_step;
    }
    chart_data << "\n";
    if (!tolerances.empty()) md += "\n" + stated_tolerances(tolerances);
    md += "\n\n";
    case_json["verdict"] = case_ok ? "PASS" : "FAIL";
    cases_json.push_back(case_json);
    all_agree = all_agree && case_ok;
  }
  chart_data.close();

  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M %Z", std::localtime(&now));
  std::string labels;
  for (Backend b : backends) labels += (labels.empty() ? "" : ",") + to_string(b);
  const json out = {{"date", date},
                    {"versions", versions_json()},
                    {"hardware_threads", hw},
                    {"quick", opt.quick},
                    {"backends", labels},
                    {"reference_backend", to_string(backends.front())},
                    {"verdict", all_agree ? "PASS" : "FAIL"},
                    {"cases", cases_json}};
  std::ofstream(fs::path(opt.dir) / "backends.json") << out.dump(2) << "\n";

  // Bar chart: ms/step per case and backend, log scale (cases span orders of magnitude).
  std::string plot =
      "set terminal pngcairo size 1200,600 noenhanced\nset output 'backends.png'\nset style data histogram\n"
      "set style histogram cluster gap 1\nset style fill solid border -1\nset logscale y\n"
      "set ylabel 'ms per step (log)'\nset xtics rotate by -30\nset key outside top right\n"
      "set title 'Wall time per step by backend'\nplot ";
  for (std::size_t c = 0; c < chart_columns.size(); ++c)
    plot += fmt::format("{}'backends.dat' using {}:xtic(1) title '{}'", c ? ", " : "", c + 2, chart_columns[c]);
  plot += "\n";
  const bool plotted = run_gnuplot(opt.dir, "backends.gp", plot);

  const std::string page = fmt::format(
      "# Backends compared\n\n{}Date: {}. Versions: immerse {} (git {}), Kokkos {}, {}.\n\n**Verdict: {}**\n\n{}{}",
      intro, date, immerse_version(), git_hash(), kokkos_version(), compiler_version(),
      all_agree ? "PASS, every case agrees on every backend" : "FAIL, backends disagree (see the FAIL rows)",
      plotted ? "![ms per step by backend](backends.png)\n\n" : "", md);
  std::ofstream(fs::path(opt.dir) / "backends.md") << page;

  // The table every CI log ends with.
  fmt::print("\nBackends compared ({}), ms/step and agreement with {}:\n", opt.quick ? "quick" : "full",
             to_string(backends.front()));
  fmt::print("{:<22}", "case");
  for (const auto& c : chart_columns) fmt::print(" {:>12}", c);
  fmt::print("  verdict\n");
  for (const auto& c : cases_json) {
    fmt::print("{:<22}", c["case"].get<std::string>());
    for (const auto& r : c["runs"])
      fmt::print(" {:>12}",
                 r.contains("ms_per_step") ? fmt::format("{:.4g}", r["ms_per_step"].get<double>()) : "failed");
    fmt::print("  {}\n", c["verdict"].get<std::string>());
  }
  for (const auto& f : failures) fmt::print(stderr, "compare: FAIL {}\n", f);
  fmt::print("{} -> {}\n", all_agree ? "all backends agree" : "BACKENDS DISAGREE",
             (fs::path(opt.dir) / "backends.md").string());
  return all_agree ? kExitOk : kExitValidationFailed;
}

}  // namespace immerse::reports
