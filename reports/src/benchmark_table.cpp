#include "immerse/reports/benchmark_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "immerse/core/bandwidth_patterns.hpp"

namespace immerse::reports {
namespace {

using nlohmann::json;

std::string backend_of_name(const std::string& name) {
  const auto a = name.find('/'), b = name.find('/', a + 1);
  return a == std::string::npos ? std::string() : name.substr(a + 1, b - a - 1);
}

// A bandwidth row: "stream_<pattern>/<backend>[/before]/real_time"; empty pattern if not.
struct BandwidthRow {
  std::string pattern, backend;
  bool before = false;
};
BandwidthRow bandwidth_row(const std::string& name) {
  if (name.rfind("stream_", 0) != 0) return {};
  const auto slash = name.find('/');
  return {name.substr(7, slash == std::string::npos ? std::string::npos : slash - 7), backend_of_name(name),
          name.find("/before") != std::string::npos};
}

const char* pattern_words(const std::string& pattern) {
  return pattern == "inplace" ? "in-place" : pattern == "copy" ? "copy" : "triad";
}

// Bandwidth per (backend, pattern), before and after the program's kernels. The runtime's own copy
// bounds the copy and the in-place pattern too (bandwidth_row_bounds): on a CPU it stays below both
// kernels, on the H200 it moved 2.4x the Kokkos kernels of 2026-11-29. It is not part of the
// before-and-after drift.
struct Measured {
  double before = 0, after = 0, runtime_copy = 0;
  double best() const { return std::max({before, after, runtime_copy}); }
};
std::map<std::pair<std::string, std::string>, Measured> bandwidths(const json& out) {
  std::map<std::pair<std::string, std::string>, Measured> m;
  for (const auto& b : out["benchmarks"]) {
    const BandwidthRow r = bandwidth_row(b.value("name", ""));
    if (r.pattern.empty() || !b.contains("bytes_per_second") || b.value("run_type", "") == "aggregate") continue;
    const double v = b["bytes_per_second"].get<double>();
    for (const char* p : {"copy", "inplace", "triad"}) {
      if (!bandwidth_row_bounds(r.pattern, p)) continue;
      Measured& to = m[{r.backend, p}];
      double& slot = r.pattern != p ? to.runtime_copy : r.before ? to.before : to.after;
      slot = std::max(slot, v);
    }
  }
  return m;
}

// The run's noise: the in-place bandwidth's and the cores' rate's change from before to after the
// kernels, per backend, and the share of the CPU time other processes took (the largest
// others_cpu_pct of the rows).
constexpr double kBusyPercent = 10;
// A kernel above kCacheResident x its pattern's bandwidth is cache-resident, unless its working set
// is larger than the machine's largest cache: then the bandwidth test is what falls short (the D3Q15
// AA kernel at 256^3, 4 GB per iteration, with 15 prefetched streams, measured 118% of the
// single-stream in-place test). The bench programs' iterations are one or two passes over their
// arrays, each read and written: the working set is at least a quarter of the bytes an iteration
// moves, so an iteration moving more than 4x the largest cache (Google Benchmark's context lists the
// caches; 64 MiB where it does not) cannot have worked from cache. A 2-core VM on a server can see a
// last-level cache of hundreds of MB (480 MB on a Xeon one), where a 128^3 lattice fits.
constexpr double kPassesPerIteration = 4;
constexpr double kLargestCacheUnknown = 64.0 * 1024 * 1024;
double largest_cache(const json& context) {
  double largest = 0;
  if (context.contains("caches") && context["caches"].is_array())
    for (const auto& c : context["caches"])
      if (c.contains("size") && c["size"].is_number()) largest = std::max(largest, c["size"].get<double>());
  return largest > 0 ? largest : kLargestCacheUnknown;
}
double others_cpu_percent(const json& out) {  // -1: not measured
  double others = -1;
  for (const auto& b : out["benchmarks"])
    if (b.contains("others_cpu_pct")) others = std::max(others, b["others_cpu_pct"].get<double>());
  return others;
}
bool drifted(const Measured& m) {
  return m.before > 0 && m.after > 0 && std::abs(m.after / m.before - 1) > kMachineDriftLimit;
}

// The cores' arithmetic rate per backend (core_fma rows, flops_per_s), before and after the kernels:
// it falls when other work takes the cores, which the bandwidth rows may not show.
std::map<std::string, Measured> core_rates(const json& out) {
  std::map<std::string, Measured> m;
  for (const auto& b : out["benchmarks"]) {
    const std::string name = b.value("name", "");
    if (name.rfind("core_fma/", 0) != 0 || !b.contains("flops_per_s") || b.value("run_type", "") == "aggregate")
      continue;
    Measured& to = m[backend_of_name(name)];
    (name.find("/before") != std::string::npos ? to.before : to.after) = b["flops_per_s"].get<double>();
  }
  return m;
}

// "backend a -> b unit (+x%), ..." (values in 1e9 per second) over the backends measured before and
// after the kernels; empty if none.
std::string drift_list(const std::vector<std::pair<std::string, Measured>>& by_backend, const char* unit) {
  std::string list;
  for (const auto& [backend, m] : by_backend) {
    if (m.before <= 0 || m.after <= 0) continue;
    list += fmt::format("{}{} {:.2f} -> {:.2f} {} ({:+.0f}%)", list.empty() ? "" : ", ", backend, m.before / 1e9,
                        m.after / 1e9, unit, 100 * (m.after / m.before - 1));
  }
  return list;
}

std::string noise_note(const json& out, const std::map<std::pair<std::string, std::string>, Measured>& bw) {
  std::vector<std::pair<std::string, Measured>> inplace;
  for (const auto& [key, m] : bw)
    if (key.second == "inplace") inplace.emplace_back(key.first, m);
  const auto core = core_rates(out);
  const std::string drifts = drift_list(inplace, "GB/s");
  const std::string cores = drift_list({core.begin(), core.end()}, "GFLOP/s");
  const double others = others_cpu_percent(out);
  const bool noisy = noisy_run(out);
  if (drifts.empty() && cores.empty() && others < 0) return "";
  const std::string facts = fmt::format(
      "in-place bandwidth before and after the kernels: {}; the cores' multiply-add rate: {}; other processes "
      "used {} of the CPU time",
      drifts.empty() ? "not measured" : drifts, cores.empty() ? "not measured" : cores,
      others < 0 ? std::string("an unknown share") : fmt::format("{:.1f}%", others));
  return noisy ? fmt::format(
                     "**Noisy run** (bandwidth or the cores' rate moved by more than {:.0f}%, or others used more "
                     "than {:.0f}%): {}. Ratios in this table are unreliable; rerun on a quiet machine.\n\n",
                     100 * kMachineDriftLimit, kBusyPercent, facts)
               : fmt::format("Quiet run: {}.\n\n", facts);
}

}  // namespace

bool noisy_run(const json& out) {
  for (const auto& [key, m] : bandwidths(out))
    if (key.second == "inplace" && drifted(m)) return true;
  for (const auto& [backend, m] : core_rates(out))
    if (drifted(m)) return true;
  return others_cpu_percent(out) > kBusyPercent;
}

namespace {

// Throughput counters a benchmark may carry: the counter, its unit, and what one of that unit is.
struct RateCounter {
  const char* key;
  const char* unit;
  double scale;
};
const std::vector<RateCounter> kRateCounters = {{"cells_per_s", "Mcells/s", 1e6},
                                                {"lattice_updates_per_s", "MLUPS", 1e6},
                                                {"bodies_per_s", "M bodies/s", 1e6},
                                                {"flops_per_s", "GFLOP/s", 1e9}};

}  // namespace

std::string kernel_pattern(const json& row) {
  const std::string label = row.value("label", "");
  return label == "inplace" || label == "copy" ? label : "triad";
}

double pattern_bandwidth(const json& out, const json& row) {
  const auto bw = bandwidths(out);
  const auto it = bw.find({backend_of_name(row.value("name", "")), kernel_pattern(row)});
  return it == bw.end() ? 0.0 : it->second.best();
}

std::string benchmark_table(const std::string& program, const json& out) {
  std::string md = fmt::format(
      "### `{}`\n\n| benchmark | ms/iteration | throughput | GB/s | % of its pattern's bandwidth | other counters "
      "|\n|---|---|---|---|---|---|\n",
      program);
  const auto bw = bandwidths(out);
  for (const auto& b : out["benchmarks"]) {
    if (b.value("run_type", "") == "aggregate") continue;
    if (b.contains("error_occurred") && b["error_occurred"].get<bool>()) {
      md += fmt::format("| {} | | | | | error: {} |\n", b["name"].get<std::string>(), b.value("error_message", ""));
      continue;
    }
    const double gbs = b.value("bytes_per_second", 0.0) / 1e9;
    const double ms = b["real_time"].get<double>() * (b["time_unit"] == "ns"   ? 1e-6
                                                      : b["time_unit"] == "us" ? 1e-3
                                                                               : 1.0);
    const std::string pattern = kernel_pattern(b);
    const auto measured = bw.find({backend_of_name(b["name"]), pattern});  // find: no zero entry for others
    const double ceiling =
        bandwidth_row(b["name"]).pattern.empty() && measured != bw.end() ? measured->second.best() : 0.0;
    std::string rate, other;
    for (const auto& r : kRateCounters)
      if (b.contains(r.key)) rate = fmt::format("{:.1f} {}", b[r.key].get<double>() / r.scale, r.unit);
    static const std::vector<std::string> kStandard = {"name",
                                                       "run_name",
                                                       "run_type",
                                                       "repetitions",
                                                       "repetition_index",
                                                       "threads",
                                                       "iterations",
                                                       "real_time",
                                                       "cpu_time",
                                                       "time_unit",
                                                       "bytes_per_second",
                                                       "family_index",
                                                       "per_family_instance_index",
                                                       "aggregate_name",
                                                       "aggregate_unit",
                                                       "label"};
    for (const auto& item : b.items()) {
      const std::string& key = item.key();  // not a structured binding: lambdas capture it (C++17)
      const json& value = item.value();
      const bool known =
          std::find(kStandard.begin(), kStandard.end(), key) != kStandard.end() ||
          std::any_of(kRateCounters.begin(), kRateCounters.end(), [&](const auto& r) { return key == r.key; });
      if (!known && value.is_number())
        other += fmt::format("{}{} {:.4g}", other.empty() ? "" : ", ", key, value.get<double>());
    }
    // A kernel faster than memory can move its own pattern works from cache (a small grid): say so.
    // Only for a declared pattern: an unlabelled kernel above the triad may just move memory in a
    // cheaper pattern (an in-place kernel beats the triad's write-allocate).
    const double ratio = ceiling > 0 ? gbs * 1e9 / ceiling : 0;
    const bool declared = b.contains("label") && pattern != "triad";
    const double bytes_per_iteration = gbs * 1e9 * ms * 1e-3;
    const std::string above =
        !declared || ratio <= kCacheResident ? ""
        : bytes_per_iteration > kPassesPerIteration * largest_cache(out["context"])
            ? fmt::format(
                  " (above the bandwidth test with {:.2g} GB per iteration, more than any cache holds: the test "
                  "underestimates this pattern)",
                  bytes_per_iteration / 1e9)
            : " (above memory bandwidth: cache-resident)";
    const std::string fraction =
        ratio <= 0 ? "" : fmt::format("{:.0f}% of {}{}", 100 * ratio, pattern_words(pattern), above);
    md += fmt::format("| {} | {:.4g} | {} | {} | {} | {} |\n", b["name"].get<std::string>(), ms, rate,
                      gbs > 0 ? fmt::format("{:.2f}", gbs) : "", fraction, other);
  }
  std::string measured;
  for (const auto& [key, m] : bw)
    if (!key.first.empty())
      measured += fmt::format("{}{} {} {:.2f} GB/s", measured.empty() ? "" : ", ", key.first, pattern_words(key.second),
                              m.best() / 1e9);
  const json& c = out["context"];
  md += fmt::format(
      "\nBandwidth per backend in this program's run (best of before and after the kernels): {}. "
      "Context: {} CPUs at {} MHz.\n\n",
      measured.empty() ? "not measured" : measured, c.value("num_cpus", 0), c.value("mhz_per_cpu", 0));
  return md + noise_note(out, bw);
}

json median_rows(const json& out) {
  json collapsed = out;
  if (!out.contains("benchmarks") || !out["benchmarks"].is_array()) return collapsed;
  std::map<std::string, const json*> median;
  for (const auto& b : out["benchmarks"])
    if (b.value("run_type", "") == "aggregate" && b.value("aggregate_name", "") == "median")
      median[b.value("run_name", b.value("name", ""))] = &b;
  json rows = json::array();
  std::set<std::string> seen;
  for (const auto& b : out["benchmarks"]) {
    const bool aggregate = b.value("run_type", "") == "aggregate";
    if (aggregate && b.value("aggregate_name", "") != "median") continue;
    const std::string run = b.value("run_name", b.value("name", ""));
    if (!seen.insert(run).second) continue;
    const auto it = median.find(run);
    if (it == median.end()) {
      rows.push_back(b);
      continue;
    }
    json m = *it->second;
    m["name"] = run;
    m["run_type"] = "iteration";
    m.erase("aggregate_name");
    m.erase("aggregate_unit");
    if (!m.contains("label") && !aggregate && b.contains("label")) m["label"] = b["label"];
    rows.push_back(std::move(m));
  }
  collapsed["benchmarks"] = std::move(rows);
  return collapsed;
}

std::map<std::string, json> read_bench_outputs(const std::string& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, json> outputs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    if (file.rfind("bench_", 0) != 0 || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("benchmarks"))
      fmt::print(stderr, "report: {} is not Google Benchmark JSON; left out\n", e.path().string());
    else
      outputs[e.path().stem().string()] = std::move(j);
  }
  return outputs;
}

}  // namespace immerse::reports
