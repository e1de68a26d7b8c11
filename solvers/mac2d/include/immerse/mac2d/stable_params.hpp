#pragma once
// Parameters of the Stable Fluids solver (Stam 1999 as used by Imamura, Harada & Kawaguchi: semi-
// Lagrangian advection, implicit viscosity, forces, pressure Poisson, projection) on the staggered
// grid, as read from a case file. SI-like units: lengths m, velocities m/s, time s, density kg/m^3.
#include <string>
#include <vector>

#include "immerse/core/schema.hpp"

namespace immerse::mac2d {

// Each side of the box: no-slip wall moving tangentially at `tangential`, inflow with the normal
// velocity `inflow` (formula of x, y, t; positive into the domain), zero-gradient outflow with p = 0
// outside, or a free-slip wall.
enum class WallType { noslip = 0, inflow = 1, outflow = 2, slip = 3 };

struct WallSpec {
  WallType type = WallType::noslip;
  double tangential = 0;     // no-slip wall velocity along the wall (+x for bottom/top, +y for left/right)
  std::string inflow = "0";  // inflow normal speed into the domain (formula of x, y, t)
};

// A jet or pipe mouth: a stretch [from, to] of one side (coordinate along that side) that is an
// inflow of speed `speed` (formula of x, y, t) whatever the side's own type.
struct JetSpec {
  int side = 0;  // 0 left, 1 right, 2 bottom, 3 top
  double from = 0, to = 0;
  std::string speed = "1";
};

enum class LinearSolver { jacobi, rbsor, multigrid, mgcg };

// Velocity advection: the paper's first-order semi-Lagrangian step (Stam 1999), or MacCormack
// (Selle et al. 2008): a forward and a backward semi-Lagrangian step whose difference corrects the
// first to second order, reverted to the forward value where it would make a new extremum.
enum class Advection { semi_lagrangian, maccormack };

struct StableParams {
  int nx = 64, ny = 64;
  double h = 1.0 / 64;  // square cells
  double dt = 0.01;
  double nu = 1e-3, rho = 1;
  double fx = 0, fy = 0;  // body force per unit mass (m/s^2)
  WallSpec walls[4];      // left, right, bottom, top
  std::vector<JetSpec> jets;
  std::string initial_u = "0", initial_v = "0";
  LinearSolver pressure_solver = LinearSolver::multigrid, viscosity_solver = LinearSolver::rbsor;
  Advection advection = Advection::semi_lagrangian;
  double pressure_tol = 1e-4;   // max |div u| after projection, 1/s
  double viscosity_tol = 1e-8;  // max |residual| of the implicit viscosity system, m/s
  int max_iterations = 20000;
  // Multigrid cycles the first coarse level (2h) runs on the next (4h) per visit: 1, a V-cycle;
  // more strengthen the coarse correction where thin bodies leave a V-cycle weak.
  int coarse_cycles = 1;
  double omega = 0;  // SOR relaxation; 0: the optimum for the grid, 2 / (1 + sin(pi / max(nx, ny)))
  std::string source = "case";
};

Schema stable_fluid_schema();  // the fluid keys (grid, time, physics, walls, jets, initial, solver)
StableParams stable_params_from_json(const json& resolved, const std::string& source);
std::string to_string(LinearSolver s);
std::string to_string(Advection a);
// InputError (exit 2) when inflows (walls of type inflow, jets) bring a net flux into a box with no
// outflow side: incompressible water cannot enter a closed box, so the pressure equation has no
// solution and every solve would run to max_iterations. The flux is sampled at t = 0, dt and 1 s.
void check_closed_box(const StableParams& p);

}  // namespace immerse::mac2d
