#pragma once
// Parameters of the patent's penalty Navier-Stokes solver (US 5,537,641, eqs. 3-18), as read from a
// case file. Dimensionless, as in the patent: lengths in units of L, velocities in V, Re = VL/nu.
#include <string>
#include <vector>

#include "immerse/core/schema.hpp"

namespace immerse::mac2d {

// `patent`: the exact boundary behaviour that produced the patent's printed 5x5 table
// (docs/patent.md): inflow face = mean of profile and first interior face, written into the old
// level only; ghost pressures 0; the top-wall v face is updated (fluid passes through it); the
// v-momentum advection lacks the u dv/dx term. `physical`: prescribed inflow, no-slip/slip walls,
// zero-gradient outflow with p = 0 beyond it, full advection.
enum class BoundaryMode { patent, physical };
enum class Side { inflow, outflow, noslip, slip };
enum class ObstacleShape { circle, ellipse, rectangle };

struct ObstacleSpec {
  ObstacleShape shape = ObstacleShape::circle;
  std::string x = "0", y = "0";  // centre as formulas of t (a fixed post: constants)
  double a = 0.1, b = 0.1;       // radius / semi-axes / half-sizes
  double angle_deg = 0;          // rotation of ellipse/rectangle
  std::string name;
};

struct DyeSpec {
  double x = 0, y = 0, radius = 0.05;  // source disc kept at concentration 1
  double rgb[3] = {1, 0, 0};           // colour for the blended display field
};

struct PenaltyParams {
  int nx = 64, ny = 16;  // interior cells
  double dx = 1.0 / 16, dy = 1.0 / 16, dt = 1e-4, Re = 100, eps = 0.005;
  BoundaryMode mode = BoundaryMode::physical;
  Side left = Side::inflow, right = Side::outflow, bottom = Side::noslip, top = Side::noslip;
  double bottom_wall_u = 0, top_wall_u = 0;  // tangential wall velocity (lid-driven cavities)
  std::string inflow_u = "0";                // u at the inflow face, formula of y and t
  std::string initial_u = "0", initial_v = "0";
  std::vector<ObstacleSpec> obstacles;
  std::vector<DyeSpec> dyes;
  std::vector<std::pair<double, double>> streak_seeds;
  int streak_release_every = 10;  // steps between particle releases
  int streak_capacity = 20000;
  int transport_every = 0;      // steps between dye/particle updates (0: Courant 0.25 at velocity_scale)
  double velocity_scale = 0;    // 0: derived from inflow/initial/wall velocities for the CFL check
  std::string source = "case";  // file name, for messages
};

// The keys a penalty-solver case file may hold (solver block), for Schema::resolve.
Schema penalty_schema();
// From a resolved case document (after Schema::resolve).
PenaltyParams penalty_params_from_json(const json& resolved, const std::string& source);

}  // namespace immerse::mac2d
