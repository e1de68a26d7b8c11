#include "tracer_audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "immerse/bodies/state_points.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {

namespace {
constexpr int kMargin = 2;  // cells around each point's stencil: RK4 stages move far less than one
}

TracerAudit::TracerAudit(std::vector<Eigen::Vector3d> start, std::array<int, 3> cells, double cell_cm, double to_cm_s)
    : x_(std::move(start)), cells_(cells), cell_cm_(cell_cm), to_cm_s_(to_cm_s) {}

std::pair<std::array<int, 3>, std::array<int, 3>> TracerAudit::box() const {
  std::array<int, 3> lo = cells_, hi = {0, 0, 0};
  for (const auto& x : x_)
    for (int a = 0; a < 3; ++a) {
      const int i = static_cast<int>(std::floor(x[a] / cell_cm_ - 0.5));
      lo[a] = std::min(lo[a], i - kMargin);
      hi[a] = std::max(hi[a], i + 2 + kMargin);
    }
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::clamp(lo[a], 0, cells_[a] - 1);
    hi[a] = std::clamp(hi[a], lo[a] + 1, cells_[a]);
  }
  return {lo, hi};
}

Eigen::Vector3d TracerAudit::trilinear(const lbm3d::Macro& m, const Eigen::Vector3d& x) const {
  // Cell (i, j, k) has its centre at ((i + 1/2) cell, ...); outside the outermost centres the
  // nearest centre's value holds (the lattice border).
  const int size[3] = {m.nx, m.ny, m.nz};
  int base[3];
  double frac[3];
  for (int a = 0; a < 3; ++a) {
    const double s = std::clamp(x[a] / cell_cm_ - 0.5, 0.0, cells_[a] - 1.0) - m.lo[a];
    base[a] = static_cast<int>(std::floor(s));
    frac[a] = s - base[a];
    if (base[a] < 0 || base[a] + (frac[a] > 0 ? 1 : 0) >= size[a])
      throw Error(
          fmt::format("tracer audit: the point ({:g}, {:g}, {:g}) cm left its sampling box", x.x(), x.y(), x.z()),
          kExitInternal);
  }
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  for (int dk = 0; dk < 2; ++dk)
    for (int dj = 0; dj < 2; ++dj)
      for (int di = 0; di < 2; ++di) {
        const double w = (di ? frac[0] : 1 - frac[0]) * (dj ? frac[1] : 1 - frac[1]) * (dk ? frac[2] : 1 - frac[2]);
        if (w == 0) continue;
        const size_t c = m.at(base[0] + di, base[1] + dj, base[2] + dk);
        u += w * Eigen::Vector3d(m.ux[c], m.uy[c], m.uz[c]);
      }
  return u * to_cm_s_;
}

Eigen::Vector3d TracerAudit::velocity(const lbm3d::Macro& before, const lbm3d::Macro& after, const Eigen::Vector3d& x,
                                      double s) const {
  return (1 - s) * trilinear(before, x) + s * trilinear(after, x);
}

void TracerAudit::advance(const lbm3d::Macro& before, const lbm3d::Macro& after, double dt) {
  for (auto& x : x_) {
    const Eigen::Vector3d k1 = velocity(before, after, x, 0.0);
    const Eigen::Vector3d k2 = velocity(before, after, x + 0.5 * dt * k1, 0.5);
    const Eigen::Vector3d k3 = velocity(before, after, x + 0.5 * dt * k2, 0.5);
    const Eigen::Vector3d k4 = velocity(before, after, x + dt * k3, 1.0);
    x += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
}

std::vector<double> TracerAudit::sorted_distances_cm(const std::vector<Eigen::Vector3d>& points) const {
  std::vector<double> d;
  for (size_t k = 0; k < std::min(points.size(), x_.size()); ++k) d.push_back((points[k] - x_[k]).norm());
  std::sort(d.begin(), d.end());
  return d;
}

void TracerAudit::archive(StateArchive& a, const std::string& name) { bodies::archive_points(a, name + ".x", x_); }

}  // namespace immerse::cases
