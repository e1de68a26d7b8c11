#include "immerse/coupling/jelly_groups.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::coupling {

using lbm3d::D3Q15;

JellyGroups::JellyGroups(int nx, int ny, int nz, double cell_cm, double dt_s)
    : nx_(nx), ny_(ny), nz_(nz), cell_(cell_cm), dt_(dt_s) {
  const long n = static_cast<long>(nx) * ny * nz;
  g_.group.assign(n, lbm3d::kWater);
  g_.ub.assign(3 * n, 0.f);
  samples_in_cell_.assign(n, 0);
  stats_.count[lbm3d::kWater] = n;
}

JellyGroupStats JellyGroups::update(const bodies::JellyBell& bell) {
  const long n = static_cast<long>(nx_) * ny_ * nz_;
  const double to_lattice = dt_ / cell_;  // cm/s -> cell/step
  const auto samples = bell.sample_surface(0.5 * cell_);

  // The box the body covers now (one cell of margin for C2/C3), and the one it covered before.
  Box box{nx_, -1, ny_, -1, nz_, -1};
  for (const auto& s : samples)
    for (int a = 0; a < 3; ++a) {
      const int c = static_cast<int>(std::floor(s.x[a] / cell_));
      box[2 * a] = std::min(box[2 * a], c - 1), box[2 * a + 1] = std::max(box[2 * a + 1], c + 1);
    }
  const int size[3] = {nx_, ny_, nz_};
  for (int a = 0; a < 3; ++a) box[2 * a] = std::max(box[2 * a], 0), box[2 * a + 1] = std::min(box[2 * a + 1], size[a] - 1);
  Box all = box;
  for (int a = 0; a < 3; ++a) {
    if (previous_[2 * a] > previous_[2 * a + 1]) continue;
    all[2 * a] = std::min(all[2 * a], previous_[2 * a]), all[2 * a + 1] = std::max(all[2 * a + 1], previous_[2 * a + 1]);
  }
  // Forget the old groups in both boxes; every cell there is re-applied on the lattice.
  g_.region.clear();
  for (int k = all[4]; k <= all[5]; ++k)
    for (int j = all[2]; j <= all[3]; ++j)
      for (int i = all[0]; i <= all[1]; ++i) {
        const long c = at(i, j, k);
        g_.group[c] = lbm3d::kWater;
        g_.ub[c] = g_.ub[n + c] = g_.ub[2 * n + c] = 0.f;
        samples_in_cell_[c] = 0;
        g_.region.push_back(static_cast<int>(c));
      }

  // C1: cells hit by surface samples, with the samples' mean velocity.
  for (const auto& s : samples) {
    const int i = static_cast<int>(std::floor(s.x[0] / cell_)), j = static_cast<int>(std::floor(s.x[1] / cell_)),
              k = static_cast<int>(std::floor(s.x[2] / cell_));
    if (i < 0 || j < 0 || k < 0 || i >= nx_ || j >= ny_ || k >= nz_) continue;
    const long c = at(i, j, k);
    g_.group[c] = lbm3d::kSurface;
    ++samples_in_cell_[c];
    for (int a = 0; a < 3; ++a) g_.ub[a * n + c] += static_cast<float>(s.v[a] * to_lattice);
  }
  JellyGroupStats st;
  const Eigen::Vector3d axis = bell.axis(), origin = bell.origin();
  for (int k = box[4]; k <= box[5]; ++k)
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) {
        const long c = at(i, j, k);
        if (g_.group[c] != lbm3d::kSurface) continue;
        for (int a = 0; a < 3; ++a) g_.ub[a * n + c] /= static_cast<float>(samples_in_cell_[c]);
        // Inward radial speed at the cell centre (positive while the bell closes).
        const Eigen::Vector3d centre((i + 0.5) * cell_, (j + 0.5) * cell_, (k + 0.5) * cell_);
        Eigen::Vector3d radial = centre - origin;
        radial -= radial.dot(axis) * axis;
        const Eigen::Vector3d v(g_.ub[c] / to_lattice, g_.ub[n + c] / to_lattice, g_.ub[2 * n + c] / to_lattice);
        if (radial.norm() > 1e-9) st.inward_speed_sum += -v.dot(radial.normalized());
        st.max_surface_speed = std::max(st.max_surface_speed, v.norm());
      }

  // Inside cells: centre inside the closed profile.
  const auto profile = bell.profile(96);
  for (int k = box[4]; k <= box[5]; ++k)
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) {
        const long c = at(i, j, k);
        if (g_.group[c] == lbm3d::kSurface) continue;
        if (bell.inside(Eigen::Vector3d((i + 0.5) * cell_, (j + 0.5) * cell_, (k + 0.5) * cell_), profile))
          g_.group[c] = lbm3d::kInner;
      }
  // C2 / A and C3 / B from the D3Q15 neighbours.
  const Eigen::Vector3d swim = bell.swim_speed() * to_lattice * axis;
  for (int k = box[4]; k <= box[5]; ++k)
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) {
        const long c = at(i, j, k);
        const unsigned char g = g_.group[c];
        if (g == lbm3d::kSurface) continue;
        int c1 = 0;
        bool body_neighbour = false;
        Eigen::Vector3d u = Eigen::Vector3d::Zero();
        for (int q = 1; q < 15; ++q) {
          const int si = i + D3Q15::cx(q), sj = j + D3Q15::cy(q), sk = k + D3Q15::cz(q);
          if (si < 0 || sj < 0 || sk < 0 || si >= nx_ || sj >= ny_ || sk >= nz_) continue;
          const long s = at(si, sj, sk);
          const unsigned char gs = g_.group[s];
          if (gs == lbm3d::kSurface) {
            ++c1;
            u += Eigen::Vector3d(g_.ub[s], g_.ub[n + s], g_.ub[2 * n + s]);
          }
          // kInner marks every inside cell at this point (C2 is decided in this same sweep).
          body_neighbour = body_neighbour || gs == lbm3d::kSurface || gs == lbm3d::kInner || gs == lbm3d::kInnerRim;
        }
        if (g == lbm3d::kInner) {
          if (c1 > 0) {
            g_.group[c] = lbm3d::kInnerRim;
            u /= c1;
          } else {
            u = swim;
          }
          for (int a = 0; a < 3; ++a) g_.ub[a * n + c] = static_cast<float>(u[a]);
        } else if (body_neighbour) {
          g_.group[c] = lbm3d::kNearBody;
        }
      }
  for (int g = 0; g < 5; ++g) st.count[g] = 0;
  for (int k = box[4]; k <= box[5]; ++k)
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) ++st.count[g_.group[at(i, j, k)]];
  const long box_cells = static_cast<long>(box[1] - box[0] + 1) * (box[3] - box[2] + 1) * (box[5] - box[4] + 1);
  st.count[lbm3d::kWater] += n - box_cells;
  previous_ = box;
  stats_ = st;
  return st;
}

}  // namespace immerse::coupling
