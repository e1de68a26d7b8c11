// The lattice over MPI ranks on this machine: scaling_lbm3d (benchmarks/scaling_lbm3d.cpp) run as
// one rank with T threads and as T ranks with one thread each, T the hardware threads, and the two
// side by side (docs/mpi.md). Left out without an MPI build or an MPI launcher.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "immerse/reports/report.hpp"
#include "unbound_command.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

constexpr const char* kThreadsFile = "scaling_threads.json";  // 1 rank x T threads
constexpr const char* kRanksFile = "scaling_ranks.json";      // T ranks x 1 thread

// Row "lbm3d_strong/128/ranks:2/threads:1/..." -> key "lbm3d_strong/128", with its counters.
std::map<std::string, json> rows_of(const fs::path& file) {
  std::map<std::string, json> rows;
  std::ifstream in(file);
  if (!in) return rows;
  const json out = json::parse(in, nullptr, false);
  if (out.is_discarded() || !out.contains("benchmarks")) return rows;
  const std::regex name(R"(^(lbm3d_(weak|strong)/\d+)/ranks:\d+/threads:\d+)");
  for (const auto& b : out["benchmarks"]) {
    std::smatch m;
    const std::string n = b.value("name", "");
    if (std::regex_search(n, m, name)) rows[m[1]] = b;
  }
  return rows;
}

double counter(const json& row, const char* key) { return row.contains(key) ? row[key].get<double>() : NAN; }

}  // namespace

void run_scaling_benchmark(const fs::path& bench_dir, const std::string& report_dir) {
  const fs::path program = bench_dir / "scaling_lbm3d";
  if (!fs::exists(program)) return;  // a build without MPI
  if (run_unbound("command -v mpirun > /dev/null 2>&1") != 0) {
    fmt::print(stderr, "report: no mpirun on this machine; the scaling section is left out\n");
    return;
  }
  const unsigned t = std::max(1u, std::thread::hardware_concurrency());
  const std::string out = fs::absolute(report_dir).string();
  const std::string threads =
      fmt::format("OMP_NUM_THREADS={} '{}' --benchmark_out='{}/{}' --benchmark_out_format=json >&2", t,
                  program.string(), out, kThreadsFile);
  // Open MPI refuses root without the two variables; one thread per rank, each bound to a core.
  const std::string ranks = fmt::format(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KOKKOS_DISABLE_WARNINGS=1 mpirun -np {} --bind-to "
      "core -x OMP_NUM_THREADS=1 '{}' --benchmark_out='{}/{}' --benchmark_out_format=json >&2",
      t, program.string(), out, kRanksFile);
  for (const auto& cmd : {threads, ranks}) {
    fmt::print(stderr, "report: running {}\n", cmd);
    if (run_unbound(cmd) != 0) fmt::print(stderr, "report: the scaling benchmark failed; its table is left out\n");
  }
}

std::string scaling_section(const ReportContext& ctx) {
  const auto by_threads = rows_of(fs::path(ctx.dir) / kThreadsFile), by_ranks = rows_of(fs::path(ctx.dir) / kRanksFile);
  if (by_threads.empty() || by_ranks.empty()) return "";
  const auto any = by_ranks.begin()->second;
  const int ranks = static_cast<int>(counter(any, "ranks")),
            threads = static_cast<int>(counter(by_threads.begin()->second, "threads"));
  std::string md = fmt::format(
      "## Scaling over MPI ranks (D3Q15 lattice)\n\n"
      "`scaling_lbm3d` (docs/mpi.md): the AA step of a periodic FP32 lattice, as 1 rank x {} threads and as {} ranks "
      "x 1 thread (`mpirun --bind-to core`), in the same report run. `strong/N`: one N^3 lattice, split along y and "
      "z; `weak/N`: an N^3 block per rank, so the {}-rank lattice is {} times larger. Halo: the slowest rank's "
      "exchange phase (packing, MPI_Sendrecv, unpacking and the wait for its neighbour) and the bytes one rank sends "
      "per step. The goal for strong scaling is {} ranks within 5 % of 1 rank x {} threads.\n\n"
      "| row | 1 x {} MLUPS | {} x 1 MLUPS | ratio | halo ms/step | halo kB/step |\n|---|---|---|---|---|---|\n",
      threads, ranks, ranks, ranks, ranks, threads, threads, ranks);
  for (const auto& [key, row] : by_ranks) {
    const auto t = by_threads.find(key);
    const double a = t == by_threads.end() ? NAN : counter(t->second, "lattice_updates_per_s") / 1e6;
    const double b = counter(row, "lattice_updates_per_s") / 1e6;
    md += fmt::format("| {} | {:.0f} | {:.0f} | {:.2f} | {:.3f} | {:.0f} |\n", key, a, b, b / a,
                      counter(row, "halo_ms_per_step"), counter(row, "halo_bytes_per_step") / 1e3);
  }
  return md + "\n";
}

}  // namespace immerse::reports
