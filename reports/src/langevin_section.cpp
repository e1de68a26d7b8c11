// Report section for the Langevin-rigid paper: Table 1 and the precompute costs
// against the paper, the three falls' trajectories, the chi/eps series (cf. Fig. 2), and the
// added-mass convergence against Lamb's ellipsoid coefficients.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/reports/report.hpp"

namespace fs = std::filesystem;

namespace immerse::reports {
namespace {

double ms_of(const json& b) {
  const double t = b["real_time"].get<double>();
  const std::string u = b["time_unit"];
  return u == "ns" ? t * 1e-6 : u == "us" ? t * 1e-3 : u == "s" ? t * 1e3 : t;
}

std::string costs_section(const ReportContext& ctx) {
  auto it = ctx.benchmarks.find("bench_langevin");
  if (it == ctx.benchmarks.end()) return "(bench_langevin did not run: no cost table)\n\n";
  std::string md =
      "### Table 1 and the precompute costs (`bench_langevin`)\n\n"
      "Paper: Intel Core i7 3.2 GHz. Ours: this machine, one body per step on the host (the step is the "
      "same function the batch kernel runs). Targets: runtime step <= 5 us, added mass for "
      "1280 faces <= 53 ms, 32x32x8 precompute <= 182 ms. The added-mass rows are the default (green, "
      "Richardson-extrapolated from a quarter of the faces: both solves timed); the source-panel rows are "
      "the earlier first-order method at the same face count. Symmetric meshes are solved in one block per "
      "mirror class of the six motions; the sheets' `whole` rows solve the same system undivided.\n\n"
      "Wall time (what a user waits) and CPU time: the main thread's for the steps and batches, every "
      "thread's for the two precomputes (they run threads); on a shared machine wall and CPU differ.\n\n"
      "| quantity | paper | ours (wall) | ours / paper | CPU |\n|---|---|---|---|---|\n";
  for (const auto& b : it->second["benchmarks"]) {
    if (b.value("run_type", "") == "aggregate") continue;
    std::string name = b["name"];
    // Google Benchmark appends the timing options: .../process_time/real_time.
    for (const std::string suffix : {"/real_time", "/process_time"})
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        name.erase(name.size() - suffix.size());
    const double ms = ms_of(b);
    json cpu_b = b;
    cpu_b["real_time"] = b["cpu_time"];
    const double cpu_ms = ms_of(cpu_b);
    const std::string cpu = cpu_ms < 0.01 ? fmt::format("{:.3f} us", cpu_ms * 1e3) : fmt::format("{:.1f} ms", cpu_ms);
    if (name.rfind("table1_step/", 0) == 0) {
      const double paper_ms = b["paper_us"].get<double>() * 1e-3;
      md += fmt::format("| step {} | {:.2f} ms | {:.3f} us | 1/{:.0f} | {} |\n", name.substr(12), paper_ms, ms * 1e3,
                        paper_ms / ms, cpu);
    } else if (name == "added_mass/host/1280") {
      md += fmt::format("| added mass, 1280 faces | 53 ms | {:.1f} ms | {:.2f} | {} |\n", ms, ms / 53, cpu);
    } else if (name == "added_mass/host/320") {
      md += fmt::format("| added mass, 320 faces | - | {:.1f} ms | - | {} |\n", ms, cpu);
    } else if (name.rfind("added_mass_body/host/", 0) == 0) {
      // The cases' own thin sheets, against the paper's one precompute figure (1280 faces): as the
      // cases solve them (one block per mirror class) and, the /whole rows, as one dense LU.
      const int order = int(b.value("mirror_order", 1.0));
      const std::string row = name.substr(21);
      const bool whole = row.size() > 6 && row.compare(row.size() - 6, 6, "/whole") == 0;
      md += fmt::format(
          "| added mass, the case's sheet `{}` ({} faces, {}) | 53 ms (1280 faces) | {:.1f} ms | "
          "{:.2f} | {} |\n",
          whole ? row.substr(0, row.size() - 6) : row, b["faces"].get<double>(),
          order > 1 ? fmt::format("mirror group of {}: a block per motion class", order) : "the whole system, dense LU",
          ms, ms / 53, cpu);
    } else if (name.rfind("added_mass_panels/host/", 0) == 0) {
      md += fmt::format("| added mass, source panels (first order), {} faces | - | {:.1f} ms | - | {} |\n",
                        name.substr(23), ms, cpu);
    } else if (name.rfind("turbulence_precompute/", 0) == 0) {
      const bool p8 = name.find("32x32x8") != std::string::npos;
      md += fmt::format("| {} (100 steps) | {} | {:.1f} ms | {} | {} |\n", name, p8 ? "182 ms" : "-", ms,
                        p8 ? fmt::format("{:.2f}", ms / 182) : "-", cpu);
    } else if (name.rfind("langevin_batch/", 0) == 0) {
      md += fmt::format("| {} (100 steps) | - | {:.3g} body-steps/s | - | {} |\n", name,
                        b["body_steps_per_s"].get<double>(), cpu);
    }
  }
  return md + "\n";
}

std::string trajectories_section(const ReportContext& ctx) {
  std::string md = "### Trajectories (`falling_paper`, `paper_airplane`, `rubber_ellipsoid`)\n\n";
  std::string plots;
  int panel = 0;
  for (const char* name : {"falling_paper", "paper_airplane", "rubber_ellipsoid"}) {
    auto it = ctx.runs.find(name);
    if (it == ctx.runs.end() || !it->second.error.empty()) {
      md += fmt::format("- `{}`: not run or failed\n", name);
      continue;
    }
    const json& m = it->second.result["metrics"];
    md += fmt::format(
        "- `{}`: fall {:.2f} s, mean descent {:.3f} m/s, lateral amplitude {:.3f} m, heading turns {:.2f}, "
        "turning motions {}, rotation about the major axis {:.1f} turns (net {:.2f}), tilt oscillation {:.1f} deg",
        name, m["fall_time"].get<double>(), m["mean_descent_speed"].get<double>(), m["lateral_amplitude"].get<double>(),
        m["heading_turns"].get<double>(), m["turns"].get<int>(), m["rotation_about_major_axis_turns"].get<double>(),
        m["rotation_about_major_axis_net_turns"].get<double>(), m["oscillation_amplitude_deg"].get<double>());
    if (m.contains("oscillation_amplitude_deg_no_langevin"))
      md += fmt::format(" (without Langevin: {:.1f} deg, descent {:.3f} m/s)",
                        m["oscillation_amplitude_deg_no_langevin"].get<double>(),
                        m["mean_descent_speed_no_langevin"].get<double>());
    md += "; checks: ";
    for (const auto& c : it->second.checks) md += fmt::format("{} {}; ", c.quantity, c.pass() ? "pass" : "FAIL");
    md += "\n";
    const std::string csv = fs::absolute(fs::path(it->second.dir) / "trajectory.csv").string();
    plots +=
        fmt::format("set title '{}'\nsplot '{}' skip 2 using 2:3:4 with lines lw 1.5 title 'with Langevin'", name, csv);
    const std::string without = fs::absolute(fs::path(it->second.dir) / "trajectory_no_langevin.csv").string();
    if (fs::exists(without))
      plots += fmt::format(", '{}' skip 2 using 2:3:4 with lines lw 1.5 title 'without'", without);
    plots += "\n";
    ++panel;
  }
  if (panel > 0 &&
      run_gnuplot(
          ctx.dir, "langevin_trajectories.gp",
          fmt::format(
              "set terminal pngcairo size 1500,520 noenhanced\nset output 'langevin_trajectories.png'\nset datafile "
              "separator ','\n"
              "set multiplot layout 1,{}\nset xlabel 'x (m)'\nset ylabel 'y (m)'\nset zlabel 'z (m)'\nset ticslevel 0\n"
              "set key top left\n{}unset multiplot\n",
              panel, plots)))
    md +=
        "\n![trajectories of the centre of mass](langevin_trajectories.png)\n\nVTK: each run's `frames.pvd` shows the "
        "body mesh over time.\n\n";
  return md;
}

// The seed ensembles as distributions: how many falls made 0, 1, 2, ... turning motions (the
// airplane; Fig. 4 shows two) and heading turns (the leaf; Fig. 3 shows a helix).
std::string ensemble_section(const ReportContext& ctx) {
  std::string md;
  for (const auto& [name, key, what] : {std::tuple{"paper_airplane", "turns", "turning motions (Fig. 4: 2)"},
                                        std::tuple{"falling_paper", "heading_turns", "heading turns, rounded down"}}) {
    auto it = ctx.runs.find(name);
    if (it == ctx.runs.end() || !it->second.error.empty()) continue;
    const json& m = it->second.result["metrics"];
    if (!m.contains("ensemble") || !m["ensemble"].contains(key)) continue;
    constexpr int kBins = 11;  // 0 .. 9 and 10 or more
    std::vector<int> count(kBins, 0);
    for (const auto& v : m["ensemble"][key])
      ++count[std::min(kBins - 1, std::max(0, int(std::floor(v.get<double>()))))];
    if (md.empty()) md = "### The seed ensembles\n\n";
    md +=
        fmt::format("`{}`, {} falls (seeds {}-{}): number of falls by {}\n\n|", name, m["ensemble"]["falls"].get<int>(),
                    m["ensemble"]["seeds"][0].get<long>(), m["ensemble"]["seeds"][1].get<long>(), what);
    for (int b = 0; b < kBins; ++b) md += b < kBins - 1 ? fmt::format(" {} |", b) : std::string(" >= 10 |");
    md += "\n|";
    for (int b = 0; b < kBins; ++b) md += "---|";
    md += "\n|";
    for (int c : count) md += fmt::format(" {} |", c);
    md += "\n\n";
  }
  return md;
}

std::string turbulence_section(const ReportContext& ctx) {
  std::string md =
      "### The k-epsilon series (Fig. 2)\n\nFig. 2 of the paper plots chi and eps at Re 3.8e3 on a 32x32x16 grid "
      "(its values are not in the text). `Fig. 2 set-up` is that set-up, on the falling paper's body (the "
      "paper does not say which; `falling_paper`'s alternative `fig2_setup`); beside it the canned cases' 32x32x8 "
      "precomputes. Each curve is the mean over a 2-cell shell around the body (case key "
      "turbulence.sampling).\n\n";
  std::string plot;
  for (const char* name : {"falling_paper", "paper_airplane", "rubber_ellipsoid"}) {
    auto it = ctx.runs.find(name);
    if (it == ctx.runs.end() || !it->second.error.empty()) continue;
    const std::string csv = fs::absolute(fs::path(it->second.dir) / "turbulence.csv").string();
    plot += fmt::format(
        "{}'{}' skip 2 using 1:2 with lines lw 2 title '{} chi', '{}' skip 2 using 1:3 with lines dt 2 lw 2 title '{} "
        "eps'",
        plot.empty() ? "plot " : ", ", csv, name, csv, name);
  }
  if (const auto alts = ctx.alternatives.find("falling_paper"); alts != ctx.alternatives.end())
    for (const auto& a : alts->second) {
      if (a.model.name != "fig2_setup" || !a.run.error.empty()) continue;
      const std::string csv = fs::absolute(fs::path(a.run.dir) / "turbulence.csv").string();
      plot += fmt::format(
          "{}'{}' skip 2 using 1:2 with lines lw 3 lc rgb 'black' title 'Fig. 2 set-up chi', '{}' skip 2 using 1:3 "
          "with lines dt 2 lw 3 lc rgb 'black' title 'Fig. 2 set-up eps'",
          plot.empty() ? "plot " : ", ", csv, csv);
    }
  if (!plot.empty() && run_gnuplot(ctx.dir, "langevin_turbulence.gp",
                                   "set terminal pngcairo size 900,520 noenhanced\nset output "
                                   "'langevin_turbulence.png'\nset datafile separator ','\n"
                                   "set xlabel 't (s)'\nset ylabel 'chi (1/s), eps (m^2/s^3)'\nset logscale y\nset "
                                   "grid\nset key outside right\n" +
                                       plot + "\n"))
    md += "![chi and eps over time](langevin_turbulence.png)\n\n";
  return md;
}

// Largest relative error of the diagonal against Lamb (entries where Lamb is ~0 skipped: the
// spheroid's spin about its axis, the sphere's rotations).
double lamb_error(const bodies::Matrix6d& ours, const bodies::Matrix6d& ref) {
  double err = 0;
  for (int k = 0; k < 6; ++k)
    if (ref(k, k) > 1e-9 * ref.diagonal().maxCoeff()) err = std::max(err, std::abs(ours(k, k) / ref(k, k) - 1));
  return err;
}

// The error against Lamb of source panels (first order), green (second order) and green
// extrapolated from faces/4 (Richardson), on the sphere, the 4x1x1 spheroid and the paper's 1x2x4
// ellipsoid at 80 to 5120 faces, with the observed order log2(e(N) / e(4N)) in the face size.
std::string added_mass_section(const ReportContext& ctx) {
  std::string md =
      "### Added mass against Lamb: convergence order (`immerse added-mass`)\n\n"
      "Largest relative error of the six diagonal entries against Lamb's ellipsoid coefficients (entries "
      "Lamb gives as zero skipped). Order: log2 of the error ratio between 4x the faces (half the face "
      "size). `panels`: uniform source panels (first order); `green`: Green's identity with the potential "
      "constant per face (second order, the default); `green + Richardson`: green extrapolated from the "
      "same shape at a quarter of the faces, (4 K(N) - K(N/4)) / 3, what the cases use for ellipsoids and "
      "spheres. Time: this machine, one added-mass computation at 1280 faces (Richardson: both solves).\n\n"
      "| shape | method | 80 | 320 | 1280 | 5120 | order 80-320 | 320-1280 | 1280-5120 | ms at 1280 |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n";
  std::ofstream dat(fs::path(ctx.dir) / "langevin_added_mass.dat");
  dat << "# faces, then per shape (sphere, 4x1x1, 1x2x4) the error of panels, green, green + Richardson\n";
  struct Shape {
    const char* name;
    double a, b, c;
  };
  const Shape shapes[] = {{"sphere", 1, 1, 1}, {"spheroid 4x1x1", 4, 1, 1}, {"ellipsoid 1x2x4", 1, 2, 4}};
  double err[3][3][4];  // shape, method, subdivision 1..4
  for (int si = 0; si < 3; ++si) {
    const Shape& sh = shapes[si];
    const bodies::Matrix6d ref = bodies::lamb_ellipsoid_added_mass(sh.a, sh.b, sh.c, 1);
    bodies::AddedMassOptions panels, green;
    panels.model = bodies::SourceModel::panels;
    green.model = bodies::SourceModel::green;
    bodies::Matrix6d green_coarse =
        bodies::langevin_added_mass(bodies::make_ellipsoid(sh.a, sh.b, sh.c, 0), green).matrix;
    double ms[3] = {0, 0, 0}, green_ms_coarse = 0;
    for (int s = 1; s <= 4; ++s) {
      const bodies::TriMesh mesh = bodies::make_ellipsoid(sh.a, sh.b, sh.c, s);
      const auto p = bodies::langevin_added_mass(mesh, panels), g = bodies::langevin_added_mass(mesh, green);
      err[si][0][s - 1] = lamb_error(p.matrix, ref);
      err[si][1][s - 1] = lamb_error(g.matrix, ref);
      err[si][2][s - 1] = lamb_error(bodies::richardson_extrapolate(g.matrix, green_coarse, 4.0), ref);
      if (s == 3) {
        ms[0] = p.solve_ms;
        ms[1] = g.solve_ms;
        ms[2] = g.solve_ms + green_ms_coarse;
      }
      green_coarse = g.matrix;
      green_ms_coarse = g.solve_ms;
    }
    const char* methods[] = {"panels", "green", "green + Richardson"};
    for (int m = 0; m < 3; ++m) {
      md += fmt::format("| {} | {} |", sh.name, methods[m]);
      for (int s = 0; s < 4; ++s) md += fmt::format(" {:.2f}% |", 100 * err[si][m][s]);
      for (int s = 0; s < 3; ++s) md += fmt::format(" {:.2f} |", std::log2(err[si][m][s] / err[si][m][s + 1]));
      md += fmt::format(" {:.1f} |\n", ms[m]);
    }
  }
  for (int s = 0; s < 4; ++s) {
    dat << (20 << (2 * (s + 1)));
    for (int si = 0; si < 3; ++si)
      for (int m = 0; m < 3; ++m) dat << " " << err[si][m][s];
    dat << "\n";
  }
  dat.close();
  // Guides: first order in the face size is error ~ faces^(-1/2), second order ~ faces^(-1).
  std::string plot =
      "plot 0.3 * (x / 80)**(-0.5) with lines lc rgb 'gray' dt 3 title 'order 1', 0.2 * (x / 80)**(-1) with lines "
      "lc rgb 'black' dt 3 title 'order 2'";
  const char* titles[] = {"panels", "green", "green + Richardson"};
  for (int si = 0; si < 3; ++si)
    for (int m = 0; m < 3; ++m)
      plot +=
          fmt::format(", 'langevin_added_mass.dat' using 1:{} with linespoints lc {} dt {} pt 7 lw 2 title '{}, {}'",
                      2 + 3 * si + m, m + 1, si + 1, titles[m], shapes[si].name);
  if (run_gnuplot(ctx.dir, "langevin_added_mass.gp",
                  "set terminal pngcairo size 1000,560 noenhanced\nset output 'langevin_added_mass.png'\nset logscale "
                  "xy\nset grid\nset key outside right font ',9'\nset xrange [60:7000]\nset xlabel 'faces'\n"
                  "set ylabel 'max relative error vs Lamb'\n" +
                      plot + "\n"))
    md += "\n![added-mass convergence](langevin_added_mass.png)\n";
  return md + "\n";
}

}  // namespace

std::string langevin_section(const ReportContext& ctx) {
  std::string md = "## Langevin: immersed rigid bodies (docs/langevin.md)\n\n";
  md += costs_section(ctx);
  md += trajectories_section(ctx) + ensemble_section(ctx);
  md += turbulence_section(ctx) + alternatives_markdown(ctx, "falling_paper") +
        alternatives_markdown(ctx, "paper_airplane");
  md += added_mass_section(ctx);
  return md;
}

}  // namespace immerse::reports
