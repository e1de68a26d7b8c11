#pragma once
// `immerse report --baseline DIR`: every benchmark row against the same row of an earlier report
// folder (its bench_*.json, e.g. the last CI run's reports/latest). Per row: the median time per
// iteration of each run's repetitions, the relative change and the two-sided Mann-Whitney U test over
// the repetitions (the convention of Google Benchmark's tools/compare.py, alpha 0.05). A row is
// "slower" or "faster" only when its median moved by more than 5% AND the test is significant, with
// at least 5 repetitions on each side; else "same". Rows of one run only are "new" or "gone".
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace immerse::reports {

constexpr double kBaselineAlpha = 0.05;
constexpr double kBaselineThresholdPercent = 5;
// With 3 repetitions a side no ordering reaches p < 0.05 (the smallest two-sided p is 2/20); with 5
// complete separation gives 2/252. compare.py computes from 2 and recommends 9 or more.
constexpr int kBaselineMinRepetitions = 5;

struct BaselineRow {
  std::string row;                     // the benchmark's run name, e.g. collide_stream/openmp/fp32/256/real_time
  std::vector<double> baseline, now;   // ms per iteration, one per repetition (empty: row absent)
  double baseline_ms = 0, now_ms = 0;  // medians
  double change_percent = 0;           // of the median time: > 0 is slower
  std::optional<double> p;             // the U test's p-value, when tested
  std::string verdict;                 // slower, faster, same (noise), same (< 5 %), not tested (...), new, gone
};

struct BaselineComparison {
  std::string baseline_dir;
  std::string baseline_run, this_run;                        // "date, git hash" of each run's bench output
  std::map<std::string, std::vector<BaselineRow>> programs;  // by bench program
  int compared = 0, slower = 0, faster = 0, same = 0, untested = 0, added = 0, gone = 0;
  // Bench programs whose run was noisy (benchmark_table.hpp's noisy_run), in either run: their
  // verdicts may be the machine's, not the code's.
  std::vector<std::string> noisy_baseline, noisy_now;
  std::string summary() const;  // one line: "2 of 40 rows slower (significant, > 5 %): a, b; 1 faster; ..."
  nlohmann::json to_json() const;
};

// The bench_*.json of the baseline folder; InputError (exit 2) naming the folder when it does not
// exist or holds no bench JSON.
std::map<std::string, nlohmann::json> read_baseline(const std::string& dir);

// Both maps by program, as Google Benchmark wrote them (every repetition).
BaselineComparison compare_with_baseline(const std::string& baseline_dir,
                                         const std::map<std::string, nlohmann::json>& baseline,
                                         const std::map<std::string, nlohmann::json>& now);

// The report's section: the summary line, then one table per bench program.
std::string baseline_section(const BaselineComparison& c);

}  // namespace immerse::reports
