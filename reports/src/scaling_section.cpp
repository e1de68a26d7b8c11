// The lattices over MPI ranks on this machine: scaling_lattices (benchmarks/scaling_lattices.cpp) run as
// one rank with T threads and as T ranks with one thread each, T the hardware threads, and the two
// side by side (docs/mpi.md). Left out without an MPI build or an MPI launcher.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>
#include <vector>

#include "immerse/core/median.hpp"
#include "immerse/reports/benchmark_table.hpp"
#include "immerse/reports/report.hpp"
#include "immerse/reports/weak_scaling_model.hpp"
#include "unbound_command.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

// The two arrangements, 1 rank x T threads and T ranks x 1 thread, run in rounds, each row once
// per round, into scaling_<arrangement>.<round>.json. On a 2-core VM the same row scatters by up to
// 1.7x within a minute, in phases of some ten seconds: so a round runs the rows one group at a time
// (a lattice and size, row_groups), each group in both arrangements back to back, which of the two
// first in turn. Each figure is the median over the rounds, and the ratio of the two arrangements
// the median of each round's ratio, whose two runs are a group's run apart.
constexpr int kRounds = 5;
constexpr const char* kThreads = "threads";
constexpr const char* kRanks = "ranks";
std::string round_file(const char* arrangement, int round) {
  return fmt::format("scaling_{}.{}.json", arrangement, round);
}

// Row "lbm3d_strong/128/ranks:2/threads:1/..." -> key "lbm3d_strong/128", with its counters (and
// the same for the swlbm_ rows and the machine rows, "machine/before" and "machine/after"): the
// median of its repetitions where the file has them (written after the repetitions, so it replaces
// them), else its one run.
std::map<std::string, json> rows_of(const fs::path& file) {
  std::map<std::string, json> rows;
  std::ifstream in(file);
  if (!in) return rows;
  const json out = json::parse(in, nullptr, false);
  if (out.is_discarded() || !out.contains("benchmarks")) return rows;
  const std::regex name(R"(^((lbm3d|swlbm)_\w+/\d+|machine/(before|after))/ranks:\d+/threads:\d+)");
  for (const auto& b : out["benchmarks"]) {
    std::smatch m;
    const std::string n = b.value("name", "");
    if (b.value("run_type", "") == "aggregate" && b.value("aggregate_name", "") != "median") continue;
    if (std::regex_search(n, m, name)) rows[m[1]] = b;
  }
  return rows;
}

// The rows of each round of one arrangement found in `dir`, in round order.
using Rounds = std::vector<std::map<std::string, json>>;
Rounds rounds_of(const fs::path& dir, const char* arrangement) {
  Rounds rounds;
  for (int r = 1;; ++r) {
    auto rows = rows_of(dir / round_file(arrangement, r));
    if (rows.empty()) return rounds;
    rounds.push_back(std::move(rows));
  }
}

// Each key's row with every numeric counter the median over the rounds that ran it.
std::map<std::string, json> median_over_rounds(const Rounds& rounds) {
  std::map<std::string, std::vector<const json*>> runs;
  for (const auto& round : rounds)
    for (const auto& [key, row] : round) runs[key].push_back(&row);
  std::map<std::string, json> out;
  for (const auto& [key, rows] : runs) {
    json m = *rows.front();
    for (auto& [name, value] : m.items()) {
      if (!value.is_number()) continue;
      std::vector<double> v;
      for (const json* r : rows)
        if (r->contains(name) && (*r)[name].is_number()) v.push_back((*r)[name].get<double>());
      value = median(v, NAN);
    }
    out[key] = m;
  }
  return out;
}

double counter(const json& row, const char* key) { return row.contains(key) ? row[key].get<double>() : NAN; }

// The machine's rates in the machine rows of `rows` (one run of an arrangement) added to `inplace`
// (GB/s) and `cores` (GFLOP/s).
void add_machine_rates(const std::map<std::string, json>& rows, std::vector<double>& inplace,
                       std::vector<double>& cores) {
  for (const char* key : {"machine/before", "machine/after"}) {
    const auto it = rows.find(key);
    if (it == rows.end()) continue;
    if (it->second.contains("inplace_GBps")) inplace.push_back(counter(it->second, "inplace_GBps"));
    if (it->second.contains("core_GFLOPs")) cores.push_back(counter(it->second, "core_GFLOPs"));
  }
}

