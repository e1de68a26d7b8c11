// Report section for the jellyfish paper (Alexandrova, Terraz, Ghazanfarpour, GRAPP 2006): the two
// Fig. 6 curves from our run with the paper's ranges drawn on them, the checks, frames/s against the
// paper's, and the lattice kernel's throughput against the STREAM bandwidth roofline.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "immerse/reports/benchmark_table.hpp"
#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

std::string fig6(const ReportContext& ctx, const CaseRun& run) {
  const std::string series = fs::absolute(fs::path(run.dir) / "series.csv").string();
  const bool plotted = run_gnuplot(
      ctx.dir, "jellyfish_fig6.gp",
      fmt::format(
          "set terminal pngcairo size 900,700 noenhanced\nset output 'jellyfish_fig6.png'\nset datafile separator ','\n"
          "set multiplot layout 2,1\nset grid\nset xrange [0:75]\nset xtics 0,8.33\nset format x '%.0f'\n"
          "set title 'Fig. 6(a): propulsion velocity (paper: pulsed, peaks ~1 cm/s, axis 0-1.2)'\n"
          "set ylabel 'velocity, cm/s'\nset yrange [0:1.3]\n"
          "plot '{0}' skip 2 using 1:2 with lines lw 2 title 'immerse jellyfish (2 cm cells)', "
          "1.2 with lines dt 2 lc rgb 'gray' title 'paper axis top 1.2 cm/s', 1.0 with lines dt 3 lc rgb 'red' title "
          "'paper peaks ~1 cm/s'\n"
          "set title 'Fig. 6(b): bell diameter (paper: between ~37 and ~40.5 cm)'\n"
          "set xlabel 'time, s'\nset ylabel 'diameter, cm'\nset yrange [36.5:41]\n"
          "plot '{0}' skip 2 using 1:3 with lines lw 2 title 'immerse jellyfish', "
          "37 with lines dt 2 lc rgb 'red' title 'paper range 37 - 40.5 cm', 40.5 with lines dt 2 lc rgb 'red' "
          "notitle\n"
          "unset multiplot\n",
          series));
  const json& m = run.result["metrics"];
  std::string md = "### Fig. 6: velocity curve and bell diameter (`jellyfish`)\n\n";
  md += fmt::format(
      "80 cm cube of 2 cm cells (40^3), outflow borders, {} frames of 0.04 s ({:.0f} s). One frame = one lattice "
      "step + one body step (deformation, cell groups A/B/C1/C2/C3, propulsion): the paper's unit of work. "
      "Peak velocity {:.3f} cm/s, diameter {:.2f} - {:.2f} cm, pulse period {:.2f} s ({} pulses), mean velocity "
      "{:.3f} cm/s ({:.1f} cm travelled), relative mass drift {:.2e}, lattice viscosity {:.3g} cm^2/s (tau {:g}).\n\n",
      m["frames"].get<long>(), m["time_s"].get<double>(), m["peak_velocity_cm_s"].get<double>(),
      m["min_bell_diameter_cm"].get<double>(), m["max_bell_diameter_cm"].get<double>(),
      m["pulse_period_s"].get<double>(), m["pulses"].get<int>(), m["mean_velocity_cm_s"].get<double>(),
      m["distance_cm"].get<double>(), m["mass_drift_rel"].get<double>(), m["viscosity_cm2_s"].get<double>(),
      m["tau"].get<double>());
  if (plotted) md += "![jellyfish Fig. 6 curves](jellyfish_fig6.png)\n\n";
  md += "| check | ours | paper / reference | tolerance | pass |\n|---|---|---|---|---|\n";
  for (const auto& c : run.checks)
    md += fmt::format("| {} | {:.4g} | {:.4g} | {:.3g} | {} |\n", c.quantity, c.ours, c.reference, c.tolerance,
                      c.pass() ? "yes" : "NO");
  md +=
      "\nThe peak velocity is set by the paper's free propulsion coefficient (0.11 in the case file); the diameter "
      "range by the spring schedule. The velocity follows the contraction speed instantaneously (the paper's model), "
      "so it peaks ~1.6 s before the diameter minimum that ends the 2 s contraction.\n\n";
  return md;
}

