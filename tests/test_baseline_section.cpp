// `immerse report --baseline DIR` (baseline_section.cpp): two report folders are built here with
// bench_*.json in Google Benchmark's format, repetitions included, and every row's verdict checked:
// a row slower with separated repetitions, one whose median moved as much but whose repetitions
// overlap (noise), one faster, one against a baseline without repetitions, one new and one gone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "immerse/core/error.hpp"
#include "immerse/reports/baseline_section.hpp"
#include "support/json_files.hpp"

namespace fs = std::filesystem;
using immerse::reports::baseline_section;
using immerse::reports::compare_with_baseline;
using immerse::reports::read_baseline;
using immerse::test::write_json_file;
using nlohmann::json;

namespace {

// The rows Google Benchmark writes for one benchmark run with --benchmark_repetitions: one per
// repetition, then the aggregates (the median here). One value: a single run, as without the flag.
void add_rows(json& out, const std::string& name, const std::vector<double>& ms) {
  auto row = [&](double v) {
    return json{{"name", name},  {"run_name", name},  {"run_type", "iteration"}, {"real_time", v},
                {"cpu_time", v}, {"time_unit", "ms"}, {"iterations", 10}};
  };
  if (ms.size() == 1) {
    out["benchmarks"].push_back(row(ms[0]));
    return;
  }
  for (std::size_t i = 0; i < ms.size(); ++i) {
    json r = row(ms[i]);
    r["repetitions"] = ms.size();
    r["repetition_index"] = i;
    out["benchmarks"].push_back(r);
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  json median = row(sorted[sorted.size() / 2]);
  median["name"] = name + "_median";
  median["run_type"] = "aggregate";
  median["aggregate_name"] = "median";
  out["benchmarks"].push_back(median);
}

json bench_output(const std::string& date, const std::vector<std::pair<std::string, std::vector<double>>>& rows) {
  json out = {{"context", {{"date", date}, {"git", "abc1234"}}}, {"benchmarks", json::array()}};
  for (const auto& [name, ms] : rows) add_rows(out, name, ms);
  return out;
}

// A temporary folder of the running test's own: ctest runs each test as its own process, in
// parallel, and a shared folder would be removed under another test's feet.
fs::path test_folder(const std::string& stem) {
  return fs::temp_directory_path() / (stem + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

struct Folders {
  fs::path root = test_folder("immerse_baseline_section");
  Folders() {
    fs::remove_all(root);
    write_json_file(root / "before" / "bench_x.json",
                    bench_output("2026-11-25", {{"kernel/openmp/256/real_time", {10.0, 10.1, 10.2, 10.3, 10.4}},
                                                {"kernel/openmp/64/real_time", {1.0, 1.2, 1.4, 1.6, 1.8}},
                                                {"kernel/openmp/32/real_time", {5.0, 5.1, 5.2, 5.3, 5.4}},
                                                {"old/openmp/real_time", {3.0, 3.0, 3.0, 3.0, 3.0}}}));
    write_json_file(root / "before" / "bench_y.json", bench_output("2026-11-25", {{"step/serial/real_time", {2.0}}}));
    write_json_file(root / "now" / "bench_x.json",
                    bench_output("2026-11-26", {{"kernel/openmp/256/real_time", {12.0, 12.1, 12.2, 12.3, 12.4}},
                                                {"kernel/openmp/64/real_time", {1.1, 1.3, 1.5, 1.7, 1.9}},
                                                {"kernel/openmp/32/real_time", {4.0, 4.1, 4.2, 4.3, 4.4}},
                                                {"new/openmp/real_time", {1.0, 1.0, 1.0, 1.0, 1.0}}}));
    write_json_file(root / "now" / "bench_y.json",
                    bench_output("2026-11-26", {{"step/serial/real_time", {2.5, 2.5, 2.5, 2.5, 2.5}}}));
  }
  ~Folders() { fs::remove_all(root); }
};

const immerse::reports::BaselineRow& row(const immerse::reports::BaselineComparison& c, const std::string& program,
                                         const std::string& name) {
  for (const auto& r : c.programs.at(program))
    if (r.row == name) return r;
  throw std::runtime_error("no row " + name);
}

}  // namespace

TEST(BaselineSection, VerdictsAndSummary) {
  const Folders f;
  const std::string before = (f.root / "before").string();
  const auto c = compare_with_baseline(before, read_baseline(before), read_baseline((f.root / "now").string()));

  const auto& slower = row(c, "bench_x", "kernel/openmp/256/real_time");
  EXPECT_EQ(slower.verdict, "slower");
  EXPECT_NEAR(slower.change_percent, 100 * (12.2 / 10.2 - 1), 1e-9);
  EXPECT_NEAR(*slower.p, 2.0 / 252, 1e-12);  // separated 5 against 5: the exact test's smallest p

  // The median moved by 7 %, above the threshold, but the repetitions interleave: noise.
  const auto& noise = row(c, "bench_x", "kernel/openmp/64/real_time");
  EXPECT_EQ(noise.verdict, "same (noise)");
  EXPECT_NEAR(noise.change_percent, 100 * (1.5 / 1.4 - 1), 1e-9);
  EXPECT_GT(*noise.p, 0.05);

  EXPECT_EQ(row(c, "bench_x", "kernel/openmp/32/real_time").verdict, "faster");
  EXPECT_EQ(row(c, "bench_x", "new/openmp/real_time").verdict, "new");
  EXPECT_EQ(row(c, "bench_x", "old/openmp/real_time").verdict, "gone");
  const auto& single = row(c, "bench_y", "step/serial/real_time");
  EXPECT_EQ(single.verdict, "no repetitions: not tested");
  EXPECT_NEAR(single.change_percent, 25, 1e-9);
  EXPECT_FALSE(single.p);

  EXPECT_EQ(c.summary(),
            "1 of 4 rows slower (significant, > 5 %): bench_x kernel/openmp/256/real_time (+19.6 %); 1 faster: "
            "bench_x kernel/openmp/32/real_time (-19.2 %); 1 the same within noise; 1 not tested (fewer than 5 "
            "repetitions a side); 1 new, 1 gone.");

  const std::string md = baseline_section(c);
  EXPECT_EQ(md.find("## Against the baseline\n\n**1 of 4 rows slower"), 0u) << md;
  EXPECT_NE(md.find("Baseline: `" + before + "` (run 2026-11-25, git abc1234); this run: run 2026-11-26"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| kernel/openmp/256/real_time | 10.2 (5) | 12.2 (5) | +19.6 % | 0.00794 | **slower** |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| step/serial/real_time | 2 (1) | 2.5 (5) | +25.0 % |  | no repetitions: not tested |"),
            std::string::npos)
      << md;

  const json j = c.to_json();
  EXPECT_EQ(j["counts"]["slower"], 1);
  EXPECT_EQ(j["counts"]["compared"], 4);
  EXPECT_EQ(j["programs"]["bench_x"][0]["now_repetitions_ms"].size(), 5u);
  EXPECT_TRUE(j["programs"]["bench_y"][0]["p_value"].is_null());
}

// Many slower rows (a busier machine slows them all): the summary names the first 8.
TEST(BaselineSection, SummaryNamesTheFirstEight) {
  immerse::reports::BaselineComparison c;
  for (int i = 0; i < 10; ++i) {
    immerse::reports::BaselineRow r;
    r.row = "k" + std::to_string(i);
    r.verdict = "slower";
    r.change_percent = 10;
    c.programs["bench_x"].push_back(r);
  }
  c.compared = c.slower = 10;
  EXPECT_NE(c.summary().find("10 of 10 rows slower (significant, > 5 %): bench_x k0 (+10.0 %), "), std::string::npos);
  EXPECT_NE(c.summary().find("bench_x k7 (+10.0 %) and 2 more (see the tables); 0 faster"), std::string::npos)
      << c.summary();
}

// Without benchmarks in this run (--no-bench) the section says so instead of listing every row as gone.
TEST(BaselineSection, NothingToCompare) {
  const Folders f;
  const std::string before = (f.root / "before").string();
  const auto c = compare_with_baseline(before, read_baseline(before), {});
  EXPECT_EQ(c.summary(), "No benchmark output in this run (--no-bench?): nothing compared with the baseline.");
}

// A baseline folder that is missing or holds no bench JSON is bad input (exit 2) naming the folder.
TEST(BaselineSection, MissingBaselineIsBadInput) {
  try {
    read_baseline("/nonexistent/reports/latest");
    FAIL() << "no error";
  } catch (const immerse::Error& e) {
    EXPECT_EQ(e.exit_code(), immerse::kExitBadInput);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/reports/latest: no such folder"), std::string::npos);
  }
  const fs::path empty = test_folder("immerse_baseline_empty");
  fs::create_directories(empty);
  std::ofstream(empty / "index.md") << "# not a report with benchmarks\n";
  try {
    read_baseline(empty.string());
    FAIL() << "no error";
  } catch (const immerse::Error& e) {
    EXPECT_EQ(e.exit_code(), immerse::kExitBadInput);
    EXPECT_NE(std::string(e.what()).find(empty.string() + ": the folder holds no bench_*.json"), std::string::npos);
  }
  fs::remove_all(empty);
}

// A run whose machine was busy (others_cpu_pct > 10, as the bench programs record it) is named in the
// summary: its verdicts may be the machine's, not the code's. The quiet folders above carry no flag.
TEST(BaselineSection, NoisyRunIsNamed) {
  const Folders f;
  const std::string before = (f.root / "before").string();
  auto now = read_baseline((f.root / "now").string());
  now["bench_y"]["benchmarks"][0]["others_cpu_pct"] = 42.0;
  const auto c = compare_with_baseline(before, read_baseline(before), now);
  EXPECT_EQ(c.noisy_now, std::vector<std::string>{"bench_y"});
  EXPECT_TRUE(c.noisy_baseline.empty());
  const std::string s = c.summary();
  const std::string tail = "1 new, 1 gone. Noisy runs, verdicts unreliable: this run bench_y.";
  ASSERT_GE(s.size(), tail.size()) << s;
  EXPECT_EQ(s.substr(s.size() - tail.size()), tail) << s;
}
