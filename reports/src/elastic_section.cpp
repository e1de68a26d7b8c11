// Report section for the elastic-body paper (Imamura, Harada & Kawaguchi): Stable Fluids + explicit FEM coupled through
// the boundary map: frames/s against Table 1, leakage boundary map vs staircase, the bar's
// tip deflection and the windmill's angular velocity over time, a frame of each flow, and the
// Stable Fluids validation against Ghia et al.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <filesystem>

#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

std::string frame_plot(const ReportContext& ctx, const CaseRun& run, const std::string& name) {
  const std::string fields = fs::absolute(fs::path(run.dir) / "final_fields.csv").string();
  const std::string body = fs::absolute(fs::path(run.dir) / "final_body.csv").string();
  const bool ok =
      run_gnuplot(ctx.dir, name + "_frame.gp",
                  fmt::format("set terminal pngcairo size 700,640 noenhanced\nset output '{0}_frame.png'\n"
                              "set datafile separator ','\nset size ratio -1\nunset key\n"
                              "set title '{0}: speed (m/s) at t = {1:.3g} s, body outline (white)'\n"
                              "set palette rgb 33,13,10\nset xrange [0:*]\nset yrange [0:*]\n"
                              "plot '{2}' skip 2 using 1:2:6 with image, '{3}' skip 2 using 1:2:($3-$1):($4-$2) "
                              "with vectors nohead lw 2 lc rgb 'white'\n",
                              name, number_or_nan(run.result["metrics"], "time"), fields, body));
  return ok ? fmt::format("![{0} frame]({0}_frame.png)\n\n", name) : "";
}

std::string curve_plot(const ReportContext& ctx, const CaseRun& run, const std::string& name, const std::string& column,
                       const std::string& ylabel) {
  const std::string series = fs::absolute(fs::path(run.dir) / "series.csv").string();
  const bool ok = run_gnuplot(
      ctx.dir, name + "_curve.gp",
      fmt::format(
          "set terminal pngcairo size 800,450 noenhanced\nset output '{0}_curve.png'\nset datafile separator ','\n"
          "set key autotitle columnhead\nset xlabel 't (s)'\nset ylabel '{1}'\nset grid\n"
          "plot '{2}' skip 1 using 't':'{3}' with lines lw 2 title 'boundary map', "
          "'' skip 1 using 't':'staircase_{3}' with lines lw 2 dt 2 title 'staircase'\n",
          name, ylabel, series, column));
  return ok ? fmt::format("![{0} {1}]({0}_curve.png)\n\n", name, column) : "";
}

// The bar with the paper's coupling (eq. 8 alone, the case's alternative "eq8_alone") beside the case's
// (eq. 8 + the pressure traction), boundary map both.
std::string eq8_alone_table(const ReportContext& ctx, const CaseRun& ours) {
  const auto c = ctx.alternatives.find("elastic_bar");
  if (c == ctx.alternatives.end()) return "";
  const auto v = std::find_if(c->second.begin(), c->second.end(),
                              [](const AlternativeRun& a) { return a.model.name == "eq8_alone"; });
  if (v == c->second.end()) return "";
  if (!v->run.error.empty()) return fmt::format("The run with eq. 8 alone failed: `{}`.\n\n", v->run.error);
  std::string md =
      "#### Eq. 8 alone (the paper's coupling) beside eq. 8 + pressure traction (ours)\n\n"
      "The same case with `coupling.pressure_force=false`, boundary map. `leak_cut_rel`: the flux of u - u_body "
      "through the outline from the cut cells' faces; `leak_flux_rel`: sampled at the outline (see above). "
      "Stable: the fastest face over the run below twice the jet.\n\n"
      "| coupling | mean tip deflection, 2nd half (m) | tip deflection at the end (m) | leak_cut_rel | "
      "leak_flux_rel | max speed / jet | stable |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [label, run] : {std::pair<const char*, const CaseRun*>{"eq. 8 + pressure traction", &ours},
                                   std::pair<const char*, const CaseRun*>{"eq. 8 alone", &v->run}}) {
    const json& m = run->result["metrics"];
    std::string stable = "?";
    for (const auto& ch : run->checks)
      if (ch.quantity == "max face speed over the run / jet speed") stable = ch.pass() ? "yes" : "no";
    md += fmt::format("| {} | {:.5f} | {:.5f} | {:.2e} | {:.4f} | {:.2f} | {} |\n", label,
                      number_or_nan(m, "tip_dx_mean_second_half"), number_or_nan(m, "tip_dx"),
                      number_or_nan(m, "leak_cut_rel"), number_or_nan(m, "leak_flux_rel"),
                      number_or_nan(m, "max_speed_run_over_inflow"), stable);
  }
  return md + "\n";
}

// The case's alternative "alone" (the run without its staircase twin), if it ran.
const CaseRun* alone_run(const ReportContext& ctx, const std::string& name) {
  const auto c = ctx.alternatives.find(name);
  if (c == ctx.alternatives.end()) return nullptr;
  for (const auto& a : c->second)
    if (a.model.name == "alone" && a.run.error.empty()) return &a.run;
  return nullptr;
}

}  // namespace

