#pragma once
// `immerse compare`: every selected case on every selected backend (and the OpenMP backend at fewer
// threads, for thread scaling), each run in its own process with the same parameters; the metrics
// of each run are checked against the first backend's within the tolerance each case states
// (compare_tolerances in result.json), and the wall time per step is tabulated. Writes
// <dir>/backends.md, backends.json and a gnuplot bar chart backends.png.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "immerse/core/backend_id.hpp"

namespace immerse::reports {

struct CompareOptions {
  std::vector<std::string> cases;   // empty: every canned case
  std::vector<Backend> backends;    // empty: every enabled backend; the first is the reference
  std::vector<int> openmp_threads;  // extra OpenMP runs at these thread counts (scaling); empty:
                                    // the powers of two below the hardware thread count
  bool quick = false;               // apply each case's "quick" overrides
  std::string dir = "reports/latest";
  std::string self;  // this program, re-run once per (case, backend, threads)
};

// Parses "all" or "a,b,c" (canned names) and "serial,openmp" (enabled backends); InputError names
// the bad item and the allowed ones.
std::vector<std::string> parse_case_list(const std::string& list);
std::vector<Backend> parse_backend_list(const std::string& list);
std::vector<int> parse_thread_list(const std::string& list);

// Returns kExitOk when every case agrees on every backend, kExitValidationFailed otherwise (each
// disagreement printed with case, metric and both values).
int compare_backends(const CompareOptions& options);

// One metric of two runs: the largest allowed |a - b| for it is abs + rel * max(|a|, |b|).
struct MetricTolerance {
  double rel = 1e-12, abs = 0;
  std::string why = "deterministic kernels: backends agree to rounding";
  // {"timing": true}: the value is derived from wall time (a met frame-rate target), so it is
  // not compared, like the metrics named *_per_s, *_ms, *_us.
  bool timing = false;
};
// Timing metrics (names ending _per_s, _ms, _us) vary run to run and are never compared.
bool is_timing_metric(const std::string& name);

// One compared metric ("a.b[2]" for nested values): `excess` is |a - b| over the allowed
// difference, so > 1 fails (infinite for a missing metric or unequal non-numbers).
struct MetricDifference {
  std::string metric;
  nlohmann::json reference, other;
  double excess = 0;
  std::string why;
  bool pass() const { return excess <= 1; }
};
// Every non-timing metric of `reference` against `other`, with `tolerances` as a case states them
// ({"metric": {"rel", "abs", "why"}}, matched by full key, then by leaf name).
std::vector<MetricDifference> compare_metrics(const nlohmann::json& reference, const nlohmann::json& other,
                                              const nlohmann::json& tolerances);

}  // namespace immerse::reports
