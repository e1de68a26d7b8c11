// The report's "Scaling over MPI ranks" section (scaling_section.cpp): the rows of the two
// arrangements' scaling_lattices runs side by side, the machine's rates in each round, what the
// overlap hides per lattice, and the model past this machine. The benchmark files of each round are written here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "immerse/reports/report.hpp"
#include "immerse/reports/weak_scaling_model.hpp"

namespace fs = std::filesystem;
using immerse::reports::ReportContext;
using immerse::reports::scaling_section;
using nlohmann::json;

namespace {

// One scaling row as both runs measured it: lattice updates per s on 1 rank x 2 threads and on
// 2 ranks x 1 thread, and the 2-rank run's halo ms and bytes per step.
struct Row {
  std::string name;
  double rate_threads, rate_ranks, halo_ms, halo_bytes;
};

// The Google Benchmark file of one run (ranks x threads) of `rows`.
void write_run(const fs::path& file, int ranks, int threads, const std::vector<Row>& rows) {
  json out = {{"context", json::object()}, {"benchmarks", json::array()}};
  for (const Row& r : rows)
    out["benchmarks"].push_back({{"name", r.name + "/ranks:" + std::to_string(ranks) +
                                              "/threads:" + std::to_string(threads) + "/iterations:10/manual_time"},
                                 {"lattice_updates_per_s", ranks == 1 ? r.rate_threads : r.rate_ranks},
                                 {"halo_ms_per_step", ranks == 1 ? 0.0 : r.halo_ms},
                                 {"halo_bytes_per_step", ranks == 1 ? 0.0 : r.halo_bytes},
                                 {"ranks", ranks},
                                 {"threads", threads}});
  std::ofstream(file) << out.dump();
}

// An empty scratch folder for one test's round files.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The section the report writes from the round files in `dir`.
std::string section_from(const fs::path& dir) {
  ReportContext ctx;
  ctx.dir = dir.string();
  return scaling_section(ctx);
}

// The section of one round that ran `rows` both ways, its files in `dir` (removed after).
std::string one_round_section(const fs::path& dir, const std::vector<Row>& rows) {
  write_run(dir / "scaling_threads.1.json", 1, 2, rows);
  write_run(dir / "scaling_ranks.1.json", 2, 1, rows);
  const std::string md = section_from(dir);
  fs::remove_all(dir);
  return md;
}

}  // namespace