// The C3 rule: Ladd's moving bounce-back (the case) beside the paper's fictitious cells (the
// alternative `paper_boundary`), with the wake behind the bell over time.
std::string c3_rule(const ReportContext& ctx) {
  const std::string table = alternatives_markdown(ctx, "jellyfish");
  if (table.empty()) return "";
  std::string md =
      "### The C3 rule: Ladd's moving bounce-back against the paper's fictitious cells\n\n"
      "Water next to the bell (C3) receives from a bell cell either its own population reversed plus the "
      "surface's momentum (Ladd, `bell.boundary = ladd`, the default) or the bell cell's population, C1's "
      "equilibrium at the surface velocity (`paper`, section 3.2: the fictitious cells act on the water and the "
      "water's populations into them are absorbed). The rule as printed adds the two (`paper_literal`): a mass "
      "source at every body link, run as the counterexample `printed_c3_rule`. In plane Couette flow "
      "(tests/lbm3d/test_body_boundary.cpp) Ladd's wall sits half-way between the C1 and C3 centres at every tau, "
      "the paper's tau cells from the C3 centre.\n\n";
  const auto alts = ctx.alternatives.find("jellyfish");
  const auto ref = ctx.runs.find("jellyfish");
  std::string plot = fmt::format("'{}' skip 2 using 1:11 with lines lw 2 title 'ladd (the case)'",
                                 fs::absolute(fs::path(ref->second.dir) / "series.csv").string());
  for (const auto& a : alts->second)
    if (a.run.error.empty())
      plot += fmt::format(", '{}' skip 2 using 1:11 with lines lw 2 title '{}'",
                          fs::absolute(fs::path(a.run.dir) / "series.csv").string(), a.model.name);
  if (run_gnuplot(
          ctx.dir, "jellyfish_c3_wake.gp",
          "set terminal pngcairo size 1000,400 noenhanced\nset output 'jellyfish_c3_wake.png'\nset key outside right\n"
          "set datafile separator ','\nset grid\nset xlabel 'time, s'\n"
          "set ylabel 'backward water speed, cm/s'\n"
          "set title 'Wake: water speed one bell radius behind the margin plane, on the axis'\nplot " +
              plot + "\n"))
    md += "![jellyfish wake per C3 rule](jellyfish_c3_wake.png)\n\n";
  return md + table;
}

// bench_lbm3d's row registered as `name`: Google Benchmark appends "/iterations:N" to a row with a
// fixed count and "/real_time" to one timed by the wall clock.
const json* bench(const ReportContext& ctx, const std::string& name) {
  auto it = ctx.benchmarks.find("bench_lbm3d");
  if (it == ctx.benchmarks.end() || !it->second.contains("benchmarks")) return nullptr;
  for (const auto& b : it->second["benchmarks"]) {
    const std::string run = b.value("run_name", b.value("name", ""));
    if (run == name || run.rfind(name + "/iterations:", 0) == 0 || run == name + "/real_time") return &b;
  }
  return nullptr;
}

