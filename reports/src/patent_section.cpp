// Report section for the patent's penalty Navier-Stokes solver (US 5,537,641).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "immerse/cases/case_library.hpp"
#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

std::string table_section(const CaseRun& run) {
  std::string md =
      "### The printed 5x5 table (`channel5x5`)\n\n"
      "Printed: the patent's 'time 1' and 'time 2' blocks. Ours: the same cell-centre averages from "
      "`immerse run channel5x5`. Tolerance 1e-6 + 2e-7 |printed| (6 printed decimals, single-precision "
      "original).\n\n| time | i | j | qty | printed | ours | ours - printed |\n|---|---|---|---|---|---|---|\n";
  std::istringstream in(cases::reference_data("patent_5x5_table.csv"));
  std::string line;
  double worst = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    int t, i, j;
    double ref[3];
    char c;
    std::istringstream row(line);
    row >> t >> c >> i >> c >> j >> c >> ref[0] >> c >> ref[1] >> c >> ref[2];
    if (t == 0) continue;  // all zeros; checked, not worth a table row
    for (const auto& e : run.result["metrics"]["table"]) {
      if (e["t"] != t || e["i"] != i || e["j"] != j) continue;
      const char* q[3] = {"u", "v", "p"};
      for (int k = 0; k < 3; ++k) {
        const double ours = e[q[k]];
        worst = std::max(worst, std::abs(ours - ref[k]));
        md += fmt::format("| {} | {} | {} | {} | {:.6f} | {:.7f} | {:+.2e} |\n", t, i, j, q[k], ref[k], ours,
                          ours - ref[k]);
      }
    }
  }
  md += fmt::format("\nLargest |difference|: {:.2e}.\n\n", worst);
  return md;
}

std::string channel_section(const ReportContext& ctx, const CaseRun& run) {
  const json& m = run.result["metrics"];
  std::ofstream dat(std::filesystem::path(ctx.dir) / "channel_profile.dat");
  dat << "# y u_outlet (channel case, outlet face)\n";
  for (const auto& p : m["outlet_profile"]) dat << p["y"].get<double>() << " " << p["u"].get<double>() << "\n";
  dat.close();
  // The analytic profile as a smooth curve across the whole channel, wall to wall.
  const double H = m["channel_height"], Q = m["outlet_flux"];
  std::ofstream ana(std::filesystem::path(ctx.dir) / "channel_poiseuille.dat");
  ana << "# y u_poiseuille = 6 Q y (H - y) / H^3 (plane Poiseuille flow with the outlet's flux)\n";
  for (int k = 0; k <= 100; ++k) {
    const double y = H * k / 100;
    ana << y << " " << 6 * Q * y * (H - y) / (H * H * H) << "\n";
  }
  ana.close();
  const bool plotted =
      run_gnuplot(ctx.dir, "channel_profile.gp",
                  "set terminal pngcairo size 800,500 noenhanced\nset output 'channel_profile.png'\n"
                  "set xlabel 'u at the outlet / U'\nset ylabel 'y / H'\nset key bottom right\nset grid\n"
                  "set title 'Channel outlet profile vs plane Poiseuille flow'\n"
                  "plot 'channel_poiseuille.dat' using 2:1 with lines lw 2 title 'Poiseuille (analytic, same flux)', "
                  "'channel_profile.dat' using 2:1 with points pt 7 ps 1.2 title 'immerse (penalty scheme)'\n");
  std::string md = "### Channel flow against Poiseuille (`channel`)\n\n";
  md += fmt::format(
      "Steady state at t = {:.3g}; outlet max |u - u_P| / U = {:.3e} (tolerance {:.3e}); "
      "outflow / inflow flux = {:.5f} (the penalty closure's compressibility: div u = -eps p); "
      "steady residual {:.2e}.\n\n",
      m["time"].get<double>(), m["outlet_max_deviation_rel"].get<double>(),
      2 * std::pow(m["grid_h_over_H"].get<double>(), 2), m["flux_ratio_out_in"].get<double>(),
      m["steady_residual"].get<double>());
  if (plotted) md += "![channel outlet profile](channel_profile.png)\n\n";
  return md;
}

std::string river_section(const ReportContext& ctx, const CaseRun& run) {
  const json& m = run.result["metrics"];
  const std::string fields = fs::absolute(fs::path(run.dir) / "final_fields.csv").string();
  const std::string lines = fs::absolute(fs::path(run.dir) / "final_streaklines.csv").string();
  // Height field z = p x scale (the patent's display) above; dyes blended, streaklines and bodies below.
  const bool plotted = run_gnuplot(
      ctx.dir, "river.gp",
      fmt::format("set terminal pngcairo size 1000,620 noenhanced\nset output 'river.png'\nset datafile separator ','\n"
                  "set multiplot layout 2,1\nset size ratio -1\nunset key\nset xrange [0:*]\nset yrange [0:*]\n"
                  "set lmargin at screen 0.06\nset rmargin at screen 0.86\n"
                  "set title 'Height field z = p x scale (t = {0:.3g})'\nset palette defined (0 '#08306b', 0.5 "
                  "'#f7fbff', 1 '#cb181d')\n"
                  "plot '{1}' skip 2 using 1:2:($7 > 0 ? NaN : $6) with image, "
                  "'' skip 2 using 1:2:(150):(150):(150):($7 > 0 ? 255 : 0) with rgbalpha\n"
                  "set title 'Two dyes blended, streaklines (black), posts/island/boat (gray)'\nunset colorbox\n"
                  "plot '{1}' skip 2 using 1:2:($7 > 0 ? 150 : 255*$10):($7 > 0 ? 150 : 255*$11):($7 > 0 ? 150 : "
                  "255*$12) with rgbimage, "
                  "'{2}' skip 2 using 1:2 with points pt 7 ps 0.3 lc rgb 'black'\nunset multiplot\n",
                  run.result["metrics"]["time"].get<double>(), fields, lines));
  std::string md = fmt::format(
      "### River with posts, island and a moving boat (`river`)\n\nVTK frames (height field z = p x scale, velocity, "
      "two dyes and their blended colour, streaklines) in `{}`: open `frames.pvd` in ParaView. Height range [{:.3g}, "
      "{:.3g}], {} streakline particles, {:.1f}% of the river dyed at the end; outflow / inflow flux {:.3f} (the "
      "penalty closure's compressibility at eps = {:g}).\n\n",
      run.dir, m["height_min"].get<double>(), m["height_max"].get<double>(), m["streak_particles"].get<long>(),
      100 * m["dyed_fraction"].get<double>(), m["flux_ratio_out_in"].get<double>(),
      run.result["parameters"]["physics"]["eps"].get<double>());
  if (plotted) md += "![river: height field, dyes and streaklines](river.png)\n\n";
  return md;
}

}  // namespace

std::string patent_section(const ReportContext& ctx) {
  std::string md = "## Patent: penalty Navier-Stokes on a staggered MAC grid (US 5,537,641; docs/patent.md)\n\n";
  auto it = ctx.runs.find("channel5x5");
  if (it != ctx.runs.end() && it->second.error.empty()) md += table_section(it->second);
  it = ctx.runs.find("channel");
  if (it != ctx.runs.end() && it->second.error.empty()) md += channel_section(ctx, it->second);
  it = ctx.runs.find("river");
  if (it != ctx.runs.end() && it->second.error.empty()) md += river_section(ctx, it->second);
  return md;
}

}  // namespace immerse::reports