// "a-b unit": the lowest and highest of `v`.
std::string range_of(const std::vector<double>& v, const char* unit) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return fmt::format("{:.0f}-{:.0f} {}", *lo, *hi, unit);
}

// Whether the highest of `v` exceeds its lowest by more than the drift limit.
bool moved(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi > (1 + kMachineDriftLimit) * *lo;
}

// Bytes one step moves per cell of a row's lattice (STREAM convention, as bench_lbm3d and bench_swlbm
// count them; both lattices FP32): D3Q15, 15 populations read and written and the cell's group byte;
// shallow water, 9 populations read and written, the force read, h, u and v written.
double bytes_per_cell(const std::string& row) { return row.rfind("lbm3d", 0) == 0 ? 121 : 92; }

// The median in-place bandwidth (GB/s) of every machine row of the rounds; NaN without any.
double machine_inplace(const Rounds& threads, const Rounds& ranks, std::size_t rounds) {
  std::vector<double> inplace, cores;
  for (std::size_t r = 0; r < rounds; ++r)
    add_machine_rates(threads[r], inplace, cores), add_machine_rates(ranks[r], inplace, cores);
  return median(inplace, NAN);
}

// The machine during the rounds: each round's rates before and after both arrangements' runs (the
// machine rows of `threads` and `ranks`, round by round), and the rounds in which they moved by more
// than the drift limit (their ratio compares the two arrangements on different machines). "" where
// the rounds hold no machine rows.
std::string machine_note(const Rounds& threads, const Rounds& ranks, std::size_t rounds) {
  std::vector<double> all_inplace, all_cores;
  std::string which;
  for (std::size_t r = 0; r < rounds; ++r) {
    std::vector<double> inplace, cores;
    add_machine_rates(threads[r], inplace, cores);
    add_machine_rates(ranks[r], inplace, cores);
    if (inplace.empty() || cores.empty()) continue;
    if (moved(inplace) || moved(cores))
      which += fmt::format("{}round {} (in-place {}, cores {})", which.empty() ? "" : "; ", r + 1,
                           range_of(inplace, "GB/s"), range_of(cores, "GFLOP/s"));
    all_inplace.insert(all_inplace.end(), inplace.begin(), inplace.end());
    all_cores.insert(all_cores.end(), cores.begin(), cores.end());
  }
  if (all_inplace.empty()) return "";
  return fmt::format(
      "The machine in these rounds (`machine/before` and `machine/after` of every run: all ranks sweep the in-place "
      "bandwidth test's array and run the cores' multiply-add kernel at once, their rates added, so both "
      "arrangements measure the whole machine): in-place {}, cores {}. Rounds in which either moved by more than "
      "{:.0f} % across the round's two runs: {}.\n\n",
      range_of(all_inplace, "GB/s"), range_of(all_cores, "GFLOP/s"), 100 * kMachineDriftLimit,
      which.empty() ? std::string("none")
                    : which +
                          ". A ratio from such a round compares the arrangements on a machine that changed "
                          "under them");
}

// The model's rows (weak_scaling_model.hpp) for `m` at each rank count, `block`^3 cells per rank.
std::string model_rows(const ScalingMachine& m, int block) {
  std::string md;
  for (int ranks : {8, 64, 1024}) {
    const WeakScalingPoint w = project_weak_scaling(m, ranks, block);
    md += fmt::format("| {} | {} | {}x{} | {}x{} | {}^3 | {:.1f} | {:.1f} | {:.3f} | {:.3f} | {:.0f} % | {:.0f} % |\n",
                      m.name, ranks, w.dims[1], w.dims[2], w.tile[0], w.tile[1], block, w.rank_bytes / 1e6,
                      w.node_bytes / 1e6, 1e3 * w.update_s, 1e3 * w.halo_s, 100 * w.blocking, 100 * w.hidden);
  }
  return md;
}

