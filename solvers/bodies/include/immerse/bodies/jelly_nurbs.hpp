#pragma once
// Tensor-product NURBS surfaces (Piegl & Tiller, The NURBS Book, A2.2 basis functions, eq. 4.15
// rational surface). Used for the jellyfish bell: a clamped cubic B-spline profile revolved with the
// exact rational quadratic circle (9 control points, 8 distinct).
#include "immerse/bodies/eigen.hpp"

#include <vector>

namespace immerse::bodies {

// Non-zero B-spline basis functions N_{span-p..span, p}(t) and the knot span of t (A2.1, A2.2).
int jelly_find_span(int n_ctrl, int degree, const std::vector<double>& knots, double t);
void jelly_basis(int span, double t, int degree, const std::vector<double>& knots, double* N);
// Clamped uniform knot vector for n_ctrl control points of the given degree.
std::vector<double> jelly_clamped_knots(int n_ctrl, int degree);

struct JellySurfaceSample {
  Eigen::Vector3d x, v;  // world position (cm) and velocity (cm/s)
};

// Basis functions of a fixed tensor sample grid u = a / n_u (a = 0..n_u), v = b / n_v (b = 0..n_v - 1):
// they depend only on the grid, not on the control points, so a moving surface sampled on the same grid
// computes them once (JellyNurbsSurface::prepare_grid) and reuses them every frame.
struct JellyGridBasis {
  int n_u = -1, n_v = -1;
  std::vector<int> su, sv;     // knot spans per u row and per v column
  std::vector<double> Nu, Nv;  // (n_u + 1) x 4 and n_v x 3 non-zero basis values (degrees <= 3 / 2)
  std::vector<double> row;     // per grid row and control column: x, y, z, w, vx, vy, vz contracted along u
};

struct JellyNurbsSurface {
  int nu = 0, nv = 0;          // control points along u (profile) and v (around the axis)
  int pu = 3, pv = 2;          // degrees
  std::vector<double> ku, kv;  // knot vectors
  std::vector<double> weight;  // nu x nv, index i * nv + j
  // Point and velocity of the surface at (u, v) for control points `cp` and their velocities `cv`
  // (both nu x nv). The weights are constant in time, so the surface velocity is the same rational
  // combination of the control-point velocities.
  void evaluate(const std::vector<Eigen::Vector3d>& cp, const std::vector<Eigen::Vector3d>& cv, double u, double v,
                Eigen::Vector3d& point, Eigen::Vector3d& velocity) const;
  // Fills `b` for the grid (n_u, n_v); a no-op when `b` already holds that grid.
  void prepare_grid(int n_u, int n_v, JellyGridBasis& b) const;
  // The surface on the tensor grid u = a / n_u (a = 0..n_u), v = b / n_v (b = 0..n_v - 1) of a prepared
  // basis, factorised per parameter direction: `contract_rows` contracts the control net along u for
  // every grid row (per control column j: sum_i N_i(u) w_ij (P_ij, 1) and sum_i N_i(u) w_ij V_ij), then
  // `grid_row` contracts one row along v (3 terms per sample instead of the 12 of `evaluate`). Same surface
  // as `evaluate`, summed in a different order (agrees to rounding). grid_row only reads `b`, so rows
  // can be evaluated in parallel.
  void contract_rows(const Eigen::Vector3d* cp, const Eigen::Vector3d* cv, JellyGridBasis& b) const;
  // One grid row u = a / n_u into out[0 .. n_v - 1]. Defined out of line (in its own translation unit)
  // so that every caller, serial loop or parallel kernel, runs the same machine code: the compiler may
  // fuse multiply-adds differently where it inlines, and then backends would differ in the last bits.
  void grid_row(const JellyGridBasis& b, int a, JellySurfaceSample* out) const;
};

// The surface of revolution about z of a profile with `n_profile` control points: the v direction is
// the rational quadratic full circle (9 control points, the last repeating the first).
JellyNurbsSurface jelly_revolution_surface(int n_profile, int degree_profile);
// Unit-radius circle control points (x, y) of that circle, 9 of them, and their weights.
void jelly_circle_controls(double xy[9][2], double w[9]);

}  // namespace immerse::bodies
