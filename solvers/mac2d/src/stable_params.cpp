#include "immerse/mac2d/stable_params.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <vector>

#include "immerse/core/choices.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"

namespace immerse::mac2d {
namespace {

const Choices<WallType> kWallTypes{{"noslip", WallType::noslip},
                                   {"inflow", WallType::inflow},
                                   {"outflow", WallType::outflow},
                                   {"slip", WallType::slip}};
const Choices<LinearSolver> kSolvers{{"jacobi", LinearSolver::jacobi},
                                     {"rbsor", LinearSolver::rbsor},
                                     {"multigrid", LinearSolver::multigrid},
                                     {"mgcg", LinearSolver::mgcg}};
const Choices<Advection> kAdvection{{"semi_lagrangian", Advection::semi_lagrangian},
                                    {"maccormack", Advection::maccormack}};
// The sides in the order of StableParams::walls and JetSpec::side.
const Choices<int> kWallSides{{"left", 0}, {"right", 1}, {"bottom", 2}, {"top", 3}};

Schema wall_schema(const std::string& side) {
  Schema w;
  w.choice("type", "noslip", kWallTypes.names(), side + " side: boundary condition")
      .number("velocity", 0, -1e6, 1e6, "m/s",
              "no-slip wall velocity along the wall (+x on bottom/top, +y on left/right)")
      .expression("inflow", "0", "inflow: normal speed into the domain, formula of x, y, t");
  return w;
}

WallSpec wall_from(const json& w, const std::string& side) {
  WallSpec s;
  s.type = kWallTypes.parse(w["type"], "walls." + side + ".type");
  s.tangential = w["velocity"];
  s.inflow = w["inflow"];
  return s;
}

}  // namespace

std::string to_string(LinearSolver s) { return kSolvers.name(s); }
std::string to_string(Advection a) { return kAdvection.name(a); }

Schema stable_fluid_schema() {
  Schema grid;
  grid.integer("nx", 64, 4, 16384, "cells along x")
      .integer("ny", 64, 4, 16384, "cells along y")
      .number("h", 1.0 / 64, 1e-9, 1e9, "m", "cell size (square cells)");
  Schema time;
  time.number("dt", 0.01, 1e-12, 1e6, "s",
              "fluid time step (semi-Lagrangian: no CFL limit; checked < 20 cells per step)")
      .integer("steps", 100, 0, 1e10, "number of fluid steps");
  Schema physics;
  physics.number("nu", 1e-3, 0, 1e6, "m^2/s", "kinematic viscosity")
      .number("rho", 1, 1e-9, 1e9, "kg/m^3", "fluid density")
      .vector("force", json::array({0, 0}), 2, -1e9, 1e9, "m/s^2", "uniform body force per unit mass");
  Schema walls;
  walls.object("left", wall_schema("x = 0"), "x = 0 side")
      .object("right", wall_schema("x = nx h"), "x = nx h side")
      .object("bottom", wall_schema("y = 0"), "y = 0 side")
      .object("top", wall_schema("y = ny h"), "y = ny h side");
  Schema jet;
  jet.choice("side", "left", kWallSides.names(), "side the jet/pipe mouth sits on")
      .number("from", 0, -1e9, 1e9, "m", "start of the mouth along the side")
      .number("to", 0, -1e9, 1e9, "m", "end of the mouth along the side")
      .expression("speed", "1", "normal speed into the domain, formula of x, y, t");
  Schema initial;
  initial.expression("u", "0", "initial u, formula of x, y").expression("v", "0", "initial v, formula of x, y");
  Schema solver;
  solver
      .choice("advection", "semi_lagrangian", kAdvection.names(),
              "velocity advection: semi_lagrangian (the paper; first order, RK2 backtrace, bilinear) or maccormack "
              "(Selle et al. 2008: second order, limited; three interpolation passes instead of one)")
      .choice("pressure", "multigrid", kSolvers.names(),
              "pressure Poisson solver: jacobi (the paper, damped 0.9), red-black SOR, multigrid V-cycles (red-black "
              "Gauss-Seidel smoother), or mgcg (conjugate gradients preconditioned by one symmetric V-cycle)")
      .choice("viscosity", "rbsor", kSolvers.names({LinearSolver::jacobi, LinearSolver::rbsor}),
              "implicit viscosity solver")
      .number("pressure_tol", 1e-4, 1e-14, 1e6, "1/s", "stop when max |div u| after projection is below this")
      .number("viscosity_tol", 1e-8, 1e-16, 1e6, "m/s",
              "stop when max |residual| of the viscosity system is below this")
      .integer("max_iterations", 20000, 1, 1e8,
               "iteration cap per solve: a solve that reaches it above its tolerance stops the run (exit 3)")
      .integer("coarse_cycles", 1, 1, 8,
               "multigrid and mgcg: cycles the first coarse level (2h) runs on the next (4h) per visit; 1 is a "
               "V-cycle, more strengthen the coarse correction (fewer iterations where thin bodies make a V-cycle "
               "weak, at a dearer cycle)")
      .number("omega", 0, 0, 1.999, "",
              "SOR relaxation factor (0: 2/(1+sin(pi/n)), the optimum for the model problem)");
  Schema s;
  s.object("grid", grid, "grid")
      .object("time", time, "time stepping")
      .object("physics", physics, "fluid")
      .object("walls", walls, "the four sides")
      .list("jets", jet, "inflow patches (jets, pipe mouths) on the sides")
      .object("initial", initial, "initial velocity")
      .object("fluid_solver", solver, "linear solvers");
  return s;
}

StableParams stable_params_from_json(const json& r, const std::string& source) {
  StableParams p;
  p.source = source;
  p.nx = r["grid"]["nx"];
  p.ny = r["grid"]["ny"];
  p.h = r["grid"]["h"];
  p.dt = r["time"]["dt"];
  p.nu = r["physics"]["nu"];
  p.rho = r["physics"]["rho"];
  p.fx = r["physics"]["force"][0];
  p.fy = r["physics"]["force"][1];
  for (int s = 0; s < 4; ++s) p.walls[s] = wall_from(r["walls"][kWallSides.name(s)], kWallSides.name(s));
  for (const auto& j : r["jets"]) {
    JetSpec js;
    js.side = kWallSides.parse(j["side"], "jets.side");
    js.from = j["from"];
    js.to = j["to"];
    js.speed = j["speed"];
    if (js.to <= js.from) throw InputError(source + ": key 'jets': 'to' must exceed 'from'");
    p.jets.push_back(js);
  }
  p.initial_u = r["initial"]["u"];
  p.initial_v = r["initial"]["v"];
  const auto& fs = r["fluid_solver"];
  p.advection = kAdvection.parse(fs["advection"], "fluid_solver.advection");
  p.pressure_solver = kSolvers.parse(fs["pressure"], "fluid_solver.pressure");
  p.viscosity_solver = kSolvers.parse(fs["viscosity"], "fluid_solver.viscosity");
  p.pressure_tol = fs["pressure_tol"];
  p.viscosity_tol = fs["viscosity_tol"];
  p.max_iterations = fs["max_iterations"];
  p.coarse_cycles = fs["coarse_cycles"];
  p.omega = fs["omega"];
  if (p.omega == 0) p.omega = 2.0 / (1.0 + std::sin(M_PI / std::max(p.nx, p.ny)));
  return p;
}

void check_closed_box(const StableParams& p) {
  for (const auto& w : p.walls)
    if (w.type == WallType::outflow) return;
  const double lx = p.nx * p.h, ly = p.ny * p.h;
  // Inflow through side s (m^2/s) at time t: the normal speed at each cell face's midpoint times h.
  auto side_flux = [&](const std::string& formula, const std::string& key, int side, double from, double to, double t) {
    const Expression e(formula, fmt::format("{}: key '{}'", p.source, key));
    const bool vertical = side < 2;
    const int n = vertical ? p.ny : p.nx;
    double q = 0;
    for (int c = 0; c < n; ++c) {
      const double s = (c + 0.5) * p.h;
      if (s < from || s > to) continue;
      const double x = vertical ? (side == 0 ? 0.0 : lx) : s, y = vertical ? s : (side == 2 ? 0.0 : ly);
      q += e(x, y, 0, t) * p.h;
    }
    return q;
  };
  for (const double t : {0.0, p.dt, 1.0}) {
    double net = 0, scale = 0;
    std::vector<std::string> sources;
    for (int s = 0; s < 4; ++s)
      if (p.walls[s].type == WallType::inflow) {
        const std::string key = "walls." + kWallSides.name(s) + ".inflow";
        const double q = side_flux(p.walls[s].inflow, key, s, -1e300, 1e300, t);
        net += q;
        scale += std::abs(q);
        if (q != 0) sources.push_back("'" + key + "'");
      }
    for (size_t k = 0; k < p.jets.size(); ++k) {
      const JetSpec& j = p.jets[k];
      const double q = side_flux(j.speed, fmt::format("jets.{}.speed", k), j.side, j.from, j.to, t);
      net += q;
      scale += std::abs(q);
      if (q != 0) sources.push_back(fmt::format("'jets.{}'", k));
    }
    if (std::abs(net) > 1e-9 * scale && scale > 0)
      throw InputError(fmt::format(
          "{}: {} {}: a net inflow of {:.4g} m^2/s (at t = {:g} s) into a box with no outflow side: the water "
          "cannot go anywhere, so the pressure equation has no solution. Make one of walls.left, walls.right, "
          "walls.bottom, walls.top of type 'outflow', or balance the inflows",
          p.source, sources.size() == 1 ? "key" : "keys", fmt::join(sources, ", "), net, t));
  }
}

}  // namespace immerse::mac2d
