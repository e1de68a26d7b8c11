#include "immerse/bodies/jelly_bell.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace immerse::bodies {

JellyBell::JellyBell(const JellyBellParams& p) : p_(p), surface_(jelly_revolution_surface(kRows, 3)), origin_(p.origin) {
  if (p.profile.size() != static_cast<size_t>(kRows))
    throw std::invalid_argument("jellyfish bell: the profile needs exactly 12 control vertices");
  axis_ = p.axis.normalized();
  // Any unit vector across the axis, and the third completing a right-handed frame.
  const Eigen::Vector3d trial = std::abs(axis_.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  e1_ = (trial - trial.dot(axis_) * axis_).normalized();
  e2_ = axis_.cross(e1_);
  double xy[9][2], w[9];
  jelly_circle_controls(xy, w);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kColumns; ++j)
      x_.emplace_back(p.profile[i][0] * xy[j][0], p.profile[i][0] * xy[j][1], p.profile[i][1]);
  for (int j = 0; j < kColumns; ++j) column_scale_.push_back(std::hypot(xy[j][0], xy[j][1]));
  x_relaxed_ = x_;
  v_.assign(x_.size(), Eigen::Vector3d::Zero());
}

bool JellyBell::contracting() const { return std::fmod(t_, p_.period_s) < p_.contraction_s; }
int JellyBell::pulse() const { return static_cast<int>(std::floor(t_ / p_.period_s)); }

void JellyBell::forces(std::vector<Eigen::Vector3d>& f) const {
  f.assign(x_.size(), Eigen::Vector3d::Zero());
  auto spring = [&](int a, int b, double k) {
    const Eigen::Vector3d d = x_[b] - x_[a];
    const double len = d.norm(), rest = (x_relaxed_[b] - x_relaxed_[a]).norm();
    if (len <= 0) return;
    const Eigen::Vector3d force = k * (len - rest) * d / len;
    f[a] += force, f[b] -= force;
  };
  const double shrink = contracting() ? 1.0 - p_.contraction : 1.0;
  for (int i = 1; i < kRows - 1; ++i)  // the 10 ring systems: radial springs to the axis
    for (int j = 0; j < kColumns; ++j) {
      const int a = i * kColumns + j;
      const double rho = std::hypot(x_[a].x(), x_[a].y());
      const double rest = shrink * p_.profile[i][0] * column_scale_[j];
      if (rho > 0) f[a] -= p_.k_radial * (rho - rest) * Eigen::Vector3d(x_[a].x() / rho, x_[a].y() / rho, 0);
    }
  for (int j = 0; j < kColumns; ++j) {
    for (int i = 0; i + 1 < kRows; ++i) spring(i * kColumns + j, (i + 1) * kColumns + j, p_.k_shape);  // meridian
    for (int i = 1; i < kRows / 2; ++i) spring(i * kColumns + j, (kRows - 1 - i) * kColumns + j, p_.k_shape);  // thickness
  }
}

void JellyBell::advance(double dt) {
  const int n = std::max(1, static_cast<int>(std::ceil(dt / p_.max_substep_s)));
  const double h = dt / n;
  std::vector<Eigen::Vector3d> f;
  for (int s = 0; s < n; ++s) {
    forces(f);
    for (size_t a = 0; a < x_.size(); ++a) {
      const int row = static_cast<int>(a) / kColumns;
      if (row == 0 || row == kRows - 1) continue;  // the apex vertices sit on the axis, fixed in the bell frame
      v_[a] += h * (f[a] - p_.damping * v_[a]);    // unit masses; semi-implicit Euler
      x_[a] += h * v_[a];
    }
    t_ += h;
  }
}

void JellyBell::translate(double v, double dt) {
  swim_speed_ = v;
  origin_ += v * dt * axis_;
}

void JellyBell::control_grid(std::vector<Eigen::Vector3d>& cp, std::vector<Eigen::Vector3d>& cv) const {
  cp.resize(kRows * 9), cv.resize(kRows * 9);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < 9; ++j) {
      const int a = i * kColumns + (j % kColumns);
      cp[i * 9 + j] = to_world(x_[a]);
      cv[i * 9 + j] = dir_to_world(v_[a]) + swim_speed_ * axis_;
    }
}

