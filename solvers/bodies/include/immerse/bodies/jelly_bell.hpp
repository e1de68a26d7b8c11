#pragma once
// The jellyfish bell of Alexandrova et al. (GRAPP 2006, section 3 and Fig. 2): an axisymmetric NURBS
// surface (a clamped cubic profile of 12 control vertices revolved with the rational quadratic circle:
// 12 x 8 = 96 distinct control vertices) deformed by a particle system of unit masses placed at the
// control vertices. Ten axisymmetric mass-spring systems (one per profile row off the axis: each
// vertex of the row tied to the axis by a radial spring) contract and relax the bell: during the
// contraction the radial rest lengths are shorter than the current ones (springs stretched, pulling in),
// at relaxation they return to the relaxed radii (springs compressed, pushing out). Meridional and
// thickness springs keep the profile's shape. Spring properties switch at scheduled times.
// Units: cm, s. Positions are kept in the bell frame (x, y across the axis, h along it) and mapped to
// the world by the bell's origin (centre of the relaxed margin plane) and axis.
#include "immerse/bodies/eigen.hpp"
#include "immerse/core/state_archive.hpp"

#include <array>
#include <functional>
#include <vector>

#include "immerse/bodies/jelly_nurbs.hpp"
#include "immerse/core/backend_id.hpp"

namespace immerse::bodies {

struct JellyBellParams {
  // Relaxed profile control vertices (r, h), from the outer apex (r = 0) over the margin to the inner
  // apex (r = 0); h along the axis from the margin plane.
  std::vector<std::array<double, 2>> profile;
  double k_radial = 6.0;       // 1/s^2: radial springs of the 10 ring systems (unit masses)
  double k_shape = 1.0;        // 1/s^2: meridional and thickness springs
  double damping = 4.5;        // 1/s: velocity damping of the particles (water's drag on the bell)
  double contraction = 0.09;   // fraction of the relaxed radius removed from the radial rest lengths
  double period_s = 7.5;       // one pulse: contraction then relaxation
  double contraction_s = 2.0;  // duration of the contraction at the start of each pulse
  double max_substep_s = 0.01;
  Eigen::Vector3d origin{0, 0, 0};  // world position of the relaxed margin-plane centre, cm
  Eigen::Vector3d axis{0, 0, 1};    // swimming direction (apex side)
};

// The closed profile polygon (r, h) in the bell frame with its bounding box, for inside tests, and its
// edges binned by height: the even-odd rule at height h only needs the edges whose h range covers h, so
// `inside` visits the few edges of h's bin instead of all of them (same edge test, same answer).
struct JellyProfile {
  std::vector<std::array<double, 2>> points;
  double rmax = 0, hmin = 0, hmax = 0;
  int bins = 0;                // 0: no bins (every edge is tested)
  double bin_scale = 0;        // bins per unit height
  std::vector<int> bin_first;  // bins + 1 offsets into bin_edges
  std::vector<int> bin_edges;  // edge a joins points[a] and points[a - 1] (a = 0: points[n - 1])
  int bin_of(double h) const {
    const int b = static_cast<int>((h - hmin) * bin_scale);
    return b < 0 ? 0 : b >= bins ? bins - 1 : b;
  }
  // Bounding box, then bins over the current points.
  void finish();
};

class JellyBell {
 public:
  static constexpr int kRows = 12, kColumns = 8;
  explicit JellyBell(const JellyBellParams& p);

  // Advances the particle system by dt (sub-stepped) and the schedule clock.
  void advance(double dt);
  // Moves the whole bell along its axis at speed v (cm/s) for dt: the swimming translation.
  void translate(double v, double dt);
  // The moving state (particles, clock, position, swimming speed), for checkpoints.
  void archive(StateArchive& a);

  double time() const { return t_; }
  bool contracting() const;
  int pulse() const;  // index of the current pulse
  const Eigen::Vector3d& origin() const { return origin_; }
  const Eigen::Vector3d& axis() const { return axis_; }
  double swim_speed() const { return swim_speed_; }