// The collide_paired rows (bench_lbm3d): the kernel's targets as ratios taken within rounds that
// time the FP32 and fp16s lattices and the in-place sweep in turn; "" where the program had none.
std::string paired_targets(const json& out) {
  const std::string prefix = "collide_paired/";  // then <backend>/256
  std::string rows, in_cache = "lattice";
  for (const auto& b : out["benchmarks"]) {
    const std::string name = b.value("name", "");
    if (name.rfind(prefix, 0) != 0 || !b.contains("fp32_of_inplace")) continue;
    const std::string backend = name.substr(prefix.size(), name.find('/', prefix.size()) - prefix.size());
    auto c = [&](const char* key) { return b.contains(key) ? b[key].get<double>() : NAN; };
    if (b.contains("in_cache_side")) {  // N x side x side, N the row's size (the part of its name after the backend)
      const std::string size = name.substr(prefix.size() + backend.size() + 1);
      in_cache = fmt::format("{} x {:.0f} x {:.0f} lattice", size.substr(0, size.find('/')), c("in_cache_side"),
                             c("in_cache_side"));
    }
    const std::string core = b.contains("core_GFLOPs") ? fmt::format("{:.0f} ({:.0f}-{:.0f})", c("core_GFLOPs"),
                                                                     c("core_GFLOPs_min"), c("core_GFLOPs_max"))
                                                       : "";
    auto of_cache = [&](const char* key) { return b.contains(key) ? fmt::format("{:.2f}", c(key)) : std::string(); };
    rows += fmt::format(
        "| {} | {:.0f} | {:.1f} | {} | {:.0f} | {:.2f} ({:.2f}-{:.2f}) | {} | {:.0f} | {:.2f} ({:.2f}-{:.2f}) | {} |\n",
        backend, c("rounds"), c("inplace_GBps"), core, c("fp32_MLUPS"), c("fp32_of_inplace"), c("fp32_of_inplace_min"),
        c("fp32_of_inplace_max"), of_cache("fp32_of_in_cache"), c("fp16s_MLUPS"), c("fp16s_over_fp32"),
        c("fp16s_over_fp32_min"), c("fp16s_over_fp32_max"), of_cache("fp16s_of_in_cache"));
  }
  if (rows.empty()) return "";
  return "The kernel's targets at 256^3 (`collide_paired`): the FP32 and fp16s AA steps and the in-place sweep "
         "timed in turn, each ratio within one round, the median over the rounds with the lowest and highest "
         "round in parentheses (single rows of the table above ran up to a minute apart). Targets: FP32 at >= 0.9 "
         "of the in-place bandwidth with every thread (openmp), >= 0.8 on one (serial); fp16s >= 1.4x FP32. "
         "fp16s moves half the bytes but on CPUs its rate is held mostly by its arithmetic (its binary16 "
         "conversions), so its gain over FP32 grows as the bandwidth each core gets shrinks. The \"/ in cache\" "
         "columns put each rate against the same kernel's on a " +
         in_cache +
         " that stays in the caches, "
         "timed in the same rounds: near 1, the cores hold the kernel, not the memory. The cores' "
         "single-precision multiply-add rate of the rounds stands beside them (it catches cores taken by other "
         "work, not every slowdown of a kernel).\n\n"
         "| backend | rounds | in-place GB/s | cores' GFLOP/s | FP32 MLUPS | FP32 x 121 B / in-place | FP32 / in cache "
         "| fp16s MLUPS | fp16s / FP32 | fp16s / in cache |\n|---|---|---|---|---|---|---|---|---|---|\n" +
         rows + "\n";
}

std::string speed(const ReportContext& ctx) {
  std::string md =
      "### Frames per second against the paper\n\n"
      "| case | lattice | paper (Celeron 2.8 GHz) | ours, whole run (`immerse run`) | ours, bench_lbm3d (openmp) | "
      "target |\n"
      "|---|---|---|---|---|---|\n";
  const std::pair<const char*, double> rows[] = {{"jellyfish", 1.1}, {"jellyfish_fine", 0.43}};
  for (const auto& [name, paper] : rows) {
    auto it = ctx.runs.find(name);
    std::string ours = "-", lattice = "-";
    if (it != ctx.runs.end() && it->second.error.empty()) {
      ours = fmt::format("{:.1f}", it->second.result["metrics"]["frames_per_s"].get<double>());
      lattice = fmt::format(
          "{}^3",
          static_cast<long>(std::lround(std::cbrt(it->second.result["metrics"]["lattice_cells"].get<double>()))));
    }
    const json* b = bench(ctx, fmt::format("jellyfish_frame/openmp/{}", std::string(name) == "jellyfish" ? 40 : 80));
    const std::string bs =
        b && b->contains("frames_per_s") ? fmt::format("{:.1f}", (*b)["frames_per_s"].get<double>()) : "-";
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", name, lattice, paper, ours, bs,
                      std::string(name) == "jellyfish" ? ">= 300" : ">= 40");
  }
  md += "\n";
  auto it = ctx.benchmarks.find("bench_lbm3d");
  if (it == ctx.benchmarks.end()) return md;
  md +=
      "### Collide + stream against the bandwidth roofline\n\nBytes per cell: 2 x 15 x sizeof(real) + 1 "
      "(flags). Roofline = the bandwidth of the row's memory pattern on its backend, measured in the same run "
      "(in-place: read an array and write it back; copy: read one, write another; bench_main), / bytes per "
      "cell. collide_stream rows run the default AA pattern (one buffer, in place); rows ending in `pull` the "
      "two-buffer pull pattern, `pull_streaming` the pull pattern with streaming stores (`lattice.pattern`, "
      "`lattice.stores`). The stream15 rows are the ceiling of each memory pattern with the lattice's own "
      "layout: 15 loads and 15 stores per cell and no collision, into a second buffer with ordinary stores "
      "(`pull`: each store first reads its cache line) or streaming stores (`pull_nt`: no read), or where it "
      "read (`in_place`: what the AA pattern moves).\n\n"
      "| kernel | MLUPS | GB/s | pattern | pattern bandwidth GB/s | roofline MLUPS | fraction of the pattern's "
      "bandwidth |\n|---|---|---|---|---|---|---|\n";
  const json& out = it->second;
  for (const auto& b : out["benchmarks"]) {
    std::string name = b.value("name", "");
    if (const auto cut = name.find("/real_time"); cut != std::string::npos) name = name.substr(0, cut);
    const bool ceiling = name.rfind("stream15", 0) == 0;
    if ((name.rfind("collide_stream", 0) != 0 && !ceiling) || !b.contains("bytes_per_second")) continue;
    const double bytes = name.find("fp64") != std::string::npos ? 241 : ceiling ? 120 : 121;
    const double gbs = b["bytes_per_second"].get<double>();
    const std::string pattern = kernel_pattern(b);
    const double bw = pattern_bandwidth(out, b);
    md += fmt::format("| {} | {:.1f} | {:.2f} | {} | {:.2f} | {:.1f} | {:.2f} |\n", name,
                      b["lattice_updates_per_s"].get<double>() / 1e6, gbs / 1e9, pattern, bw / 1e9, bw / bytes / 1e6,
                      bw > 0 ? gbs / bw : 0.0);
  }
  return md + "\n" + paired_targets(out);
}