// The row groups of `program` as benchmark filters, in its order: one per lattice and size
// ("lbm3d_*/128"), the machine rows with the first group (before) and the last (after). Empty where
// the program does not list them.
std::vector<std::string> row_groups(const fs::path& program, const fs::path& out) {
  const fs::path list = out / "scaling_rows.txt";
  const int status =
      run_unbound(fmt::format("KOKKOS_DISABLE_WARNINGS=1 '{}' --benchmark_list_tests=true > '{}' 2> /dev/null",
                              program.string(), list.string()));
  std::vector<std::string> groups;
  std::ifstream in(list);
  const std::regex row(R"(^(lbm3d|swlbm)_\w+/(\d+)/)");
  for (std::string line; status == 0 && std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    const std::string group = fmt::format("{}_[a-z_]+/{}/", m[1].str(), m[2].str());
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
  }
  in.close();
  fs::remove(list);
  if (groups.empty()) return groups;
  groups.front() = "machine/before/|" + groups.front();
  groups.back() += "|machine/after/";
  for (auto& g : groups) g = "^(" + g + ")";
  return groups;
}

// The runs `parts` (Google Benchmark JSON) as one run written to `to`, their rows in order; the
// parts are removed. False where one cannot be read.
bool merge_runs(const std::vector<fs::path>& parts, const fs::path& to) {
  json all;
  for (const fs::path& part : parts) {
    std::ifstream in(part);
    json run = json::parse(in, nullptr, false);
    if (run.is_discarded() || !run.contains("benchmarks")) return false;
    if (all.is_null())
      all = std::move(run);
    else
      for (auto& row : run["benchmarks"]) all["benchmarks"].push_back(std::move(row));
    in.close();
    fs::remove(part);
  }
  std::ofstream(to) << all.dump(1) << "\n";
  return true;
}

}  // namespace

void run_scaling_benchmark(const fs::path& bench_dir, const std::string& report_dir) {
  const fs::path program = bench_dir / "scaling_lattices";
  if (!fs::exists(program)) return;  // a build without MPI
  if (run_unbound("command -v mpirun > /dev/null 2>&1") != 0) {
    fmt::print(stderr, "report: no mpirun on this machine; the scaling section is left out\n");
    return;
  }
  const unsigned t = std::max(1u, std::thread::hardware_concurrency());
  const fs::path out = fs::absolute(report_dir);
  for (int r = 1; fs::exists(out / round_file(kThreads, r)) || fs::exists(out / round_file(kRanks, r)); ++r)
    fs::remove(out / round_file(kThreads, r)), fs::remove(out / round_file(kRanks, r));  // an earlier report's
  const std::vector<std::string> groups = row_groups(program, out);
  if (groups.empty()) {
    fmt::print(stderr, "report: scaling_lattices listed no rows; the scaling section is left out\n");
    return;
  }
  int runs = 0;
  for (int r = 1; r <= kRounds; ++r) {
    std::vector<fs::path> threads_parts, ranks_parts;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const fs::path threads_part = out / fmt::format("scaling_threads.{}.part{}.json", r, g),
                     ranks_part = out / fmt::format("scaling_ranks.{}.part{}.json", r, g);
      const std::string rows = fmt::format("--benchmark_filter='{}'", groups[g]);
      const std::string threads =
          fmt::format("OMP_NUM_THREADS={} '{}' {} --benchmark_out='{}' --benchmark_out_format=json >&2", t,
                      program.string(), rows, threads_part.string());
      // Open MPI refuses root without the two variables; one thread per rank, each bound to a core.
      const std::string ranks = fmt::format(
          "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KOKKOS_DISABLE_WARNINGS=1 mpirun -np {} "
          "--bind-to core -x OMP_NUM_THREADS=1 '{}' {} --benchmark_out='{}' --benchmark_out_format=json >&2",
          t, program.string(), rows, ranks_part.string());
      threads_parts.push_back(threads_part);
      ranks_parts.push_back(ranks_part);
      const bool threads_first = runs++ % 2 == 0;
      for (const auto* cmd : {threads_first ? &threads : &ranks, threads_first ? &ranks : &threads}) {
        fmt::print(stderr, "report: scaling round {} of {}, rows {} of {}: running {}\n", r, kRounds, g + 1,
                   groups.size(), *cmd);
        if (run_unbound(*cmd) != 0) {
          fmt::print(stderr, "report: the scaling benchmark failed; its table is left out\n");
          return;
        }
      }
    }
    if (!merge_runs(threads_parts, out / round_file(kThreads, r)) ||
        !merge_runs(ranks_parts, out / round_file(kRanks, r))) {
      fmt::print(stderr, "report: a scaling run wrote no readable JSON; the scaling table is left out\n");
      return;
    }
  }
}

