#include "immerse/bodies/jelly_nurbs.hpp"

#include <cmath>

namespace immerse::bodies {

int jelly_find_span(int n_ctrl, int degree, const std::vector<double>& knots, double t) {
  const int n = n_ctrl - 1;
  if (t >= knots[n + 1]) return n;
  if (t <= knots[degree]) return degree;
  int lo = degree, hi = n + 1, mid = (lo + hi) / 2;
  while (t < knots[mid] || t >= knots[mid + 1]) {
    if (t < knots[mid]) hi = mid; else lo = mid;
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
    xy[j][0] = pts[j][0], xy[j][1] = pts[j][1];
    w[j] = j % 2 == 0 ? 1.0 : std::sqrt(0.5);
  }
}

JellyNurbsSurface jelly_revolution_surface(int n_profile, int degree_profile) {
  JellyNurbsSurface s;
  s.nu = n_profile, s.nv = 9, s.pu = degree_profile, s.pv = 2;
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
      p += c * cp[idx], vel += c * cv[idx], wsum += c;
    }
  point = p / wsum, velocity = vel / wsum;
}

void JellyNurbsSurface::evaluate_grid(const std::vector<Eigen::Vector3d>& cp, const std::vector<Eigen::Vector3d>& cv,
                                      int n_u, int n_v, std::vector<Eigen::Vector3d>& points,
                                      std::vector<Eigen::Vector3d>& velocities) const {
  std::vector<int> su(n_u + 1), sv(n_v);
  std::vector<double> Nu((n_u + 1) * 8), Nv(n_v * 8);
  for (int a = 0; a <= n_u; ++a) {
    const double u = static_cast<double>(a) / n_u;
    su[a] = jelly_find_span(nu, pu, ku, u);
    jelly_basis(su[a], u, pu, ku, &Nu[a * 8]);
  }
  for (int b = 0; b < n_v; ++b) {
    const double v = static_cast<double>(b) / n_v;
    sv[b] = jelly_find_span(nv, pv, kv, v);
    jelly_basis(sv[b], v, pv, kv, &Nv[b * 8]);
  }
  points.resize(static_cast<size_t>(n_u + 1) * n_v), velocities.resize(points.size());
  for (int a = 0; a <= n_u; ++a)
    for (int b = 0; b < n_v; ++b) {
      Eigen::Vector3d p = Eigen::Vector3d::Zero(), vel = Eigen::Vector3d::Zero();
      double wsum = 0;
      for (int i = 0; i <= pu; ++i)
        for (int j = 0; j <= pv; ++j) {
          const int idx = (su[a] - pu + i) * nv + (sv[b] - pv + j);
          const double c = Nu[a * 8 + i] * Nv[b * 8 + j] * weight[idx];
          p += c * cp[idx], vel += c * cv[idx], wsum += c;
        }
      points[a * n_v + b] = p / wsum, velocities[a * n_v + b] = vel / wsum;
    }
}

}  // namespace immerse::bodies