std::vector<JellySurfaceSample> JellyBell::sample_surface(double spacing) const {
  std::vector<Eigen::Vector3d> cp, cv;
  control_grid(cp, cv);
  // Parameter steps from the control polygon's lengths (a bound on the curve lengths), 1.5 times
  // finer because the parameter speed is not uniform along the curve.
  double meridian = 0, rmax = 0;
  for (int i = 0; i + 1 < kRows; ++i) meridian += (x_[(i + 1) * kColumns] - x_[i * kColumns]).norm();
  for (const auto& x : x_) rmax = std::max(rmax, std::hypot(x.x(), x.y()));
  const int nu = std::max(8, static_cast<int>(std::ceil(1.5 * meridian / spacing)));
  const int nv = std::max(16, static_cast<int>(std::ceil(1.5 * 2 * M_PI * rmax / spacing)));
  std::vector<Eigen::Vector3d> pts, vel;
  surface_.evaluate_grid(cp, cv, nu, nv, pts, vel);
  std::vector<JellySurfaceSample> out(pts.size());
  for (size_t k = 0; k < pts.size(); ++k) out[k] = {pts[k], vel[k]};
  return out;
}

std::vector<std::array<double, 2>> JellyBell::profile_curve(int n) const {
  // The meridian v = 0 runs through control column 0 (circle weight 1): its points are (r, 0, h).
  std::vector<Eigen::Vector3d> cp(kRows * 9), cv(kRows * 9, Eigen::Vector3d::Zero());
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < 9; ++j) cp[i * 9 + j] = x_[i * kColumns + (j % kColumns)];
  std::vector<std::array<double, 2>> out;
  for (int a = 0; a <= n; ++a) {
    Eigen::Vector3d x, v;
    surface_.evaluate(cp, cv, static_cast<double>(a) / n, 0.0, x, v);
    out.push_back({std::hypot(x.x(), x.y()), x.z()});
  }
  return out;
}

JellyProfile JellyBell::profile(int n) const {
  JellyProfile p;
  p.points = profile_curve(n);
  p.rmax = 0, p.hmin = 1e300, p.hmax = -1e300;
  for (const auto& q : p.points) p.rmax = std::max(p.rmax, q[0]), p.hmin = std::min(p.hmin, q[1]), p.hmax = std::max(p.hmax, q[1]);
  return p;
}

bool JellyBell::inside(const Eigen::Vector3d& xw, const std::vector<std::array<double, 2>>& profile) const {
  JellyProfile p;
  p.points = profile;
  p.rmax = 0, p.hmin = 1e300, p.hmax = -1e300;
  for (const auto& q : profile) p.rmax = std::max(p.rmax, q[0]), p.hmin = std::min(p.hmin, q[1]), p.hmax = std::max(p.hmax, q[1]);
  return inside(xw, p);
}

bool JellyBell::inside(const Eigen::Vector3d& xw, const JellyProfile& pr) const {
  const Eigen::Vector3d d = xw - origin_;
  const double h = d.dot(axis_), r = (d - h * axis_).norm();
  // The polygon's bounding box rejects most cells of the body's box first; then the even-odd rule on
  // the closed (r, h) polygon (the axis segment closes it).
  if (r > pr.rmax || h < pr.hmin || h > pr.hmax) return false;
  const auto& profile = pr.points;
  bool in = false;
  const size_t n = profile.size();
  for (size_t a = 0, b = n - 1; a < n; b = a++) {
    const double ra = profile[a][0], ha = profile[a][1], rb = profile[b][0], hb = profile[b][1];
    if ((ha > h) != (hb > h) && r < (rb - ra) * (h - ha) / (hb - ha) + ra) in = !in;
  }
  return in;
}

double JellyBell::diameter() const {
  double rmax = 0;
  for (const auto& p : profile_curve(96)) rmax = std::max(rmax, p[0]);
  return 2 * rmax;
}

double JellyBell::volume() const {
  const auto pr = profile_curve(192);
  double v = 0;
  for (size_t a = 0; a + 1 < pr.size(); ++a) {
    const double ra = pr[a][0], rb = pr[a + 1][0];
    v += M_PI * (pr[a + 1][1] - pr[a][1]) * (ra * ra + ra * rb + rb * rb) / 3.0;
  }
  return std::abs(v);  // the closing segment runs on the axis (r = 0) and adds nothing
}

}  // namespace immerse::bodies