  // World control vertices and velocities, 12 x 9 (the NURBS grid: column 8 repeats column 0).
  void control_grid(std::vector<Eigen::Vector3d>& cp, std::vector<Eigen::Vector3d>& cv) const;
  // Surface samples no farther apart than `spacing` (cm) in either parameter direction.
  std::vector<JellySurfaceSample> sample_surface(double spacing) const;
  // The same into `out` (reused): the grid's basis functions are cached between calls, the samples are
  // evaluated in parallel on the backend's host execution space (same values on every backend).
  void sample_surface(double spacing, std::vector<JellySurfaceSample>& out, Backend backend = Backend::serial) const;
  // The same samples a parameter row at a time, for a caller that keeps less than a whole sample per
  // point: row(a, samples, n_v) gets row a's samples (u = a / n_u, sample index a * n_v + b) in a
  // buffer of the thread that evaluated them, rows in parallel on the backend's host execution space.
  using SampleRow = std::function<void(long a, const JellySurfaceSample* samples, int n)>;
  void sample_surface_rows(double spacing, Backend backend, const SampleRow& row) const;
  // The parameter grid (n_u, n_v) sample_surface uses: samples u = a / n_u (a = 0..n_u), v = b / n_v.
  std::array<int, 2> sample_grid(double spacing) const;
  // The profile in the bell frame (r, h), `n` points of the meridian through control column 0.
  std::vector<std::array<double, 2>> profile_curve(int n) const;
  // Whether a world point lies inside the closed bell (its (r, h) inside the profile polygon).
  bool inside(const Eigen::Vector3d& x, const std::vector<std::array<double, 2>>& profile) const;
  // The same against a profile whose bounding box is computed once (many cells per frame).
  JellyProfile profile(int n) const;
  bool inside(const Eigen::Vector3d& x, const JellyProfile& profile) const;
  // Bell diameter: twice the largest radius of the profile curve (the margin), cm.
  double diameter() const;
  // Volume of the closed bell (cm^3): the profile polygon revolved (Pappus), sum of the frusta
  // pi dh (r_a^2 + r_a r_b + r_b^2) / 3 of its edges.
  double volume() const;
  // The subumbrellar cavity (cm^3): the water between the inner surface (margin -> inner apex) and the
  // margin plane, the inner profile revolved.
  double cavity_volume() const;
  // The margin in the bell frame: (radius, height) of the profile point farthest from the axis.
  std::array<double, 2> margin() const;
  // Particle positions in the bell frame (96), and the relaxed ones, for tests and frames.
  const std::vector<Eigen::Vector3d>& particles() const { return x_; }
  const JellyBellParams& params() const { return p_; }
  const JellyNurbsSurface& surface() const { return surface_; }

 private:
  void forces(std::vector<Eigen::Vector3d>& f) const;
  Eigen::Vector3d to_world(const Eigen::Vector3d& local) const {
    return origin_ + local.x() * e1_ + local.y() * e2_ + local.z() * axis_;
  }
  Eigen::Vector3d dir_to_world(const Eigen::Vector3d& d) const { return d.x() * e1_ + d.y() * e2_ + d.z() * axis_; }

  JellyBellParams p_;
  JellyNurbsSurface surface_;
  std::vector<Eigen::Vector3d> x_, v_, x_relaxed_;  // 96 particles, index row * 8 + column
  std::vector<double> column_scale_;                // 1 (edge vertices) or sqrt(2) (circle corners)
  // Caches (they depend on the parameter grids only, not on the state): the sample grid's basis
  // functions, the world control net, and the profile curves' u basis per point count.
  struct ProfileBasis {
    int n = -1;
    std::vector<int> span;
    std::vector<double> N;  // 4 per point
  };
  mutable JellyGridBasis grid_basis_;
  mutable std::vector<Eigen::Vector3d> cp_, cv_;
  mutable std::vector<ProfileBasis> profile_basis_;
  const ProfileBasis& profile_basis(int n) const;
  // The world control net and the grid's row contractions for sampling at `spacing`: its grid.
  std::array<int, 2> prepare_samples(double spacing) const;
  Eigen::Vector3d origin_, axis_, e1_, e2_;
  double t_ = 0, swim_speed_ = 0;
};

}  // namespace immerse::bodies
