// Scene metrics and validation checks of solver "mac2d.stable": the lid-driven cavity against Ghia,
// Ghia & Shin (1982); the elastic bar and the windmill against the paper's qualitative claims (no
// leakage through the body, deflection in the jet's direction, steady rotation in the jet's sense).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "elastic_simulation.hpp"
#include "immerse/cases/case_library.hpp"

namespace immerse::cases {
namespace {

// How much more the staircase must leak than the case's coupling, by leak_cut_rel (the flux of
// u - u_body through the outline from the cut cells' faces; both couplings on the same case). The
// paper claims a clear gain but gives no figure. Measured staircase / boundary map: the bar 274 at
// 128^2 and 262 at 256^2 (130 in its 750-step short form), the windmill 138 at 128^2 and 442 at
// 256^2 (147 in its 300-step short form). 60 is about half the smallest measured ratio. With the
// covered face parts at a crossing's velocity the turning windmill's map measured 5.5-9.5 and fails.
constexpr double kLeakRatioMin = 60;

struct RefPoint {
  char line;
  double coord, value;
};

// table: "re100" or "re1000", a column of Ghia et al.'s Tables I and II.
std::vector<RefPoint> ghia(const std::string& table) {
  std::vector<RefPoint> out;
  std::istringstream in(reference_data("stable_ghia_" + table + ".csv"));
  std::string row;
  while (std::getline(in, row)) {
    if (row.empty() || row[0] == '#' || row.rfind("line", 0) == 0) continue;
    RefPoint p{row[0], 0, 0};
    std::sscanf(row.c_str() + 2, "%lf,%lf", &p.coord, &p.value);
    out.push_back(p);
  }
  return out;
}

}  // namespace

json ElasticSimulation::scene_metrics() {
  json m = json::object();
  if (scene_ != ElasticScene::cavity) return m;
  // Centreline profiles: u on x = L/2 (u faces lie on it for even nx), v on y = L/2, linear
  // interpolation between the grid's points; lid speed and side from the case.
  const mac2d::HostFields f = runs_[0].flow->fields();
  const double L = f.nx * f.dx, U = fluid_.walls[3].tangential;
  auto u_at = [&](double y) {  // y in [0, L]: faces at (j - 1/2) h, walls u = 0 / U
    const double fj = y / f.dy + 0.5;
    const int j = std::clamp(static_cast<int>(fj), 0, f.ny);
    const double a = fj - j;
    const int i = f.nx / 2;
    auto val = [&](int jj) {
      return jj == 0          ? 2 * fluid_.walls[2].tangential - f.u[f.at(i, 1)]
             : jj == f.ny + 1 ? 2 * U - f.u[f.at(i, f.ny)]
                              : f.u[f.at(i, jj)];
    };
    return ((1 - a) * val(j) + a * val(j + 1));
  };
  auto v_at = [&](double x) {
    const double fi = x / f.dx + 0.5;
    const int i = std::clamp(static_cast<int>(fi), 0, f.nx);
    const double a = fi - i;
    const int j = f.ny / 2;
    auto val = [&](int ii) {
      return ii == 0 ? -f.v[f.at(1, j)] : ii == f.nx + 1 ? -f.v[f.at(f.nx, j)] : f.v[f.at(ii, j)];
    };
    return (1 - a) * val(i) + a * val(i + 1);
  };
  double du = 0, dv = 0;
  json rows = json::array();
  const std::string table = params_["cavity"]["ghia_table"];
  for (const RefPoint& p : ghia(table)) {
    const double ours = p.line == 'u' ? u_at(p.coord * L) / U : v_at(p.coord * L) / U;
    (p.line == 'u' ? du : dv) = std::max(p.line == 'u' ? du : dv, std::abs(ours - p.value));
    rows.push_back({{"line", std::string(1, p.line)}, {"coord", p.coord}, {"ours", ours}, {"ghia", p.value}});
  }
  m["centreline"] = rows;
  m["ghia_u_max_abs_dev"] = du;
  m["ghia_v_max_abs_dev"] = dv;
  m["reynolds"] = U * L / fluid_.nu;
  m["ghia_table"] = table;
  return m;
}

std::vector<Check> ElasticSimulation::checks(const json& m) const {
  std::vector<Check> out;
  // The projection stops at max |div u| <= pressure_tol: the final field honours it.
  out.push_back({"max |div u| after projection - tol (<= 0)",
                 std::max(0.0, m["max_divergence"].get<double>() - fluid_.pressure_tol), 0.0, 0.0,
                 "projection to the stated tolerance (fluid_solver.pressure_tol): the solver's stopping rule",
                 CheckKind::consistency});
  if (scene_ == ElasticScene::cavity) {
    const bool re1000 = m.value("ghia_table", "re100") == "re1000";
    // Re 100 (stable_cavity, the paper's semi-Lagrangian advection): first-order advection smears the
    // vortex, Stable Fluids' known diffusion (Stam 1999), numerical viscosity ~ U h / 2. Measured max
    // deviations: 0.0113 / 0.0068 U at 64^2, 0.0058 / 0.0050 U at 128^2 (first order: halving with h).
    // 0.02 U bounds the 64^2 error; a fluid 25 % more viscous (Re 80) deviates 0.025 U at 128^2 and fails.
    // Re 1000 (stable_cavity_re1000, MacCormack at 128^2): measured 0.030 / 0.025 U at t = 60 s and
    // 0.032 / 0.029 U at t = 30 s (the short form); 256^2 gives 0.026 / 0.023 U, so what remains is
    // mostly not the grid (the time step at CFL 1.3, the splitting, Ghia's own 129^2 solution).
    // 0.04 U sits above both; the paper's semi-Lagrangian scheme deviates 0.094 / 0.081 U there and fails.
    const double tol = re1000 ? 0.04 : 0.02;
    const std::string why = re1000 ? "tol 0.04 U (MacCormack at 128^2 measured 0.030 U; semi-Lagrangian 0.094 U)"
                                   : "tol 0.02 U (first-order numerical viscosity, measured 0.011 U at 64^2)";
    const std::string col = re1000 ? "Re 1000" : "Re 100";
    out.push_back({"Ghia u(y) centreline max |dev| / U", m["ghia_u_max_abs_dev"], 0.0, tol,
                   fmt::format("Ghia, Ghia & Shin 1982 Table I, {}; {}", col, why), CheckKind::prediction});
    out.push_back({"Ghia v(x) centreline max |dev| / U", m["ghia_v_max_abs_dev"], 0.0, tol,
                   fmt::format("Ghia, Ghia & Shin 1982 Table II, {}; {}", col, why), CheckKind::prediction});
  }
  // The body checks need a body: a case that sets body.kind = none keeps the scene's fluid checks only.
  const bool body = !runs_.empty() && runs_[0].body.has_value();
  if (body && (scene_ == ElasticScene::elastic_bar || scene_ == ElasticScene::windmill)) {
    // No leakage (paper sec. 4), by the flux through the cut cells' own faces (leak_cut_rel,
    // bmap_cut_leakage): what the map leaves is the projection residual and the body's change of area
    // inside the cut cells. Tolerance 1e-4 of the inflow flux at the paper's h = 1/256 m, scaled with
    // h. Measured at 256^2: bar 1.7e-5, windmill 2.5e-5; at 128^2: bar 4.3e-5 (7.9e-5 in the short form),
    // windmill 1.1e-4 (9.3e-5 in the short form). The covered face parts at a crossing's velocity instead leaked 2.9e-3
    // (128^2) and 1.8e-3 (256^2) on the turning windmill, the staircase 0.011-0.017.
    const double tol = 1e-4 * fluid_.h * 256.0;
    out.push_back({"leak through the cut faces / inflow (leak_cut_rel)", m["leak_cut_rel"], 0.0, tol,
                   "paper sec. 4: no velocity leakage through the body; tol 1e-4 of the inflow flux at h = 1/256 m "
                   "(measured 1.7e-5 bar, 2.5e-5 windmill), scaled with h",
                   CheckKind::prediction});
  }
  if (body && (scene_ == ElasticScene::elastic_bar || scene_ == ElasticScene::windmill)) {
    // The paper's claim (sec. 3, Fig. 5): the boundary map lets less fluid through the body than the
    // staircase voxelisation of the same body. The staircase's leak over the case's own coupling's:
    // with the boundary map it needs the staircase run alongside (coupling.compare, else nothing to
    // compare: NaN fails); the staircase as the case's coupling is compared with itself (1, fails).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bool stair_case = m.value("coupling", "") == coupling_mode_choices().name(coupling::CouplingMode::staircase);
    const double own = m["leak_cut_rel"];
    const double stair = stair_case                             ? own
                         : m.contains("staircase_leak_cut_rel") ? m["staircase_leak_cut_rel"].get<double>()
                                                                : nan;
    out.push_back(at_least("cut-cell leak ratio staircase / own coupling", stair / own, kLeakRatioMin, 1e6,
                           "paper sec. 3 and Fig. 5: the boundary map leaks less than the staircase (leak_cut_rel, "
                           "same case, coupling.compare on); bound " +
                               fmt::format("{:g}", kLeakRatioMin) +
                               ": about half the smallest measured ratio (kLeakRatioMin)",
                           CheckKind::prediction));
  }
  if (body && (scene_ == ElasticScene::elastic_bar || scene_ == ElasticScene::windmill) &&
      m.contains("max_speed_run_over_inflow")) {
    // Stability of the explicit coupling (the ratio exists when the case has an inflow): the jet is
    // the flow's only source of energy and the body moves at cm/s, so no face should run much faster
    // than the jet. Stable runs measure 1.1-1.35x (the jet accelerating round the body); windmill blades
    // 8x lighter (0.25 kg/m^2) reach 145x.
    out.push_back(
        {"max face speed over the run / jet speed", m["max_speed_run_over_inflow"], 0.0, 2.0,
         "no energy source but the jet: a stable coupling keeps speeds near the jet's (measured 1.1-1.35x); tol 2x",
         CheckKind::consistency});
  }
  if (body && scene_ == ElasticScene::elastic_bar) {
    out.push_back(
        {"mean tip deflection along the jet (+x) > 0", m["tip_dx_mean_second_half"].get<double>() > 0 ? 1.0 : 0.0, 1.0,
         0.0,
         "paper Fig. 6: the jet (from x = 0, +x) bends the bar's free end downstream (mean over the second half: "
         "the lightly damped bar oscillates about its deflection)",
         CheckKind::prediction});
  }
  if (body && scene_ == ElasticScene::windmill) {
    // The pipe's jet passes below the pin moving +x: its torque about the pin is counter-clockwise.
    out.push_back({"rotation in the jet's sense (omega > 0)",
                   m["omega_mean_last_quarter"].get<double>() > 0 ? 1.0 : 0.0, 1.0, 0.0,
                   "paper Fig. 7: the pipe's flow turns the windmill; jet below the pin -> counter-clockwise",
                   CheckKind::prediction});
    const double mean = m["omega_mean_last_quarter"], sd = m["omega_std_last_quarter"];
    out.push_back({"omega std / mean over the last quarter", sd / std::max(std::abs(mean), 1e-300), 0.0, 0.15,
                   "steady rotation: fluctuation within 15 % (four blades passing the jet modulate the torque)",
                   CheckKind::prediction});
    out.push_back(
        {"omega drift across the last quarter / mean", m["omega_drift_last_quarter"], 0.0, 0.1,
         "steady rotation: no longer spinning up; the mean of its second half within 10 % of its first half's",
         CheckKind::prediction});
  }
  return out;
}

}  // namespace immerse::cases