std::string elastic_section(const ReportContext& ctx) {
  std::string md =
      "## Elastic: Stable Fluids + explicit FEM + boundary map (Imamura, Harada & Kawaguchi; docs/elastic.md)\n\n";
  const struct {
    const char* name;
    double paper_fps;
  } cases[] = {{"elastic_bar", 13.62}, {"windmill", 9.0}};
  md +=
      "### Frames per second against Table 1\n\nPaper: Intel Core 2 Duo 3.0 GHz, one simulation. Ours: `immerse run "
      "<case> "
      "--set coupling.compare=false` on this machine (the case's alternative `alone`: the run's own wall time per "
      "coupled step, boundary map, no other simulation), the ratio and the target from it. Beside the staircase "
      "twin: the canned run, which steps its staircase twin after each step of its own; the two flows share the "
      "caches, so each step starts with some of its fields evicted. Target: 20x the paper.\n\n"
      "| case | grid | dt (s) | sub-steps | elements | paper frames/s | ours frames/s | ratio | target | beside the "
      "staircase twin |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : cases) {
    auto it = ctx.runs.find(c.name);
    if (it == ctx.runs.end() || !it->second.error.empty()) continue;
    const json& m = it->second.result["metrics"];
    const CaseRun* a = alone_run(ctx, c.name);
    const double canned = number_or_nan(m, "frames_per_s"),
                 alone = a ? number_or_nan(a->result["metrics"], "frames_per_s") : std::nan("");
    md += fmt::format("| {} | {} | {:g} | {} | {} | {:g} | {:.2f} | {:.2f}x | {:g} | {:.2f} |\n", c.name,
                      m["grid"].get<std::string>(), number_or_nan(m, "dt"), m["substeps"].get<int>(),
                      m["elements"].get<int>(), c.paper_fps, alone, alone / c.paper_fps, 20 * c.paper_fps, canned);
  }
  md +=
      "\n### Phases (ms per step) and leakage: boundary map vs staircase\n\n"
      "`leak_cut_rel`: the flux of u - u_body through the body outline, cell by cell from the faces of the cells "
      "it cuts (the fluid's flux through their open parts, fractions from the true outline, against the body "
      "velocity's flux through the piece of outline), summed in magnitude. `leak_flux_rel`: integral of "
      "|(u - u_body) . n| over the outline with u bilinear from the grid at the edge midpoints (an O(h) sampling "
      "error). Both averaged over the second half of the run, relative to the inflow flux. `max speed / jet`: the "
      "fastest face after any step over the jet's speed (the stability check: below 2).\n\n"
      "| case | coupling | leak_cut_rel | leak_flux_rel | max speed / jet | advection | diffusion | pressure | FEM | "
      "map build | force | frames/s |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : cases) {
    auto it = ctx.runs.find(c.name);
    if (it == ctx.runs.end() || !it->second.error.empty()) continue;
    auto row = [&](const json& m, const std::string& p, const char* coupling) {
      md += fmt::format(
          "| {} | {} | {:.2e} | {:.4f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | "
          "{:.2f} |\n",
          c.name, coupling, number_or_nan(m, p + "leak_cut_rel"), number_or_nan(m, p + "leak_flux_rel"),
          number_or_nan(m, p + "max_speed_run_over_inflow"), number_or_nan(m, p + "advection_ms"),
          number_or_nan(m, p + "diffusion_ms"), number_or_nan(m, p + "pressure_ms"), number_or_nan(m, p + "fem_ms"),
          number_or_nan(m, p + "map_build_ms"), number_or_nan(m, p + "force_ms"), number_or_nan(m, p + "frames_per_s"));
    };
    const json& m = it->second.result["metrics"];
    for (const std::string p : {"", "staircase_"})
      if (m.contains(p + "leak_flux_rel")) row(m, p, p.empty() ? "boundary map" : "staircase");
    if (const CaseRun* alone = alone_run(ctx, c.name)) row(alone->result["metrics"], "", "boundary map, alone");
  }
  md += "\n";
  if (auto it = ctx.runs.find("elastic_bar"); it != ctx.runs.end() && it->second.error.empty()) {
    const json& m = it->second.result["metrics"];
    md += fmt::format(
        "### Elastic bar (Fig. 6)\n\nTip deflection along the jet at t = {:.3g} s: {:.4f} m (boundary map), "
        "{:.4f} m (staircase); averaged over the second half (the bar swings about its deflection): {:.4f} m "
        "and {:.4f} m.\n\n",
        number_or_nan(m, "time"), number_or_nan(m, "tip_dx"), number_or_nan(m, "staircase_tip_dx"),
        number_or_nan(m, "tip_dx_mean_second_half"), number_or_nan(m, "staircase_tip_dx_mean_second_half"));
    md += curve_plot(ctx, it->second, "elastic_bar", "tip_dx", "tip deflection along x (m)");
    md += frame_plot(ctx, it->second, "elastic_bar");
    md += eq8_alone_table(ctx, it->second);
  }
  if (auto it = ctx.runs.find("windmill"); it != ctx.runs.end() && it->second.error.empty()) {
    const json& m = it->second.result["metrics"];
    md += fmt::format(
        "### Windmill (Fig. 7)\n\nMean angular velocity over the last quarter: {:.4f} rad/s (std {:.4f}) "
        "with the boundary map, {:.4f} rad/s with the staircase.\n\n",
        number_or_nan(m, "omega_mean_last_quarter"), number_or_nan(m, "omega_std_last_quarter"),
        number_or_nan(m, "staircase_omega_mean_last_quarter"));
    md += curve_plot(ctx, it->second, "windmill", "omega", "angular velocity (rad/s)");
    md += frame_plot(ctx, it->second, "windmill");
  }
  md += cavity_section(ctx);
  return md;
}

}  // namespace immerse::reports