TEST(ScalingSection, BothLatticesSideBySideWithWhatTheOverlapHides) {
  const fs::path dir = fresh_dir("immerse_scaling_section");
  const std::vector<Row> rows = {{"lbm3d_strong/128", 150e6, 147e6, 0.5, 655360},
                                 {"lbm3d_strong_blocking/128", 150e6, 140e6, 2.0, 655360},
                                 {"swlbm_strong/2048", 120e6, 126e6, 0.3, 49152},
                                 {"swlbm_strong_blocking/2048", 120e6, 124e6, 0.2, 49152},
                                 {"bench_other/1", 1e6, 1e6, 0, 0}};
  write_run(dir / "scaling_threads.1.json", 1, 2, rows);
  auto with_exchange = rows;  // the exchange row runs on 2 ranks only
  with_exchange.push_back({"lbm3d_exchange/128", 0, 0, 0.25, 655360});
  write_run(dir / "scaling_ranks.1.json", 2, 1, with_exchange);
  const std::string md = section_from(dir);
  EXPECT_NE(md.find("| lbm3d_strong/128 | 150 | 147 | 0.98 | 0.500 | 655 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| swlbm_strong/2048 | 120 | 126 | 1.05 | 0.300 | 49 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("bench_other"), std::string::npos) << md;  // not a scaling row
  // Hidden = 1 - exposed / blocking: 1 - 0.5 / 2 and 1 - 0.3 / 0.2.
  EXPECT_NE(md.find("Hidden at lbm3d_strong/128: 75 % of the blocking exchange's 2.000 ms"), std::string::npos) << md;
  EXPECT_NE(md.find("Hidden at swlbm_strong/2048: -50 % of the blocking exchange's 0.200 ms"), std::string::npos) << md;
  EXPECT_NE(md.find("**Past this machine, by model**"), std::string::npos) << md;
  // Its rows: 64 CPU ranks on one node send nothing off it.
  EXPECT_NE(md.find("| CPU cores | 64 | 8x8 | 8x8 | 128^3 | 1.3 | 0.0 |"), std::string::npos) << md;
  // The exchange alone: said below the table, not a row of it, and the model's halo speed
  // (655360 B per 0.25 ms: 2.62 GB/s, where the blocking row's 2 ms would give 0.33).
  EXPECT_EQ(md.find("| lbm3d_exchange"), std::string::npos) << md;
  EXPECT_NE(md.find("The exchange alone (`lbm3d_exchange/128`"), std::string::npos) << md;
  EXPECT_NE(md.find("moves halo bytes at 2.62 GB/s within a node (this run, 2 ranks, exchange/128)"), std::string::npos)
      << md;
  fs::remove_all(dir);
}

// An exposed exchange a hair longer than the blocking one hides nothing: "0 %", never "-0 %".
TEST(ScalingSection, NothingHiddenReadsZeroPercent) {
  const std::vector<Row> rows = {{"lbm3d_strong/128", 150e6, 147e6, 0.2111, 655360},
                                 {"lbm3d_strong_blocking/128", 150e6, 140e6, 0.2110, 655360}};
  const std::string md = one_round_section(fresh_dir("immerse_scaling_section_zero"), rows);
  EXPECT_NE(md.find("Hidden at lbm3d_strong/128: 0 % of the blocking exchange's 0.211 ms"), std::string::npos) << md;
}

// Ranks sharing the populations send nothing: their hidden line says the exchange is the wait for
// the neighbours; the rows with ghost layers and messages get their own line.
TEST(ScalingSection, SharedAndMessageRowsEachSayWhatIsHidden) {
  const std::vector<Row> rows = {{"lbm3d_strong/128", 150e6, 149e6, 0.02, 0},
                                 {"lbm3d_strong_blocking/128", 150e6, 140e6, 0.08, 0},
                                 {"lbm3d_strong_messages/128", 150e6, 140e6, 0.15, 655360},
                                 {"lbm3d_strong_messages_blocking/128", 150e6, 135e6, 0.30, 655360},
                                 {"swlbm_strong/2048", 400e6, 400e6, 0.0208, 0},
                                 {"swlbm_strong_blocking/2048", 400e6, 390e6, 0.0200, 0}};
  const std::string md = one_round_section(fresh_dir("immerse_scaling_section_shared"), rows);
  EXPECT_NE(md.find("Hidden at lbm3d_strong/128: 75 % of the blocking exchange's 0.080 ms per step (exposed with "
                    "overlap: 0.020 ms, nothing copied: the wait for the neighbours;"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Hidden at lbm3d_strong_messages/128: 50 % of the blocking exchange's 0.300 ms per step (exposed "
                    "with overlap: 0.150 ms; the goal"),
            std::string::npos)
      << md;
  // 2048^2 cells at 400 M/s: a 10.49 ms step, of which the exposed 0.0208 ms are 0.20 %.
  EXPECT_NE(md.find("Hidden at swlbm_strong/2048: -4 % of the blocking exchange's 0.020 ms per step (exposed with "
                    "overlap: 0.021 ms, nothing copied: the wait for the neighbours; the goal is >= 90 %); the exposed "
                    "exchange is 0.20 % of the step's 10.49 ms."),
            std::string::npos)
      << md;
}

// A blocking exchange under a thousandth of the step (2048^2 cells at 400 M/s: 10.49 ms) leaves
// nothing to hide, and the line says so instead of a share.
TEST(ScalingSection, AnExchangeBelowAThousandthOfTheStepHasNothingToHide) {
  const std::vector<Row> rows = {{"swlbm_strong/2048", 400e6, 400e6, 0.0012, 0},
                                 {"swlbm_strong_blocking/2048", 400e6, 390e6, 0.0010, 0}};
  const std::string md = one_round_section(fresh_dir("immerse_scaling_section_nothing"), rows);
  EXPECT_NE(md.find("Hidden at swlbm_strong/2048: nothing to hide: the blocking exchange takes 0.001 ms per step, "
                    "0.01 % of the step's 10.49 ms (exposed with overlap: 0.001 ms, nothing copied: the wait for the "
                    "neighbours)."),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("Hidden at swlbm_strong/2048: -"), std::string::npos) << md;
}

// Without the two runs (a build without MPI, or no mpirun) the section is left out.
TEST(ScalingSection, LeftOutWithoutBothRuns) {
  const fs::path dir = fresh_dir("immerse_scaling_section_missing");
  write_run(dir / "scaling_threads.1.json", 1, 2, {{"lbm3d_strong/128", 150e6, 150e6, 0, 0}});
  EXPECT_EQ(section_from(dir), "");
  fs::remove_all(dir);
}

// A run with repetitions: each row is its median aggregate, not a repetition and not the mean,
// standard deviation or coefficient of variation that Google Benchmark writes beside it.
TEST(ScalingSection, RepeatedRowsTakeTheirMedian) {
  const fs::path dir = fresh_dir("immerse_scaling_section_repeated");
  write_run(dir / "scaling_threads.1.json", 1, 2, {{"lbm3d_strong/128", 300e6, 0, 0, 0}});
  const std::string name = "lbm3d_strong/128/ranks:2/threads:1/iterations:10/manual_time";
  json out = {{"context", json::object()}, {"benchmarks", json::array()}};
  auto row = [&](const std::string& suffix, const char* type, const char* aggregate, double rate) {
    json b = {{"name", name + suffix},
              {"run_type", type},
              {"lattice_updates_per_s", rate},
              {"halo_ms_per_step", 0.4},
              {"halo_bytes_per_step", 655360},
              {"ranks", 2},
              {"threads", 1}};
    if (*aggregate) b["aggregate_name"] = aggregate;
    out["benchmarks"].push_back(b);
  };
  for (double rate : {175e6, 270e6, 303e6}) row("", "iteration", "", rate);
  row("_mean", "aggregate", "mean", 249e6);
  row("_median", "aggregate", "median", 270e6);
  row("_stddev", "aggregate", "stddev", 66e6);
  row("_cv", "aggregate", "cv", 0.27);
  std::ofstream(dir / "scaling_ranks.1.json") << out.dump();
  const std::string md = section_from(dir);
  EXPECT_NE(md.find("| lbm3d_strong/128 | 300 | 270 | 0.90 | 0.400 | 655 |"), std::string::npos) << md;
  fs::remove_all(dir);
}

// Rounds that alternate the two arrangements while the machine drifts: each figure is the median
// over the rounds, the ratio the median of each round's own ratio (285/300, 150/150, 220/200:
// 1.00), not the ratio of the medians (220/200: 1.10).
TEST(ScalingSection, RoundsTakeTheirMediansAndPairTheirRatios) {
  const fs::path dir = fresh_dir("immerse_scaling_section_rounds");
  const double threads[3] = {300e6, 150e6, 200e6}, ranks[3] = {285e6, 150e6, 220e6}, halo[3] = {0.4, 0.9, 0.3};
  for (int r = 0; r < 3; ++r) {
    const std::vector<Row> rows = {{"lbm3d_strong/128", threads[r], ranks[r], halo[r], 655360}};
    write_run(dir / ("scaling_threads." + std::to_string(r + 1) + ".json"), 1, 2, rows);
    write_run(dir / ("scaling_ranks." + std::to_string(r + 1) + ".json"), 2, 1, rows);
  }
  const std::string md = section_from(dir);
  EXPECT_NE(md.find("| lbm3d_strong/128 | 200 | 220 | 1.00 | 0.400 | 655 |"), std::string::npos) << md;
  EXPECT_NE(md.find("in 3 rounds of the report run"), std::string::npos) << md;
  fs::remove_all(dir);
}

// Each run's machine/before and machine/after rows: the range over the rounds, and the rounds whose
// rates moved by more than 20 % across their two runs (round 2: the cores at 300 in the 2-rank run,
// 440 in the 1-rank run: 47 % apart; round 1's bandwidth 100-115: 15 %, not flagged).
TEST(ScalingSection, TheMachineOfEachRoundAndTheRoundsWhereItMoved) {
  const fs::path dir = fresh_dir("immerse_scaling_section_machine");
  const std::vector<Row> rows = {{"lbm3d_strong/128", 300e6, 285e6, 0.4, 655360}};
  // {in-place GB/s, cores GFLOP/s} before and after, per round, for the threads and the ranks run.
  const double machine[2][2][2][2] = {{{{100, 440}, {110, 438}}, {{115, 441}, {105, 436}}},
                                      {{{100, 440}, {101, 439}}, {{99, 300}, {100, 305}}}};
  for (int r = 0; r < 2; ++r)
    for (int a = 0; a < 2; ++a) {
      const fs::path file = dir / ((a == 0 ? "scaling_threads." : "scaling_ranks.") + std::to_string(r + 1) + ".json");
      write_run(file, a == 0 ? 1 : 2, a == 0 ? 2 : 1, rows);
      std::ifstream in(file);
      json out = json::parse(in);
      in.close();
      for (int w = 0; w < 2; ++w) {
        json row = {{"name", std::string("machine/") + (w == 0 ? "before" : "after") +
                                 (a == 0 ? "/ranks:1/threads:2" : "/ranks:2/threads:1") + "/iterations:1"},
                    {"inplace_GBps", machine[r][a][w][0]},
                    {"core_GFLOPs", machine[r][a][w][1]}};
        if (a == 1) row["shared_huge_pages"] = 0.25;  // only ranks of one node measure their shared memory
        out["benchmarks"].push_back(row);
      }
      std::ofstream(file) << out.dump();
    }
  const std::string md = section_from(dir);
  EXPECT_NE(md.find("| lbm3d_strong/128 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| machine"), std::string::npos) << md;  // not a row of the table
  EXPECT_NE(md.find("in-place 99-115 GB/s, cores 300-441 GFLOP/s."), std::string::npos) << md;
  EXPECT_NE(
      md.find("more than 20 % across the round's two runs: round 2 (in-place 99-101 GB/s, cores 300-440 GFLOP/s)"),
      std::string::npos)
      << md;
  EXPECT_EQ(md.find("round 1 ("), std::string::npos) << md;
  EXPECT_NE(md.find("The ranks' shared memory (where the shared lattices lie) held 25 % of a probe in 2 MiB pages"),
            std::string::npos)
      << md;
  fs::remove_all(dir);
}

// Without machine rows (an older scaling_lattices) the section says nothing of the machine.
TEST(ScalingSection, NoMachineNoteWithoutMachineRows) {
  const std::vector<Row> rows = {{"lbm3d_strong/128", 300e6, 285e6, 0.4, 655360}};
  const std::string md = one_round_section(fresh_dir("immerse_scaling_section_no_machine"), rows);
  EXPECT_NE(md.find("| lbm3d_strong/128 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("The machine in these rounds"), std::string::npos) << md;
  EXPECT_EQ(md.find("shared memory"), std::string::npos) << md;
}

// A rate whose bytes (121 per D3Q15 cell, 92 per shallow-water cell) exceed 1.1x the machine's
// in-place bandwidth is marked as coming from the caches; a weak row marked in one arrangement only
// gets the sentence that its ratio compares the caches with the memory. Machine rows at 60 GB/s:
// 737 M x 121 B = 89 GB/s (marked), 500 M x 121 B = 60.5 GB/s and 307 M x 92 B = 28 GB/s (not).
TEST(ScalingSection, RatesAboveTheInPlaceBandwidthAreMarkedCacheResident) {
  const fs::path dir = fresh_dir("immerse_scaling_section_cache");
  const std::vector<Row> rows = {{"lbm3d_weak/128", 737e6, 500e6, 0.02, 0},
                                 {"swlbm_strong/2048", 307e6, 340e6, 0.02, 0}};
  for (int a = 0; a < 2; ++a) {
    const fs::path file = dir / (a == 0 ? "scaling_threads.1.json" : "scaling_ranks.1.json");
    write_run(file, a == 0 ? 1 : 2, a == 0 ? 2 : 1, rows);
    std::ifstream in(file);
    json out = json::parse(in);
    in.close();
    for (const char* when : {"before", "after"})
      out["benchmarks"].push_back(
          {{"name",
            std::string("machine/") + when + (a == 0 ? "/ranks:1/threads:2" : "/ranks:2/threads:1") + "/iterations:1"},
           {"inplace_GBps", 60.0},
           {"core_GFLOPs", 250.0}});
    std::ofstream(file) << out.dump();
  }
  const std::string md = section_from(dir);
  EXPECT_NE(md.find("| lbm3d_weak/128 | 737 (cache) | 500 | 0.68 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| swlbm_strong/2048 | 307 | 340 | 1.11 |"), std::string::npos) << md;
  EXPECT_NE(md.find("exceed 1.1x the machine's in-place bandwidth (60 GB/s"), std::string::npos) << md;
  EXPECT_NE(md.find("its ratio compares the caches with the memory"), std::string::npos) << md;
  fs::remove_all(dir);
}

// The weak-scaling model on a split worked out by hand: 64 ranks of 16^3 cells, 8 per node. The
// solver splits the 16^3 cube 8 x 8 (fewest cut faces) and lays each node's ranks on a 4 x 2 tile
// of blocks (lbm3d::rank_layout: 192 cells of tile faces toward other nodes, a row of 8: 256). A
// plane is 5 populations x 16 (x) x 18 (the other axis with its two ghost layers) x 4 bytes = 5760
// B. y: the tile's two rows leave the node at both ends, 4 planes = 23040 B at 1e9 B/s, + 1 us =
// 24.04 us (a middle rank's 2 planes to its node: 1.152 us); z: its 4 columns leave at both ends,
// 8 planes = 46080 B, + 1 us = 47.08 us. Update 4096 cells at 81.92 M/s = 50 us. Blocking
// 100 / (100 + 2 x 71.12) = 0.4128; hidden 50 / 71.12 = 0.7030.
TEST(ScalingSection, WeakScalingModelCountsTheBytesThatLeaveANode) {
  immerse::reports::ScalingMachine m{"test", 81.92e6, 8, 1e10, 1e9, 1e-6};
  const auto w = immerse::reports::project_weak_scaling(m, 64, 16);
  EXPECT_EQ(w.dims[1], 8);
  EXPECT_EQ(w.dims[2], 8);
  EXPECT_EQ(w.tile, (std::array<int, 2>{4, 2}));
  EXPECT_DOUBLE_EQ(w.node_bytes, 12 * 5760.0);
  EXPECT_DOUBLE_EQ(w.rank_bytes, 4 * 5760.0);
  EXPECT_NEAR(w.halo_s, 71.12e-6, 1e-12);
  EXPECT_NEAR(w.update_s, 50e-6, 1e-12);
  EXPECT_NEAR(w.blocking, 100 / (100 + 2 * 71.12), 1e-9);
  EXPECT_NEAR(w.hidden, 50 / 71.12, 1e-9);
  // One node: nothing leaves it; an exchange shorter than an update is hidden whole.
  const auto one = immerse::reports::project_weak_scaling(m, 8, 16);
  EXPECT_EQ(one.node_bytes, 0.0);
  EXPECT_DOUBLE_EQ(one.hidden, 1.0);
  // Half the bytes per population (fp16s), half the network time.
  const auto half = immerse::reports::project_weak_scaling(m, 64, 16, 2);
  EXPECT_DOUBLE_EQ(half.node_bytes, w.node_bytes / 2);
}

// A stand-in for scaling_lattices: lists its rows, and writes those the filter selects to the
// JSON file named, logging which arrangement ran which filter (the stand-in for mpirun sets
// FAKE_RANKS).
constexpr const char* kFakeProgram = R"(#!/bin/bash
rows="machine/before lbm3d_weak/64 lbm3d_strong/64 lbm3d_weak/128 swlbm_weak/1024 machine/after"
for a; do
  case $a in
    --benchmark_list_tests=true) for r in $rows; do echo "$r/ranks:1/threads:2/iterations:1"; done; exit 0;;
    --benchmark_filter=*) f=${a#*=};;
    --benchmark_out=*) o=${a#*=};;
  esac
done
echo "${FAKE_RANKS:-threads} $f" >> "$(dirname "$o")/calls.log"
{ echo '{"context":{},"benchmarks":['; sep=
  for r in $rows; do
    echo "$r/" | grep -Eq "$f" && { echo "$sep{\"name\":\"$r/ranks:1/threads:2/iterations:1\",\"x\":1}"; sep=,; }
  done; echo ']}'; } > "$o"
)";
constexpr const char* kFakeMpirun = R"(#!/bin/bash
shift 6  # -np N --bind-to core -x OMP_NUM_THREADS=1
FAKE_RANKS=ranks exec "$@"
)";

void write_script(const fs::path& file, const char* text) {
  std::ofstream(file) << text;
  fs::permissions(file, fs::perms::owner_all);
}

// Each lattice and size runs in both arrangements back to back, which goes first in turn; each
// round's two files hold every row once, in the program's order.
TEST(ScalingSection, EachRoundRunsEachGroupInBothArrangementsBackToBack) {
  const fs::path dir = fresh_dir("immerse_scaling_rounds"), bin = dir / "bin", out = dir / "report";
  fs::create_directories(bin);
  fs::create_directories(out);
  write_script(bin / "scaling_lattices", kFakeProgram);
  write_script(bin / "mpirun", kFakeMpirun);
  const std::string path = std::getenv("PATH");
  setenv("PATH", (bin.string() + ":" + path).c_str(), 1);
  immerse::reports::run_scaling_benchmark(bin, out.string());
  setenv("PATH", path.c_str(), 1);

  std::ifstream log(out / "calls.log");
  std::vector<std::string> calls;
  for (std::string line; std::getline(log, line);) calls.push_back(line);
  const std::string g64 = "^(machine/before/|lbm3d_[a-z_]+/64/)", g128 = "^(lbm3d_[a-z_]+/128/)",
                    g1024 = "^(swlbm_[a-z_]+/1024/|machine/after/)";
  const std::vector<std::string> round = {"threads " + g64,  "ranks " + g64,     "ranks " + g128,
                                          "threads " + g128, "threads " + g1024, "ranks " + g1024};
  ASSERT_EQ(calls.size(), 5 * round.size());
  for (std::size_t i = 0; i < round.size(); ++i) EXPECT_EQ(calls[i], round[i]) << i;
  EXPECT_EQ(calls[6], "ranks " + g64);  // the next round goes on alternating
  for (int r = 1; r <= 5; ++r)
    for (const char* arrangement : {"threads", "ranks"}) {
      std::ifstream in(out / ("scaling_" + std::string(arrangement) + "." + std::to_string(r) + ".json"));
      const json run = json::parse(in, nullptr, false);
      ASSERT_FALSE(run.is_discarded()) << arrangement << " round " << r;
      std::string names;
      for (const auto& row : run["benchmarks"]) {
        const std::string name = row["name"];
        names += name.substr(0, name.find("/ranks")) + " ";
      }
      EXPECT_EQ(names, "machine/before lbm3d_weak/64 lbm3d_strong/64 lbm3d_weak/128 swlbm_weak/1024 machine/after ");
    }
  for (const auto& entry : fs::directory_iterator(out))
    EXPECT_EQ(entry.path().string().find(".part"), std::string::npos) << entry.path();  // parts merged
}