std::string scaling_section(const ReportContext& ctx) {
  const Rounds threads_rounds = rounds_of(ctx.dir, kThreads), ranks_rounds = rounds_of(ctx.dir, kRanks);
  const auto by_threads = median_over_rounds(threads_rounds), by_ranks = median_over_rounds(ranks_rounds);
  if (by_threads.empty() || by_ranks.empty()) return "";
  const std::size_t rounds = std::min(threads_rounds.size(), ranks_rounds.size());
  const auto any = by_ranks.begin()->second;
  const int ranks = static_cast<int>(counter(any, "ranks")),
            threads = static_cast<int>(counter(by_threads.begin()->second, "threads"));
  std::string md = fmt::format(
      "## Scaling over MPI ranks (D3Q15 and shallow-water lattices)\n\n"
      "`scaling_lattices` (docs/mpi.md): the AA step of a periodic FP32 D3Q15 lattice (`lbm3d_`) and the step of a "
      "periodic FP32 shallow-water lattice (`swlbm_`), as 1 rank x {} threads and as {} ranks x 1 thread (`mpirun "
      "--bind-to core`), in {} rounds of the report run; a round runs each lattice and size's rows in both "
      "arrangements back to back (which goes first in turn), each figure is the median over the rounds and the ratio "
      "the median of each round's ratio. `strong/N`: one N^3 (N^2) "
      "lattice, split along y and z (into rows); "
      "`weak/N`: an N^3 (N^2) block per rank, so the {}-rank lattice is {} times larger; `strong_blocking/N`: "
      "`strong/N` with the exchange before and after the whole update, where the other rows run it beside the "
      "update of the cells that read no ghost layer. On one node the ranks share the lattice (D3Q15: split along "
      "z; shallow water: rows) and update it where it lies: nothing is copied, and their exchange is the wait for "
      "the neighbours' word that a step is done; the `strong_messages` rows split the lattice into blocks with "
      "ghost layers and messages, as between nodes. Halo: the slowest rank's exchange phase (packing, starting, "
      "the wait for its neighbour, unpacking: with overlap, what the update did not hide) and the bytes one rank "
      "sends per step. The goal for strong scaling is {} ranks within 5 % of 1 rank x {} threads.\n\n"
      "| row | 1 x {} MLUPS | {} x 1 MLUPS | ratio | halo ms/step | halo kB/step |\n|---|---|---|---|---|---|\n",
      threads, ranks, rounds, ranks, ranks, ranks, threads, threads, ranks);
  // A rate whose bytes exceed the machine's in-place bandwidth came from the caches: marked.
  const double inplace = machine_inplace(threads_rounds, ranks_rounds, rounds);
  bool any_cached = false, weak_split = false;
  for (const auto& [key, row] : by_ranks) {
    if (key.rfind("lbm3d_exchange", 0) == 0 || key.rfind("machine/", 0) == 0) continue;  // said below the table
    const auto t = by_threads.find(key);
    const double a = t == by_threads.end() ? NAN : counter(t->second, "lattice_updates_per_s") / 1e6;
    const double b = counter(row, "lattice_updates_per_s") / 1e6;
    auto cached = [&](double mlups) { return mlups * bytes_per_cell(key) / 1e3 > kCacheResident * inplace; };
    any_cached = any_cached || cached(a) || cached(b);
    weak_split = weak_split || (key.find("_weak") != std::string::npos && cached(a) != cached(b));
    auto rate = [&](double mlups) { return fmt::format("{:.0f}{}", mlups, cached(mlups) ? " (cache)" : ""); };
    std::vector<double> ratios;  // per round that ran the row both ways
    for (std::size_t r = 0; r < rounds; ++r) {
      const auto x = threads_rounds[r].find(key), y = ranks_rounds[r].find(key);
      if (x != threads_rounds[r].end() && y != ranks_rounds[r].end())
        ratios.push_back(counter(y->second, "lattice_updates_per_s") / counter(x->second, "lattice_updates_per_s"));
    }
    md += fmt::format("| {} | {} | {} | {:.2f} | {:.3f} | {:.0f} |\n", key, rate(a), rate(b), median(ratios, NAN),
                      counter(row, "halo_ms_per_step"), counter(row, "halo_bytes_per_step") / 1e3);
  }
  if (any_cached)
    md += fmt::format(
        "\n(cache): at that rate the step's bytes ({:.0f} per D3Q15 cell, {:.0f} per shallow-water cell) exceed "
        "{:.1f}x the machine's in-place bandwidth ({:.0f} GB/s, the median of its rows below): the lattice sat in "
        "the caches.{}\n",
        bytes_per_cell("lbm3d"), bytes_per_cell("swlbm"), kCacheResident, inplace,
        weak_split ? " Where a weak row is marked in one arrangement only, its 1-rank lattice fit the caches and the "
                     "larger lattice of several ranks did not: its ratio compares the caches with the memory, not the "
                     "two arrangements."
                   : "");
  md += "\n" + machine_note(threads_rounds, ranks_rounds, rounds);
  const auto pages = by_ranks.find("machine/before");
  if (pages != by_ranks.end() && pages->second.contains("shared_huge_pages"))
    md += fmt::format(
        "The ranks' shared memory (where the shared lattices lie) held {:.0f} % of a probe in 2 MiB pages "
        "(`shared_huge_pages`; 0 %: 4 KiB pages, where the kernel makes no huge pages of shared memory: Linux before "
        "6.1, or none free; docs/mpi.md). The `swlbm_strong` and `swlbm_weak` rows share the rows whatever their "
        "pages; by itself the "
        "solver shares them only in 2 MiB pages and otherwise runs the `swlbm_strong_messages` form.\n\n",
        100 * counter(pages->second, "shared_huge_pages"));
  // What the overlap hides: the exposed exchange against the blocking one, per lattice and form,
  // and what is left of it against the step (N^3 or N^2 cells at the row's rate).
  for (const char* size :
       {"lbm3d_strong/128", "lbm3d_strong_messages/128", "swlbm_strong/2048", "swlbm_strong_messages/2048"}) {
    const std::string name(size), slash = name.substr(name.find('/'));
    const std::string blocking_name = name.substr(0, name.size() - slash.size()) + "_blocking" + slash;
    const auto with = by_ranks.find(name), without = by_ranks.find(blocking_name);
    if (with == by_ranks.end() || without == by_ranks.end()) continue;
    const double exposed = counter(with->second, "halo_ms_per_step"),
                 whole = counter(without->second, "halo_ms_per_step");
    // Ranks sharing the lattice send nothing: their exchange is the wait for the neighbours.
    const char* const wait_only =
        counter(with->second, "halo_bytes_per_step") == 0 ? ", nothing copied: the wait for the neighbours" : "";
    const double n = std::stod(slash.substr(1)), cells = name.rfind("lbm3d", 0) == 0 ? n * n * n : n * n;
    const double step_ms = 1e3 * cells / counter(with->second, "lattice_updates_per_s");
    // A blocking exchange under a thousandth of the step is far inside the step time's scatter
    // from round to round: a share of it hidden says nothing.
    if (whole < 1e-3 * step_ms) {
      md += fmt::format(
          "Hidden at {}: nothing to hide: the blocking exchange takes {:.3f} ms per step, {:.2f} % of the step's "
          "{:.2f} ms (exposed with overlap: {:.3f} ms{}).\n\n",
          name, whole, 100 * whole / step_ms, step_ms, exposed, wait_only);
      continue;
    }
    // Rounded first, so an exposed exchange a hair above the blocking one reads 0 %, not -0 %.
    const double hidden_percent = std::round(100 * (1 - exposed / whole)) + 0.0;
    md += fmt::format(
        "Hidden at {}: {:.0f} % of the blocking exchange's {:.3f} ms per step (exposed with overlap: {:.3f} ms{}; the "
        "goal is >= 90 %); the exposed exchange is {:.2f} % of the step's {:.2f} ms.\n\n",
        name, hidden_percent, whole, exposed, wait_only, 100 * exposed / step_ms, step_ms);
  }
  // Bytes a rank sends per second of its halo phase.
  auto halo_speed = [](const json& row) {
    return counter(row, "halo_bytes_per_step") / (1e-3 * counter(row, "halo_ms_per_step"));
  };
  // The exchange alone: what of the exposed exchange is copying that a rank's core does anyway.
  const auto alone = by_ranks.find("lbm3d_exchange/128");
  if (alone != by_ranks.end())
    md += fmt::format(
        "The exchange alone (`lbm3d_exchange/128`: the fill and give-back of the strong split after a barrier, "
        "nothing updated) takes {:.3f} ms per step, {:.2f} GB/s per rank: moving the halo is work for the ranks' "
        "own cores (packing where a plane is not contiguous, and Open MPI's copy of each message, made by the "
        "receiver inside its MPI calls), which overlap interleaves with the update but cannot hide. The blocking "
        "row's exchange adds the wait for the neighbour.\n\n",
        counter(alone->second, "halo_ms_per_step"), halo_speed(alone->second) / 1e9);
  // The model's inputs: this run's rate per rank and halo speed, and stated figures for the rest.
  // The halo speed comes from the exchange row (no neighbour to wait for), else from the blocking
  // row, whose exchange also holds the wait for the neighbour.
  const auto strong = by_ranks.find("lbm3d_strong/128"), blocking = by_ranks.find("lbm3d_strong_blocking/128");
  if (strong == by_ranks.end() || blocking == by_ranks.end()) return md;
  const double rate = counter(strong->second, "lattice_updates_per_s") / ranks;
  const std::string speed_from = alone != by_ranks.end() ? "exchange/128" : "strong_blocking/128";
  const double local_bw = halo_speed(alone != by_ranks.end() ? alone->second : blocking->second);
  // H100 SXM: 3.35 TB/s HBM3 (NVIDIA's data sheet), the AA step at 80 % of it moving 120 B per cell
  // (15 FP32 populations read and written): an assumption until a GPU run measures it.
  const double h100_rate = 0.8 * 3.35e12 / 120;
  const ScalingMachine cpu{"CPU cores", rate, 64, local_bw, 25e9};
  const ScalingMachine gpu{"H100", h100_rate, 8, 450e9, 25e9};
  md += fmt::format(
      "**Past this machine, by model** (weak scaling: a fixed block per rank; a model, not a measurement). The "
      "ranks split the lattice as a run of that many ranks would (the solver's own choice of ranks along y and z, "
      "periodic faces) and fill the nodes in rank order (mpirun's default), each node's ranks a tile of blocks "
      "(`node`: its blocks along y and z; the solver lays them so). Per exchange a rank sends 5 populations "
      "(FP32) of each cell of every plane it has a ghost layer for: to a rank of its node over its own link, to "
      "another node over the node's share of the network, the two axes one after the other, plus 2 us per axis. A "
      "pair of AA steps updates the block twice and exchanges twice: the fill beside the exchange step's interior, "
      "the give-back beside the next step's. Efficiency = 2 updates / (2 updates + 2 exchanges) blocking, update / "
      "max(update, exchange) hidden, which leaves out the copying a rank's own core does (here all of it: above) "
      "and, on GPUs, staging the halo through host memory (the default where MPI is not CUDA-aware: two PCIe "
      "copies per exchange). "
      "Inputs: a CPU rank updates {:.0f} M cells/s and moves halo "
      "bytes at {:.2f} GB/s within a node (this run, {} ranks, {}); 64 CPU ranks per node sharing 25 GB/s between "
      "nodes; an H100 updates {:.0f} M cells/s (assumed: 80 % of its 3.35 TB/s at 120 B per cell, not measured "
      "here), 8 per node, 450 GB/s NVLink each within a node, 25 GB/s per node between nodes. Published anchors, "
      "as quoted in the MPI issue: waLBerla keeps >= 82 % weak-scaling efficiency on 1024 A100s with "
      "communication hiding; FluidX3D, on one node, 50-67 % on 4-8 GPUs.\n\n"
      "| machine | ranks | y x z | node | block | MB a rank sends per exchange | MB leaving the busiest node | "
      "update ms | exchange ms | efficiency, blocking | efficiency, hidden |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n",
      rate / 1e6, local_bw / 1e9, ranks, speed_from, h100_rate / 1e6);
  md += model_rows(cpu, 128);
  md += model_rows(gpu, 256);
  md += model_rows(gpu, 512);
  const WeakScalingPoint g256 = project_weak_scaling(gpu, 1024, 256), g512 = project_weak_scaling(gpu, 1024, 512);
  md += fmt::format(
      "\nThe goal of >= 90 % at >= 256^3 cells per GPU: {:.0f} % (hidden) at 256^3 and {:.0f} % at 512^3 on 1024 "
      "H100s.\n",
      100 * g256.hidden, 100 * g512.hidden);
  return md + "\n";
}

}  // namespace immerse::reports
