#pragma once
// Cell groups of test bodies (CellGroups, as coupling/jelly_groups makes them for the bell), on
// every cell of a lattice: C1 surface, C2 rim, A inside, C3 water with a body neighbour (across
// periodic faces too), body velocities that differ from cell to cell.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::body_test {

// Group of each cell from `body(i, j, k)` (kWater where there is none), then C3 around the body
// cells, and body velocity ub(i, j, k) = `u` + 0.002 (i, -j, k) / n.
template <class Body>
lbm3d::CellGroups groups_of(const lbm3d::LbmParams& p, const std::array<float, 3>& u, Body body) {
  using namespace lbm3d;
  lbm3d::CellGroups g;
  const long n = p.cells();
  const int size[3] = {p.nx, p.ny, p.nz};
  auto index = [&](int i, int j, int k) { return i + static_cast<long>(p.nx) * (j + static_cast<long>(p.ny) * k); };
  g.group.assign(n, kWater);
  g.ub.assign(3 * n, 0.f);
  for (int k = 0; k < p.nz; ++k)
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i) {
        const long c = index(i, j, k);
        g.group[c] = body(i, j, k);
        if (!is_body(g.group[c])) continue;
        g.ub[c] = u[0] + 0.002f * i / p.nx;
        g.ub[n + c] = u[1] - 0.002f * j / p.ny;
        g.ub[2 * n + c] = u[2] + 0.002f * k / p.nz;
      }
  for (int k = 0; k < p.nz; ++k)
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i) {
        const long c = index(i, j, k);
        if (is_body(g.group[c])) continue;
        for (int q = 1; q < 15; ++q) {
          int s[3] = {i + D3Q15::cx(q), j + D3Q15::cy(q), k + D3Q15::cz(q)};
          bool inside = true;
          for (int a = 0; a < 3; ++a) {
            if (s[a] >= 0 && s[a] < size[a]) continue;
            inside = inside && p.border[2 * a + (s[a] < 0 ? 0 : 1)] == Border::periodic;
            s[a] = (s[a] + size[a]) % size[a];
          }
          if (inside && is_body(g.group[index(s[0], s[1], s[2])])) g.group[c] = kNearBody;
        }
      }
  for (long c = 0; c < n; ++c) g.region.push_back(static_cast<int>(c));
  return g;
}

// A cube centred at (ci, cj, ck): C1 shell at Chebyshev distance `radius`, C2 one cell inside it,
// A further in; moving with velocity about `u`.
inline lbm3d::CellGroups cube_body(const lbm3d::LbmParams& p, int ci, int cj, int ck, int radius = 3,
                                   const std::array<float, 3>& u = {0.02f, -0.01f, 0.005f}) {
  return groups_of(p, u, [&](int i, int j, int k) -> unsigned char {
    const int d = std::max({std::abs(i - ci), std::abs(j - cj), std::abs(k - ck)});
    return d < radius - 1    ? lbm3d::kInner
           : d == radius - 1 ? lbm3d::kInnerRim
           : d == radius     ? lbm3d::kSurface
                             : lbm3d::kWater;
  });
}

// Two bodies: a cube of radius 1 at (ci, cj, ck) (a C2 cell inside a C1 shell), and a plate two
// cells thick, C1 on the layer k = plate_k and C2 on the layer above, over i in [plate_i, plate_i
// + 4], j in [1, ny - 2]: water touches its C2 layer, which the paper's C3 rule reads.
inline lbm3d::CellGroups cube_and_plate(const lbm3d::LbmParams& p, int ci, int cj, int ck, int plate_i, int plate_k) {
  return groups_of(p, {0.01f, 0.015f, -0.01f}, [&](int i, int j, int k) -> unsigned char {
    const int d = std::max({std::abs(i - ci), std::abs(j - cj), std::abs(k - ck)});
    if (d == 0) return lbm3d::kInnerRim;
    if (d == 1) return lbm3d::kSurface;
    if (i < plate_i || i > plate_i + 4 || j < 1 || j > p.ny - 2) return lbm3d::kWater;
    return k == plate_k ? lbm3d::kSurface : k == plate_k + 1 ? lbm3d::kInnerRim : lbm3d::kWater;
  });
}

// The cells whose group or velocity differ between `before` and `after` (the region set_groups
// needs); `after` with that region.
inline lbm3d::CellGroups changed_since(const lbm3d::CellGroups& before, lbm3d::CellGroups after) {
  after.region.clear();
  const long n = static_cast<long>(after.group.size());
  for (long c = 0; c < n; ++c)
    if (before.group[c] != after.group[c] || before.ub[c] != after.ub[c] || before.ub[n + c] != after.ub[n + c] ||
        before.ub[2 * n + c] != after.ub[2 * n + c])
      after.region.push_back(static_cast<int>(c));
  return after;
}

}  // namespace immerse::body_test
