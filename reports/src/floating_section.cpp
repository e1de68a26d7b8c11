// Report section for the floating-bodies paper, shallow-water LBM + floating rigid bodies: Table 1 paper vs
// ours with per-phase bars, the boat-load angles, the sailboat roll curves for both centres of
// mass, the motorboat's wake angle, the dam break against its exact solution.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

std::string fps_section(const ReportContext& ctx, const CaseRun& run) {
  const json& m = run.result["metrics"];
  std::string md = fmt::format(
      "### Table 1: frames/s against the number of objects (`fps_objects`, {} grid, backend {})\n\n"
      "Paper: Intel i5 3.3 GHz + GTX 560, with rendering. Ours: this machine, no rendering; target 10x the paper.\n\n"
      "| column | triangles | paper ms (forces / physics / wetted / render / total) | ours ms (forces / physics / "
      "wetted / water) | paper frames/s | ours frames/s | target |\n|---|---|---|---|---|---|---|\n",
      m["grid"].get<std::string>(), m["backend"].get<std::string>());
  std::ofstream dat(fs::path(ctx.dir) / "fps_phases.dat");
  dat << "# column forces physics wetted water (ms per frame, ours)\n";
  for (const auto& c : m["columns"]) {
    const json& p = c["paper_ms"];
    const json& o = c["phase_ms"];
    auto ms = [&](const char* k) { return o.contains(k) ? o[k].get<double>() : 0.0; };
    md += fmt::format(
        "| {} | {} | {:g} / {:g} / {:g} / {:g} / {:g} | {:.2f} / {:.2f} / {:.2f} / {:.2f} | {:g} | {:.1f} | {:g} {} "
        "|\n",
        c["column"].get<std::string>(), c["triangles_total"].get<int>(), p["forces"].get<double>(),
        p["physics update"].get<double>(), p["wetted section"].get<double>(), p["rendering"].get<double>(),
        p["total"].get<double>(), ms("forces"), ms("physics update"), ms("wetted section"), ms("water step"),
        c["paper_frames_per_s"].get<double>(), c["frames_per_s"].get<double>(), c["target_frames_per_s"].get<double>(),
        c["meets_target"].get<bool>() ? "met" : "not met");
    dat << c["column"].get<std::string>() << " " << ms("forces") << " " << ms("physics update") << " "
        << ms("wetted section") << " " << ms("water step") << "\n";
  }
  dat.close();
  if (m.value("overlap", false))
    md +=
        "\nThe case ran with `coupling.overlap`: on a device Bullet's physics update runs while the wetted-section "
        "and water kernels run (its time is then inside the water step's); on host backends the same arithmetic "
        "runs in turn.\n";
  const bool plotted = run_gnuplot(
      ctx.dir, "fps_phases.gp",
      "set terminal pngcairo size 800,500 noenhanced\nset output 'fps_phases.png'\nset style data histograms\n"
      "set style histogram rowstacked\nset style fill solid 0.8 border -1\nset boxwidth 0.6\nset ylabel 'ms per "
      "frame'\n"
      "set title 'fps\\_objects: time per frame by phase (ours)'\nset key top left\nset grid ytics\n"
      "plot 'fps_phases.dat' using 2:xtic(1) title 'forces', '' using 3 title 'physics update (Bullet)', "
      "'' using 4 title 'wetted section', '' using 5 title 'water step'\n");
  if (plotted) md += "\n![per-phase time per frame](fps_phases.png)\n";
  return md + "\n";
}

std::string boat_section(const CaseRun& run) {
  const json& m = run.result["metrics"];
  std::string md =
      "### Weight distribution (`boat_load`, sec. 3.1)\n\n90 kg on the deck of the 3.23 x 0.43 x 1.23 m "
      "boat; heel > 0: starboard down, trim > 0: bow down (settled time means).\n\n"
      "| load at | heel (deg) | trim (deg) | static equilibrium of the hull (deg) |\n|---|---|---|---|\n";
  for (const auto& p : m["positions"]) {
    const std::string at = p["position"];
    const std::string key =
        at + (at == "port" || at == "starboard" ? "_hydrostatic_heel_deg" : "_hydrostatic_trim_deg");
    const std::string eq = m.contains(key) ? fmt::format("{:+.2f}", m[key].get<double>()) : "0 (symmetric)";
    md += fmt::format("| {} | {:+.2f} | {:+.2f} | {} |\n", at, p["heel_deg"].get<double>(), p["trim_deg"].get<double>(),
                      eq);
  }
  md += fmt::format(
      "\nThe static equilibrium comes from the hull mesh's own hydrostatics (docs/floating.md). A box-barge "
      "estimate, for scale: heel {:.1f} deg, trim {:.1f} deg. The hull pressure of the last position is in "
      "`{}/hull_pressure.vtp`.\n\n",
      m["estimate_side_heel_deg"].get<double>(), m["estimate_end_trim_deg"].get<double>(), run.dir);
  return md;
}

