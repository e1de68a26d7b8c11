#include "immerse/coupling/jelly_groups.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "immerse/core/host_for.hpp"

namespace immerse::coupling {

using lbm3d::D3Q15;

JellyGroups::JellyGroups(int nx, int ny, int nz, double cell_cm, double dt_s, Backend backend)
    : nx_(nx), ny_(ny), nz_(nz), cell_(cell_cm), dt_(dt_s), backend_(backend) {
  const long n = static_cast<long>(nx) * ny * nz;
  g_.group.assign(n, lbm3d::kWater);
  g_.ub.assign(3 * n, 0.f);
  samples_in_cell_.assign(n, 0);
  stats_.count[lbm3d::kWater] = n;
}

JellyGroupStats JellyGroups::update(const bodies::JellyBell& bell) {
  const long n = static_cast<long>(nx_) * ny_ * nz_;
  const double to_lattice = dt_ / cell_;  // cm/s -> cell/step
  // Each surface sample's cell (floor(x / cell), the paper's rule; -1 outside the lattice) and
  // velocity in lattice units, kept as the bell's parameter rows are evaluated: 20 bytes a sample
  // where the whole samples and their indices took 60 (~80 000 samples a step at 80^3, written out
  // and read back twice), and the box each row covers (one cell of margin for C2/C3).
  const int size[3] = {nx_, ny_, nz_};
  const auto grid = bell.sample_grid(0.5 * cell_);
  const long nv = grid[1], ns = static_cast<long>(grid[0] + 1) * nv;
  sample_cell_.resize(ns);
  sample_ub_.resize(3 * ns);
  row_box_.resize(grid[0] + 1);
  {
    // For a power-of-two cell size (the canned cases: 2, 1, 0.5 cm) 1 / cell is exact and x * (1 / cell)
    // is x / cell exactly, without the divisions' cost.
    int e;
    const bool exact_inverse = std::frexp(cell_, &e) == 0.5;
    const double inv = 1.0 / cell_, cell = cell_;
    long* const cells = sample_cell_.data();
    float* const v = sample_ub_.data();
    Box* const row_box = row_box_.data();
    bell.sample_surface_rows(0.5 * cell_, backend_, [=](long a, const bodies::JellySurfaceSample* smp, int count) {
      Box b{std::numeric_limits<int>::max(), std::numeric_limits<int>::min(), std::numeric_limits<int>::max(),
            std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
      for (int m = 0; m < count; ++m) {
        int ijk[3];
        bool in = true;
        for (int d = 0; d < 3; ++d) {
          ijk[d] = static_cast<int>(std::floor(exact_inverse ? smp[m].x[d] * inv : smp[m].x[d] / cell));
          b[2 * d] = std::min(b[2 * d], ijk[d] - 1);
          b[2 * d + 1] = std::max(b[2 * d + 1], ijk[d] + 1);
          in = in && ijk[d] >= 0 && ijk[d] < size[d];
        }
        const long k = a * nv + m;
        cells[k] = in ? ijk[0] + static_cast<long>(size[0]) * (ijk[1] + static_cast<long>(size[1]) * ijk[2]) : -1;
        for (int d = 0; d < 3; ++d) v[3 * k + d] = static_cast<float>(smp[m].v[d] * to_lattice);
      }
      row_box[a] = b;
    });
  }
  // The box the body covers now, and the one it covered before.
  Box box{nx_, -1, ny_, -1, nz_, -1};
  for (const Box& b : row_box_)
    for (int a = 0; a < 3; ++a) {
      box[2 * a] = std::min(box[2 * a], b[2 * a]);
      box[2 * a + 1] = std::max(box[2 * a + 1], b[2 * a + 1]);
    }
  for (int a = 0; a < 3; ++a) {
    box[2 * a] = std::max(box[2 * a], 0);
    box[2 * a + 1] = std::min(box[2 * a + 1], size[a] - 1);
  }
  Box all = box;
  for (int a = 0; a < 3; ++a) {
    if (previous_[2 * a] > previous_[2 * a + 1]) continue;
    all[2 * a] = std::min(all[2 * a], previous_[2 * a]);
    all[2 * a + 1] = std::max(all[2 * a + 1], previous_[2 * a + 1]);
  }
  // Forget the old groups in both boxes; every cell there is re-applied on the lattice. One z layer
  // per work item: each writes only its own cells and its own stretch of the region list.
  const int all_len = std::max(0, all[1] - all[0] + 1), all_rows = std::max(0, all[3] - all[2] + 1);
  g_.region.resize(static_cast<size_t>(all_len) * all_rows * std::max(0, all[5] - all[4] + 1));
  int* const region = g_.region.data();
  float* const ub = g_.ub.data();
  unsigned char* const group = g_.group.data();
  int* const in_cell = samples_in_cell_.data();
  {
    const int nx = nx_, ny = ny_;
    host_for(backend_, std::max(0, all[5] - all[4] + 1), [=](long layer) {
      const int k = all[4] + static_cast<int>(layer);
      for (int j = all[2]; j <= all[3]; ++j) {
        const long c0 = index(nx, ny, all[0], j, k);
        std::fill(group + c0, group + c0 + all_len, static_cast<unsigned char>(lbm3d::kWater));
        for (int a = 0; a < 3; ++a) std::fill(ub + a * n + c0, ub + a * n + c0 + all_len, 0.f);
        std::fill(in_cell + c0, in_cell + c0 + all_len, 0);
        int* r = region + (layer * all_rows + (j - all[2])) * all_len;
        for (long c = c0; c < c0 + all_len; ++c) *r++ = static_cast<int>(c);
      }
    });
  }

  // C1: cells hit by surface samples, with the samples' mean velocity (summed in sample order). The
  // box's cells are cut into one stretch per host thread; each thread scans every sample and takes
  // those in its stretch, so each cell still sums its samples in sample order.
  {
    const long first = at(0, 0, box[4]), end = std::max(first, at(0, 0, box[5] + 1));
    const long parts = backend_ == Backend::serial ? 1 : Kokkos::DefaultHostExecutionSpace().concurrency();
    const long* const cells = sample_cell_.data();
    const float* const v = sample_ub_.data();
    host_for(backend_, parts, [=](long p) {
      const long lo = first + (end - first) * p / parts, hi = first + (end - first) * (p + 1) / parts;
      for (long m = 0; m < ns; ++m) {
        const long c = cells[m];
        if (c < lo || c >= hi) continue;  // outside the lattice (-1) or another thread's
        group[c] = lbm3d::kSurface;
        ++in_cell[c];
        for (int a = 0; a < 3; ++a) ub[a * n + c] += v[3 * m + a];
      }
    });
  }
  const int bx = box[1] - box[0] + 1, by = box[3] - box[2] + 1, bz = box[5] - box[4] + 1;
  const long box_cells = bx < 1 || by < 1 || bz < 1 ? 0 : static_cast<long>(bx) * by * bz;
  const long box_rows = box_cells / std::max(1, bx);  // x rows of the box: the unit of parallel work
  auto row_of = [=](long r, int& j, int& k) {
    j = box[2] + static_cast<int>(r % by);
    k = box[4] + static_cast<int>(r / by);
  };
  // C1 cells: mean velocity, and the propulsion's inward speeds summed in box order.
  JellyGroupStats st;
  const Eigen::Vector3d axis = bell.axis(), origin = bell.origin();
  for (int k = box[4]; k <= box[5]; ++k)
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) {
        const long c = at(i, j, k);
        if (group[c] != lbm3d::kSurface) continue;
        for (int a = 0; a < 3; ++a) ub[a * n + c] /= static_cast<float>(in_cell[c]);
        // Inward radial speed at the cell centre (positive while the bell closes).
        const Eigen::Vector3d centre((i + 0.5) * cell_, (j + 0.5) * cell_, (k + 0.5) * cell_);
        Eigen::Vector3d radial = centre - origin;
        radial -= radial.dot(axis) * axis;
        const Eigen::Vector3d v(ub[c] / to_lattice, ub[n + c] / to_lattice, ub[2 * n + c] / to_lattice);
        if (radial.norm() > 1e-9) st.inward_speed_sum += -v.dot(radial.normalized());
        st.speed_sum += v.norm();
        st.max_surface_speed = std::max(st.max_surface_speed, v.norm());
      }
  // Inside cells: centre inside the closed profile (each cell writes only its own group).
  const bodies::JellyProfile profile = bell.profile(96);
  {
    const bodies::JellyBell* b = &bell;
    const bodies::JellyProfile* pr = &profile;
    const int nx = nx_, ny = ny_;
    const double cell = cell_;
    const int i0 = box[0], i1 = box[1];
    host_for(backend_, box_rows, [=](long r) {
      int j, k;
      row_of(r, j, k);
      for (int i = i0; i <= i1; ++i) {
        const long c = index(nx, ny, i, j, k);
        if (group[c] == lbm3d::kSurface) continue;
        if (b->inside(Eigen::Vector3d((i + 0.5) * cell, (j + 0.5) * cell, (k + 0.5) * cell), *pr))
          group[c] = lbm3d::kInner;
      }
    });
  }
  // C2 / A and C3 / B from the D3Q15 neighbours, visited from the body cells (a few thousand) instead of
  // from every cell of the box: D3Q15 is symmetric (opposite(q)), so "a water cell of the box has a body
  // neighbour (C1 or inside)" is "it is a box neighbour of a body cell". An inside cell becomes C2 (its
  // velocity the mean of its C1 neighbours') or A (the swimming velocity). The marks made on the way do
  // not change what later cells read: C3 is marked only on water (never body), C2 replaces an inside mark
  // (still body) and C1 does not change, so the order of the sweep does not matter.
  // Three passes over the box's z layers, k = box[4] + colour + 3 m, each pass's layers in parallel: a
  // body cell of layer k reads and writes only layers k - 1 .. k + 1, so layers three apart share no
  // cell, and the order does not matter (above): the groups of a serial sweep on every backend.
  const Eigen::Vector3d swim = bell.swim_speed() * to_lattice * axis;
  std::array<long, 15> offset;
  for (int q = 0; q < 15; ++q)
    offset[q] = D3Q15::cx(q) + static_cast<long>(nx_) * (D3Q15::cy(q) + static_cast<long>(ny_) * D3Q15::cz(q));
  const int nx = nx_, ny = ny_;
  auto mark_layer = [=](int k) {
    for (int j = box[2]; j <= box[3]; ++j)
      for (int i = box[0]; i <= box[1]; ++i) {
        const long c = index(nx, ny, i, j, k);
        const unsigned char g = group[c];
        if (g != lbm3d::kSurface && g != lbm3d::kInner) continue;
        const bool interior = i > box[0] && j > box[2] && k > box[4] && i < box[1] && j < box[3] && k < box[5];
        int c1 = 0;
        Eigen::Vector3d u = Eigen::Vector3d::Zero();
        for (int q = 1; q < 15; ++q) {
          if (!interior) {
            const int si = i + D3Q15::cx(q), sj = j + D3Q15::cy(q), sk = k + D3Q15::cz(q);
            if (si < box[0] || sj < box[2] || sk < box[4] || si > box[1] || sj > box[3] || sk > box[5]) continue;
          }
          const long s = c + offset[q];
          const unsigned char gs = group[s];
          if (gs == lbm3d::kWater) {
            group[s] = lbm3d::kNearBody;
          } else if (gs == lbm3d::kSurface && g == lbm3d::kInner) {
            ++c1;
            u += Eigen::Vector3d(ub[s], ub[n + s], ub[2 * n + s]);
          }
        }
        if (g != lbm3d::kInner) continue;
        if (c1 > 0) {
          group[c] = lbm3d::kInnerRim;
          u /= c1;
        } else {
          u = swim;
        }
        for (int a = 0; a < 3; ++a) ub[a * n + c] = static_cast<float>(u[a]);
      }
  };
  for (int colour = 0; colour < 3; ++colour)
    host_for(backend_, std::max(0, bz - colour + 2) / 3,
             [=](long m) { mark_layer(box[4] + colour + 3 * static_cast<int>(m)); });
  // Cells per group: per z layer in parallel (integers: any order gives the same sums).
  layer_counts_.assign(static_cast<size_t>(std::max(0, bz)), {0, 0, 0, 0, 0});
  {
    std::array<long, 5>* const counts = layer_counts_.data();
    host_for(backend_, std::max(0, bz), [=](long layer) {
      const int k = box[4] + static_cast<int>(layer);
      for (int j = box[2]; j <= box[3]; ++j) {
        const unsigned char* row = group + index(nx, ny, box[0], j, k);
        for (int i = 0; i < bx; ++i) ++counts[layer][row[i]];
      }
    });
  }
  for (int g = 0; g < 5; ++g) st.count[g] = 0;
  for (const auto& c : layer_counts_)
    for (int g = 0; g < 5; ++g) st.count[g] += c[g];
  st.count[lbm3d::kWater] += n - box_cells;
  previous_ = box;
  stats_ = st;
  return st;
}

}  // namespace immerse::coupling
