#include "immerse/bodies/jelly_passive.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::bodies {

Eigen::Vector3d JellyVelocityField::at(const Eigen::Vector3d& x) const {
  const int size[3] = {nx, ny, nz};
  int box[3], i0[3];
  for (int a = 0; a < 3; ++a) box[a] = box_size[a] > 0 ? box_size[a] : size[a];
  const long n = static_cast<long>(box[0]) * box[1] * box[2];
  double w[3];
  for (int a = 0; a < 3; ++a) {
    // Cell centres sit at (i + 1/2) cell; clamp to the outermost centres.
    const double s = std::clamp(x[a] / cell_cm - 0.5, 0.0, static_cast<double>(size[a] - 1));
    i0[a] = std::min(static_cast<int>(std::floor(s)), size[a] - 2 < 0 ? 0 : size[a] - 2);
    w[a] = s - i0[a];
    // The stencil's cells i0 and i0 + 1 (one cell only on a one-cell axis), relative to the box.
    const int last = std::min(i0[a] + 1, size[a] - 1);
    i0[a] -= box_lo[a];
    if (i0[a] < 0 || last - box_lo[a] >= box[a]) {
      ++misses;
      i0[a] = std::clamp(i0[a], 0, std::max(box[a] - 2, 0));
    }
  }
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  for (int c = 0; c < 8; ++c) {
    const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
    const double weight = (di ? w[0] : 1 - w[0]) * (dj ? w[1] : 1 - w[1]) * (dk ? w[2] : 1 - w[2]);
    const long cell =
        (i0[0] + di) + static_cast<long>(box[0]) * ((i0[1] + dj) + static_cast<long>(box[1]) * (i0[2] + dk));
    for (int a = 0; a < 3; ++a) out[a] += weight * (*u)[a * n + cell];
  }
  return out * to_cm_s;
}

void JellyTracers::advance(const JellyVelocityField& field, double dt) {
  for (auto& x : x_) {
    const Eigen::Vector3d mid = x + 0.5 * dt * field.at(x);
    x += dt * field.at(mid);
  }
}

JellyAlgae::JellyAlgae(const JellyAlgaeParams& p, const std::vector<Eigen::Vector3d>& anchors)
    : p_(p), anchors_(anchors) {
  p_.up.normalize();
  for (const auto& a : anchors)
    for (int m = 0; m <= p.links; ++m) x_.push_back(a + m * p.link_cm * p_.up);
  v_.assign(x_.size(), Eigen::Vector3d::Zero());
}

void JellyAlgae::advance(const JellyVelocityField& field, double dt) {
  const int n = std::max(1, static_cast<int>(std::ceil(dt / p_.max_substep_s)));
  const double h = dt / n;
  const int per = p_.links + 1;
  std::vector<Eigen::Vector3d> water(x_.size());
  for (size_t a = 0; a < x_.size(); ++a) water[a] = field.at(x_[a]);  // frozen over the frame
  std::vector<Eigen::Vector3d> f(x_.size());
  for (int s = 0; s < n; ++s) {
    for (size_t a = 0; a < x_.size(); ++a) f[a] = p_.drag * (water[a] - v_[a]) + p_.buoyancy * p_.up;
    for (int c = 0; c < chains(); ++c)
      for (int m = 0; m < p_.links; ++m) {
        const int a = c * per + m, b = a + 1;
        const Eigen::Vector3d d = x_[b] - x_[a];
        const double len = d.norm();
        if (len <= 0) continue;
        const Eigen::Vector3d force = p_.stiffness * (len - p_.link_cm) * d / len;
        f[a] += force;
        f[b] -= force;
      }
    for (size_t a = 0; a < x_.size(); ++a) {
      if (a % per == 0) continue;  // anchored
      v_[a] += h * f[a];
      x_[a] += h * v_[a];
    }
  }
}

void JellyAlgae::move_anchors(const std::vector<Eigen::Vector3d>& anchors, const Eigen::Vector3d& up) {
  const int per = p_.links + 1;
  for (size_t c = 0; c < anchors.size() && c < anchors_.size(); ++c) {
    anchors_[c] = anchors[c];
    x_[c * per] = anchors[c];
  }
  p_.up = up.normalized();
}

double JellyAlgae::max_tip_deflection() const {
  double out = 0;
  const int per = p_.links + 1;
  for (int c = 0; c < chains(); ++c) {
    Eigen::Vector3d d = x_[c * per + p_.links] - anchors_[c];
    d -= d.dot(p_.up) * p_.up;
    out = std::max(out, d.norm());
  }
  return out;
}

}  // namespace immerse::bodies