// benchmarks/compare_rrze.sh's output, which `./immerse.sh report` writes to rrze.txt when
// IMMERSE_RRZE_DIR names a checkout of RRZE's kernels (the suite does not fetch code itself).
std::string rrze(const ReportContext& ctx) {
  std::string md = "### Beside RRZE's lbm-benchmark-kernels\n\n";
  std::ifstream in(fs::path(ctx.dir) / "rrze.txt");
  if (!in) {
    return md +
           "Not run: set `IMMERSE_RRZE_DIR` to a checkout of RRZE-HPC/lbm-benchmark-kernels for "
           "`./immerse.sh report` to time its D3Q19 AA kernels (`aa-vec-sl-soa`, `aa-vec-soa`) beside the FP32 "
           "kernel at 256^3 (`benchmarks/compare_rrze.sh`, about 5 minutes). Target: >= 1.2x their MLUPS.\n\n";
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return md +
         "`benchmarks/compare_rrze.sh` (docs/jellyfish.md): the FP32 kernel at 256^3 and RRZE's D3Q19 AA kernels "
         "(single precision: AVX2 intrinsics) in alternating rounds with every thread. RRZE counts its channel's "
         "fluid nodes and moves 152 B per node; we count every cell and move 120 B. Target: >= 1.2x their "
         "MLUPS.\n\n```\n" +
         text + (text.empty() || text.back() == '\n' ? "" : "\n") + "```\n\n";
}

}  // namespace

std::string jellyfish_section(const ReportContext& ctx) {
  std::string md = "## Jellyfish: D3Q15 lattice Boltzmann with a moving soft body (docs/jellyfish.md)\n\n";
  auto it = ctx.runs.find("jellyfish");
  if (it != ctx.runs.end() && it->second.error.empty()) md += fig6(ctx, it->second) + c3_rule(ctx);
  md += speed(ctx) + rrze(ctx);
  for (const char* name : {"jellyfish_particles", "jellyfish_algae"}) {
    it = ctx.runs.find(name);
    if (it == ctx.runs.end() || !it->second.error.empty()) continue;
    md += fmt::format(
        "`{}` (Figs. 8/9): {} frames; VTK frames (water speed, bell surface, tracers{}) with `--set "
        "output.frames=N`.\n\n",
        name, it->second.result["metrics"]["frames"].get<long>(),
        std::string(name) == "jellyfish_algae" ? ", algae" : "");
  }
  return md;
}

}  // namespace immerse::reports
