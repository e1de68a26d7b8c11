#include "immerse/reports/benchmark_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace immerse::reports {
namespace {

using nlohmann::json;

std::string backend_of_name(const std::string& name) {
  const auto a = name.find('/'), b = name.find('/', a + 1);
  return a == std::string::npos ? std::string() : name.substr(a + 1, b - a - 1);
}

// Throughput counters a benchmark may carry, shown in millions per second.
const std::vector<std::pair<std::string, std::string>> kRateCounters = {
    {"cells_per_s", "Mcells/s"}, {"lattice_updates_per_s", "MLUPS"}, {"bodies_per_s", "M bodies/s"}};

}  // namespace

std::string benchmark_table(const std::string& program, const json& out) {
  std::string md = fmt::format(
      "### `{}`\n\n| benchmark | ms/iteration | throughput | GB/s | % of STREAM triad | other counters |\n"
      "|---|---|---|---|---|---|\n",
      program);
  std::map<std::string, double> stream;
  for (const auto& b : out["benchmarks"])
    if (b["name"].get<std::string>().rfind("stream_triad", 0) == 0 && b.contains("bytes_per_second")) {
      double& best = stream[backend_of_name(b["name"])];
      best = std::max(best, b["bytes_per_second"].get<double>());
    }
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
    const auto measured = stream.find(backend_of_name(b["name"]));  // find: no zero entry for other names
    const double triad = measured == stream.end() ? 0.0 : measured->second;
    std::string rate, other;
    for (const auto& [key, unit] : kRateCounters)
      if (b.contains(key)) rate = fmt::format("{:.1f} {}", b[key].get<double>() / 1e6, unit);
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
          std::any_of(kRateCounters.begin(), kRateCounters.end(), [&](const auto& r) { return r.first == key; });
      if (!known && value.is_number())
        other += fmt::format("{}{} {:.4g}", other.empty() ? "" : ", ", key, value.get<double>());
    }
    md += fmt::format("| {} | {:.4g} | {} | {} | {} | {} |\n", b["name"].get<std::string>(), ms, rate,
                      gbs > 0 ? fmt::format("{:.2f}", gbs) : "",
                      triad > 0 && gbs > 0 ? fmt::format("{:.0f}%", 100 * gbs * 1e9 / triad) : "", other);
  }
  std::string triads;
  for (const auto& [backend, bw] : stream)
    triads += fmt::format("{}{} {:.2f} GB/s", triads.empty() ? "" : ", ", backend, bw / 1e9);
  const json& c = out["context"];
  md += fmt::format("\nSTREAM triad per backend in this program's run: {}. Context: {} CPUs at {} MHz.\n\n",
                    triads.empty() ? "not measured" : triads, c.value("num_cpus", 0), c.value("mhz_per_cpu", 0));
  return md;
}

}  // namespace immerse::reports
