#include "immerse/bodies/jelly_bell.hpp"
#include "immerse/bodies/state_points.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "immerse/core/host_for.hpp"

namespace immerse::bodies {

JellyBell::JellyBell(const JellyBellParams& p)
    : p_(p), surface_(jelly_revolution_surface(kRows, 3)), origin_(p.origin) {
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
    f[a] += force;
    f[b] -= force;
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
    for (int i = 1; i < kRows / 2; ++i)
      spring(i * kColumns + j, (kRows - 1 - i) * kColumns + j, p_.k_shape);  // thickness
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

void JellyBell::archive(StateArchive& a) {
  archive_points(a, "bell.x", x_);
  archive_points(a, "bell.v", v_);
  archive_point(a, "bell.origin", origin_);
  a.value("bell.t", t_);
  a.value("bell.swim_speed", swim_speed_);
}

void JellyBell::translate(double v, double dt) {
  swim_speed_ = v;
  origin_ += v * dt * axis_;
}

void JellyBell::control_grid(std::vector<Eigen::Vector3d>& cp, std::vector<Eigen::Vector3d>& cv) const {
  cp.resize(kRows * 9);
  cv.resize(kRows * 9);
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < 9; ++j) {
      const int a = i * kColumns + (j % kColumns);
      cp[i * 9 + j] = to_world(x_[a]);
      cv[i * 9 + j] = dir_to_world(v_[a]) + swim_speed_ * axis_;
    }
}

std::array<int, 2> JellyBell::sample_grid(double spacing) const {
  // Parameter steps from the control polygon's lengths (a bound on the curve lengths), 1.5 times
  // finer because the parameter speed is not uniform along the curve.
  double meridian = 0, rmax = 0;
  for (int i = 0; i + 1 < kRows; ++i) meridian += (x_[(i + 1) * kColumns] - x_[i * kColumns]).norm();
  for (const auto& x : x_) rmax = std::max(rmax, std::hypot(x.x(), x.y()));
  const int nu = std::max(8, static_cast<int>(std::ceil(1.5 * meridian / spacing)));
  const int nv = std::max(16, static_cast<int>(std::ceil(1.5 * 2 * M_PI * rmax / spacing)));
  return {nu, nv};
}

std::array<int, 2> JellyBell::prepare_samples(double spacing) const {
  control_grid(cp_, cv_);
  const auto n = sample_grid(spacing);
  surface_.prepare_grid(n[0], n[1], grid_basis_);
  surface_.contract_rows(cp_.data(), cv_.data(), grid_basis_);
  return n;
}

void JellyBell::sample_surface(double spacing, std::vector<JellySurfaceSample>& out, Backend backend) const {
  const auto n = prepare_samples(spacing);
  out.resize(static_cast<size_t>(n[0] + 1) * n[1]);
  JellySurfaceSample* o = out.data();
  const JellyGridBasis& b = grid_basis_;
  const JellyNurbsSurface& s = surface_;
  const int nv = n[1];
  host_for(backend, n[0] + 1, [=, &b, &s](long a) { s.grid_row(b, static_cast<int>(a), o + a * nv); });
}

void JellyBell::sample_surface_rows(double spacing, Backend backend, const SampleRow& row) const {
  const auto n = prepare_samples(spacing);
  const JellyGridBasis& b = grid_basis_;
  const JellyNurbsSurface& s = surface_;
  const int nv = n[1];
  host_for(backend, n[0] + 1, [=, &b, &s, &row](long a) {
    thread_local std::vector<JellySurfaceSample> buffer;  // one row, in this thread's caches
    buffer.resize(nv);
    s.grid_row(b, static_cast<int>(a), buffer.data());
    row(a, buffer.data(), nv);
  });
}

std::vector<JellySurfaceSample> JellyBell::sample_surface(double spacing) const {
  std::vector<JellySurfaceSample> out;
  sample_surface(spacing, out);
  return out;
}

const JellyBell::ProfileBasis& JellyBell::profile_basis(int n) const {
  for (const auto& b : profile_basis_)
    if (b.n == n) return b;
  ProfileBasis b;
  b.n = n;
  b.span.resize(n + 1);
  b.N.assign(4 * (n + 1), 0.0);
  double N[8];
  for (int a = 0; a <= n; ++a) {
    const double u = static_cast<double>(a) / n;
    b.span[a] = jelly_find_span(surface_.nu, surface_.pu, surface_.ku, u);
    jelly_basis(b.span[a], u, surface_.pu, surface_.ku, N);
    for (int i = 0; i <= surface_.pu; ++i) b.N[4 * a + i] = N[i];
  }
  profile_basis_.push_back(std::move(b));
  return profile_basis_.back();
}

std::vector<std::array<double, 2>> JellyBell::profile_curve(int n) const {
  // The meridian v = 0 runs through control column 0 (circle weight 1): its points are (r, 0, h). At
  // v = 0 the circle's basis is (1, 0, 0) on the first span, so the point is the u-rational combination
  // of column 0: the terms and their order are those of JellyNurbsSurface::evaluate(u, 0), whose zero
  // terms are left out, with the u basis cached per point count.
  const ProfileBasis& b = profile_basis(n);
  const int pu = surface_.pu;
  std::vector<std::array<double, 2>> out(n + 1);
  for (int a = 0; a <= n; ++a) {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    double wsum = 0;
    for (int i = 0; i <= pu; ++i) {
      const int row = b.span[a] - pu + i;
      const double c = b.N[4 * a + i] * surface_.weight[row * surface_.nv];
      p += c * x_[row * kColumns];
      wsum += c;
    }
    const Eigen::Vector3d x = p / wsum;
    out[a] = {std::hypot(x.x(), x.y()), x.z()};
  }
  return out;
}

void JellyProfile::finish() {
  rmax = 0;
  hmin = 1e300;
  hmax = -1e300;
  for (const auto& q : points) {
    rmax = std::max(rmax, q[0]);
    hmin = std::min(hmin, q[1]);
    hmax = std::max(hmax, q[1]);
  }
  // About one bin per edge: each bin then holds the few edges crossing its height band.
  const int n = static_cast<int>(points.size());
  bins = std::max(1, n);
  bin_scale = hmax > hmin ? bins / (hmax - hmin) : 0.0;
  // An edge toggles the even-odd count at heights h in [min(ha, hb), max(ha, hb)): bin_of is monotone,
  // so listing the edge in every bin from bin_of(min) to bin_of(max) covers all of them.
  std::vector<int> count(bins + 1, 0);
  auto span = [&](int a, int& lo, int& hi) {
    const int b = a == 0 ? n - 1 : a - 1;
    lo = bin_of(std::min(points[a][1], points[b][1]));
    hi = bin_of(std::max(points[a][1], points[b][1]));
  };
  for (int a = 0; a < n; ++a) {
    int lo, hi;
    span(a, lo, hi);
    for (int k = lo; k <= hi; ++k) ++count[k + 1];
  }
  bin_first.assign(bins + 1, 0);
  for (int k = 0; k < bins; ++k) bin_first[k + 1] = bin_first[k] + count[k + 1];
  bin_edges.assign(bin_first[bins], 0);
  std::vector<int> fill(bin_first.begin(), bin_first.end() - 1);
  for (int a = 0; a < n; ++a) {
    int lo, hi;
    span(a, lo, hi);
    for (int k = lo; k <= hi; ++k) bin_edges[fill[k]++] = a;
  }
}

JellyProfile JellyBell::profile(int n) const {
  JellyProfile p;
  p.points = profile_curve(n);
  p.finish();
  return p;
}

bool JellyBell::inside(const Eigen::Vector3d& xw, const std::vector<std::array<double, 2>>& profile) const {
  // The reference test: the even-odd rule over every edge of the polygon (no bins).
  JellyProfile p;
  p.points = profile;
  p.rmax = 0;
  p.hmin = 1e300;
  p.hmax = -1e300;
  for (const auto& q : profile) {
    p.rmax = std::max(p.rmax, q[0]);
    p.hmin = std::min(p.hmin, q[1]);
    p.hmax = std::max(p.hmax, q[1]);
  }
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
  auto edge = [&](size_t a, size_t b) {
    const double ra = profile[a][0], ha = profile[a][1], rb = profile[b][0], hb = profile[b][1];
    if ((ha > h) != (hb > h) && r < (rb - ra) * (h - ha) / (hb - ha) + ra) in = !in;
  };
  if (pr.bins > 0) {  // only the edges of h's bin can toggle (the parity does not depend on the order)
    const int k = pr.bin_of(h);
    for (int e = pr.bin_first[k]; e < pr.bin_first[k + 1]; ++e) {
      const size_t a = static_cast<size_t>(pr.bin_edges[e]);
      edge(a, a == 0 ? n - 1 : a - 1);
    }
    return in;
  }
  for (size_t a = 0, b = n - 1; a < n; b = a++) edge(a, b);
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

std::array<double, 2> JellyBell::margin() const {
  const auto pr = profile_curve(192);
  return *std::max_element(pr.begin(), pr.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
}

double JellyBell::cavity_volume() const {
  const auto pr = profile_curve(192);
  const auto m = std::max_element(pr.begin(), pr.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
  // The inner surface rises from the margin to the inner apex: the frusta between it and the axis,
  // above the margin plane h = h_m (the part of a frustum below the plane is cut off).
  const double hm = (*m)[1];
  double v = 0;
  for (auto a = m; a + 1 != pr.end(); ++a) {
    double ha = (*a)[1], hb = (*(a + 1))[1], ra = (*a)[0], rb = (*(a + 1))[0];
    if (hb <= hm && ha <= hm) continue;
    if (ha < hm) ra += (rb - ra) * (hm - ha) / (hb - ha), ha = hm;
    if (hb < hm) rb += (ra - rb) * (hm - hb) / (ha - hb), hb = hm;
    v += M_PI * (hb - ha) * (ra * ra + ra * rb + rb * rb) / 3.0;
  }
  return v;
}

}  // namespace immerse::bodies
