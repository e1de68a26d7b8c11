#pragma once
// Tensor-product NURBS surfaces (Piegl & Tiller, The NURBS Book, A2.2 basis functions, eq. 4.15
// rational surface). Used for the jellyfish bell: a clamped cubic B-spline profile revolved with the
// exact rational quadratic circle (9 control points, 8 distinct).
#include <Eigen/Dense>

#include <vector>

namespace immerse::bodies {

// Non-zero B-spline basis functions N_{span-p..span, p}(t) and the knot span of t (A2.1, A2.2).
int jelly_find_span(int n_ctrl, int degree, const std::vector<double>& knots, double t);
void jelly_basis(int span, double t, int degree, const std::vector<double>& knots, double* N);
// Clamped uniform knot vector for n_ctrl control points of the given degree.
std::vector<double> jelly_clamped_knots(int n_ctrl, int degree);

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
  // The same on the tensor grid u = a / n_u (a = 0..n_u), v = b / n_v (b = 0..n_v - 1): the basis
  // functions are computed once per u and once per v. Output index a * n_v + b.
  void evaluate_grid(const std::vector<Eigen::Vector3d>& cp, const std::vector<Eigen::Vector3d>& cv, int n_u, int n_v,
                     std::vector<Eigen::Vector3d>& points, std::vector<Eigen::Vector3d>& velocities) const;
};

// The surface of revolution about z of a profile with `n_profile` control points: the v direction is
// the rational quadratic full circle (9 control points, the last repeating the first).
JellyNurbsSurface jelly_revolution_surface(int n_profile, int degree_profile);
// Unit-radius circle control points (x, y) of that circle, 9 of them, and their weights.
void jelly_circle_controls(double xy[9][2], double w[9]);

}  // namespace immerse::bodies