std::string sail_section(const ReportContext& ctx, const CaseRun& run) {
  const json& m = run.result["metrics"];
  std::string md =
      "### Centre of mass in a 4 m wave train (`sailboat`, sec. 3.2)\n\n| CoM above base (m) | max roll "
      "(deg) | vanishing stability (deg) | mean abs roll, last two wave periods (deg) | final roll (deg) | capsized | "
      "paper |\n|---|---|---|---|---|---|---|\n";
  std::string plot =
      "set terminal pngcairo size 800,500 noenhanced\nset output 'sailboat_roll.png'\nset xlabel 't (s)'\n"
      "set ylabel 'roll (deg)'\nset grid\nset title 'Sailboat roll in the wave train'\nplot ";
  int k = 0;
  for (const auto& r : m["runs"]) {
    const double h = r["com_height_m"];
    const std::string avs = fmt::format("vanishing_stability_deg_com_{:.2f}", h);
    md += fmt::format("| {:.2f} | {:.1f} | {} | {:.1f} | {:.1f} | {} | {} |\n", h, r["max_roll_deg"].get<double>(),
                      m.contains(avs) ? fmt::format("{:.1f}", m[avs].get<double>()) : "-",
                      r.value("late_mean_abs_roll_deg", 0.0), r["final_roll_deg"].get<double>(),
                      r["capsized"].get<bool>() ? "yes" : "no", h < 1 ? "recovers" : "capsizes");
    const std::string name = fmt::format("sailboat_roll_{}.dat", k);
    std::ofstream dat(fs::path(ctx.dir) / name);
    for (const auto& p : r["roll_curve"]) dat << p[0].get<double>() << " " << p[1].get<double>() << "\n";
    plot += fmt::format("{}'{}' using 1:2 with lines lw 2 title 'CoM {:.2f} m'", k ? ", " : "", name, h);
    ++k;
  }
  if (run_gnuplot(ctx.dir, "sailboat_roll.gp", plot + "\n")) md += "\n![sailboat roll curves](sailboat_roll.png)\n";
  return md + "\n";
}

std::string motor_section(const CaseRun& run) {
  const json& m = run.result["metrics"];
  return fmt::format(
      "### Motorboat wake (`motorboat`, sec. 3.3)\n\nSpeed {:.2f} m/s (depth Froude number {:.2f}); "
      "wake half-angle {:.1f} deg against the shallow-water Mach angle asin(sqrt(g h)/U) = {:.1f} deg; "
      "the rudder turned the boat by {:.0f} deg. VTK frames of the curved wake: `{}/frames.pvd`.\n\n",
      m["speed_m_s"].get<double>(), m["depth_froude"].get<double>(), m["wake_half_angle_deg"].get<double>(),
      m["mach_half_angle_deg"].get<double>(), m["turn_heading_change_deg"].get<double>(), run.dir);
}

// A scene's profile against its reference, `<name>_profile.csv` in the run (a header line, then
// position, ours, reference), plotted as <name>.png; the Markdown image, or "" when there is none.
struct Profile {
  std::string name, xlabel, ylabel, title, reference, alt;
};
std::string profile_plot(const ReportContext& ctx, const CaseRun& run, const Profile& p) {
  const std::string csv = (fs::path(run.dir) / (p.name + "_profile.csv")).string();
  if (!fs::exists(csv) ||
      !run_gnuplot(ctx.dir, p.name + ".gp",
                   fmt::format("set terminal pngcairo size 800,500 noenhanced\nset output '{0}.png'\n"
                               "set datafile separator ','\nset xlabel '{1}'\nset ylabel '{2}'\nset grid\n"
                               "set title '{3}: {4}'\nplot '{5}' every ::1 using 1:3 with lines lw 3 title '{6}', "
                               "'' every ::1 using 1:2 with lines lw 1.5 title 'lattice'\n",
                               p.name, p.xlabel, p.ylabel, run.name, p.title, csv, p.reference)))
    return "";
  return fmt::format("\n![{}]({}.png)\n", p.alt, p.name);
}

