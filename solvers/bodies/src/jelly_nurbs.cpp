#include "immerse/bodies/jelly_nurbs.hpp"

#include <cmath>
#include <stdexcept>

namespace immerse::bodies {

int jelly_find_span(int n_ctrl, int degree, const std::vector<double>& knots, double t) {
  const int n = n_ctrl - 1;
  if (t >= knots[n + 1]) return n;
  if (t <= knots[degree]) return degree;
  int lo = degree, hi = n + 1, mid = (lo + hi) / 2;
  while (t < knots[mid] || t >= knots[mid + 1]) {
    if (t < knots[mid])
      hi = mid;
    else
      lo = mid;
    mid = (lo + hi) / 2;
  }
  return mid;
}

void jelly_basis(int span, double t, int degree, const std::vector<double>& knots, double* N) {
  double left[8], right[8];
  N[0] = 1.0;
  for (int j = 1; j <= degree; ++j) {
    left[j] = t - knots[span + 1 - j];
    right[j] = knots[span + j] - t;
    double saved = 0.0;
    for (int r = 0; r < j; ++r) {
      const double tmp = N[r] / (right[r + 1] + left[j - r]);
      N[r] = saved + right[r + 1] * tmp;
      saved = left[j - r] * tmp;
    }
    N[j] = saved;
  }
}

std::vector<double> jelly_clamped_knots(int n_ctrl, int degree) {
  std::vector<double> k;
  const int spans = n_ctrl - degree;
  for (int i = 0; i <= degree; ++i) k.push_back(0.0);
  for (int i = 1; i < spans; ++i) k.push_back(static_cast<double>(i) / spans);
  for (int i = 0; i <= degree; ++i) k.push_back(1.0);
  return k;
}

void jelly_circle_controls(double xy[9][2], double w[9]) {
  const double pts[9][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}};
  for (int j = 0; j < 9; ++j) {
    xy[j][0] = pts[j][0];
    xy[j][1] = pts[j][1];
    w[j] = j % 2 == 0 ? 1.0 : std::sqrt(0.5);
  }
}

JellyNurbsSurface jelly_revolution_surface(int n_profile, int degree_profile) {
  JellyNurbsSurface s;
  s.nu = n_profile;
  s.nv = 9;
  s.pu = degree_profile;
  s.pv = 2;
  s.ku = jelly_clamped_knots(n_profile, degree_profile);
  s.kv = {0, 0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1};
  double xy[9][2], w[9];
  jelly_circle_controls(xy, w);
  s.weight.resize(static_cast<size_t>(s.nu) * s.nv);
  for (int i = 0; i < s.nu; ++i)
    for (int j = 0; j < s.nv; ++j) s.weight[i * s.nv + j] = w[j];
  return s;
}

void JellyNurbsSurface::evaluate(const std::vector<Eigen::Vector3d>& cp, const std::vector<Eigen::Vector3d>& cv,
                                 double u, double v, Eigen::Vector3d& point, Eigen::Vector3d& velocity) const {
  double Nu[8], Nv[8];
  const int su = jelly_find_span(nu, pu, ku, u), sv = jelly_find_span(nv, pv, kv, v);
  jelly_basis(su, u, pu, ku, Nu);
  jelly_basis(sv, v, pv, kv, Nv);
  Eigen::Vector3d p = Eigen::Vector3d::Zero(), vel = Eigen::Vector3d::Zero();
  double wsum = 0;
  for (int a = 0; a <= pu; ++a)
    for (int b = 0; b <= pv; ++b) {
      const int idx = (su - pu + a) * nv + (sv - pv + b);
      const double c = Nu[a] * Nv[b] * weight[idx];
      p += c * cp[idx];
      vel += c * cv[idx];
      wsum += c;
    }
  point = p / wsum;
  velocity = vel / wsum;
}

void JellyNurbsSurface::prepare_grid(int n_u, int n_v, JellyGridBasis& b) const {
  if (b.n_u == n_u && b.n_v == n_v) return;
  if (pu > 3 || pv > 2) throw std::invalid_argument("JellyNurbsSurface::prepare_grid: degrees above (3, 2)");
  b.n_u = n_u;
  b.n_v = n_v;
  b.su.resize(n_u + 1);
  b.sv.resize(n_v);
  b.Nu.assign((n_u + 1) * 4, 0.0);
  b.Nv.assign(n_v * 3, 0.0);
  double N[8];
  for (int a = 0; a <= n_u; ++a) {
    const double u = static_cast<double>(a) / n_u;
    b.su[a] = jelly_find_span(nu, pu, ku, u);
    jelly_basis(b.su[a], u, pu, ku, N);
    for (int i = 0; i <= pu; ++i) b.Nu[a * 4 + i] = N[i];
  }
  for (int c = 0; c < n_v; ++c) {
    const double v = static_cast<double>(c) / n_v;
    b.sv[c] = jelly_find_span(nv, pv, kv, v);
    jelly_basis(b.sv[c], v, pv, kv, N);
    for (int j = 0; j <= pv; ++j) b.Nv[c * 3 + j] = N[j];
  }
}

void JellyNurbsSurface::contract_rows(const Eigen::Vector3d* cp, const Eigen::Vector3d* cv, JellyGridBasis& b) const {
  b.row.resize(static_cast<size_t>(b.n_u + 1) * nv * 7);
  for (int a = 0; a <= b.n_u; ++a) {
    const double* N = &b.Nu[a * 4];
    const int i0 = b.su[a] - pu;
    double* r = &b.row[static_cast<size_t>(a) * nv * 7];
    for (int j = 0; j < nv; ++j) {
      double acc[7] = {0, 0, 0, 0, 0, 0, 0};
      for (int i = 0; i <= pu; ++i) {
        const int idx = (i0 + i) * nv + j;
        const double c = N[i] * weight[idx];
        acc[0] += c * cp[idx].x();
        acc[1] += c * cp[idx].y();
        acc[2] += c * cp[idx].z();
        acc[3] += c;
        acc[4] += c * cv[idx].x();
        acc[5] += c * cv[idx].y();
        acc[6] += c * cv[idx].z();
      }
      for (int m = 0; m < 7; ++m) r[j * 7 + m] = acc[m];
    }
  }
}

void JellyNurbsSurface::grid_row(const JellyGridBasis& b, int a, JellySurfaceSample* out) const {
  const double* row = &b.row[static_cast<size_t>(a) * nv * 7];
  for (int c = 0; c < b.n_v; ++c) {
    const double* M = &b.Nv[c * 3];
    const double* r = row + (b.sv[c] - pv) * 7;
    double acc[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j <= pv; ++j)
      for (int m = 0; m < 7; ++m) acc[m] += M[j] * r[j * 7 + m];
    const double inv = 1.0 / acc[3];
    out[c].x = Eigen::Vector3d(acc[0] * inv, acc[1] * inv, acc[2] * inv);
    out[c].v = Eigen::Vector3d(acc[4] * inv, acc[5] * inv, acc[6] * inv);
  }
}

}  // namespace immerse::bodies