std::string dam_break_section(const ReportContext& ctx, const CaseRun& run) {
  const json& d = run.result["metrics"]["dam_break"];
  std::string md = fmt::format(
      "### The water alone: a dam break through critical flow (`dam_break`, not in the paper)\n\n"
      "{:g} m of still water against {:g} m (middle-state Froude {:.2f}), with `physics.collision = {}`, "
      "at t = {:g} s against Stoker's exact solution; Zhou's BGK collision (the paper's) loses this flow "
      "(docs/floating.md).\n\n| quantity | ours | exact |\n|---|---|---|\n"
      "| plateau depth (m) | {:.5f} | {:.5f} |\n| plateau velocity (m/s) | {:.4f} | {:.4f} |\n"
      "| bore position (m) | {:.3f} | {:.3f} |\n| depth at the dam site (m) | {:.4f} | {:.4f} |\n",
      d["h_left_m"].get<double>(), d["h_right_m"].get<double>(), d["middle_froude"].get<double>(),
      run.result["parameters"]["physics"]["collision"].get<std::string>(), d["t_s"].get<double>(),
      d["plateau_depth_m"].get<double>(), d["exact_plateau_depth_m"].get<double>(),
      d["plateau_velocity_m_s"].get<double>(), d["exact_plateau_velocity_m_s"].get<double>(),
      d["bore_position_m"].get<double>(), d["exact_bore_position_m"].get<double>(), d["dam_site_depth_m"].get<double>(),
      d["exact_dam_site_depth_m"].get<double>());
  md += profile_plot(ctx, run,
                     {"dam_break", "x (m)", "depth (m)", fmt::format("depth at t = {:g} s", d["t_s"].get<double>()),
                      "exact", "dam break depth against the exact solution"});
  return md + "\n";
}

std::string ring_wave_section(const ReportContext& ctx, const CaseRun& run) {
  const json& w = run.result["metrics"]["ring_wave"];
  std::string md = fmt::format(
      "### The water alone: a ring wave against linear theory (`swlbm`, sec. 2.1)\n\n"
      "A Gaussian hump released in still water, at t = {:g} s over the disc r <= {:g} m that no wall "
      "reflection has reached, against linear shallow-water theory (c = {:.3f} m/s) damped at {:.3g} nu k^2 / 2 "
      "by the lattice's viscous stress (docs/floating.md).\n\n| quantity | ours | linear theory |\n|---|---|---|\n"
      "| crest radius (m) | {:.3f} | {:.3f} |\n| crest height / hump height | {:.4f} | {:.4f} |\n"
      "| max \\|eta - theory\\| / hump height | {:.4f} | |\n",
      w["t_s"].get<double>(), w["compared_radius_m"].get<double>(), w["wave_speed_m_s"].get<double>(),
      w["damping_factor"].get<double>(), w["crest_radius_m"].get<double>(), w["exact_crest_radius_m"].get<double>(),
      w["crest_height_rel"].get<double>(), w["exact_crest_height_rel"].get<double>(),
      w["max_abs_error_rel"].get<double>());
  md += profile_plot(ctx, run,
                     {"ring_wave", "r (m)", "level above still water (m)",
                      fmt::format("ring wave at t = {:g} s", w["t_s"].get<double>()), "linear theory",
                      "ring wave against linear theory"});
  return md + "\n";
}

}  // namespace

std::string floating_section(const ReportContext& ctx) {
  std::string md = "## Floating: shallow-water LBM with floating rigid bodies (docs/floating.md)\n\n";
  auto ok = [&](const char* name) {
    auto it = ctx.runs.find(name);
    return it != ctx.runs.end() && it->second.error.empty() ? &it->second : nullptr;
  };
  if (const CaseRun* r = ok("fps_objects")) md += fps_section(ctx, *r);
  if (const CaseRun* r = ok("boat_load")) md += boat_section(*r);
  if (const CaseRun* r = ok("sailboat")) md += sail_section(ctx, *r);
  if (const CaseRun* r = ok("motorboat")) md += motor_section(*r);
  if (const CaseRun* r = ok("dam_break")) md += dam_break_section(ctx, *r);
  if (const CaseRun* r = ok("swlbm"); r && r->result["metrics"].contains("ring_wave")) md += ring_wave_section(ctx, *r);
  return md;
}

}  // namespace immerse::reports
