#pragma once
// Lattices for the tests of a lattice split into blocks (lbm_blocks.hpp, lbm_halo.hpp): every border
// kind and a body force, with a flow that crosses the block faces in every direction, and the
// populations a whole lattice holds in one block's cells.
#include <string>
#include <vector>

#include "immerse/lbm3d/lbm_blocks.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::split_test {

struct SplitCase {
  std::string name;
  lbm3d::LbmParams params;
};

// 12 x 10 x 8 cells (small enough to run 4 ranks oversubscribed in well under a second), tau 0.7.
inline std::vector<SplitCase> split_cases() {
  using lbm3d::Border;
  lbm3d::LbmParams base;
  base.nx = 12;
  base.ny = 10;
  base.nz = 8;
  base.tau = 0.7;
  base.source = "split test";
  // A vortex-like flow with components along every axis: every population crosses every face.
  base.init_ux = "0.03 * sin(2 * pi * y / 10) * cos(2 * pi * z / 8)";
  base.init_uy = "0.02 * sin(2 * pi * z / 8 + 0.3) + 0.01 * cos(2 * pi * x / 12)";
  base.init_uz = "0.02 * cos(2 * pi * y / 10)";
  base.init_rho = "1 + 0.01 * sin(2 * pi * (x / 12 + y / 10 + z / 8))";
  std::vector<SplitCase> out;
  out.push_back({"periodic", base});
  auto walls = base;  // a force-driven duct: bounce-back walls at both y and z faces
  walls.border = {Border::periodic,    Border::periodic,    Border::bounce_back,
                  Border::bounce_back, Border::bounce_back, Border::bounce_back};
  walls.force = {2e-5, 1e-5, -1e-5};
  out.push_back({"walls_forced", walls});
  auto open = base;  // inflow at y_min, outflow at y_max, walls in z
  open.border = {Border::periodic, Border::periodic,    Border::velocity,
                 Border::outflow,  Border::bounce_back, Border::bounce_back};
  open.inlet_velocity = {0.01, 0.03, 0};
  out.push_back({"inlet_outflow", open});
  auto mixed = base;  // periodic y, outflow z
  mixed.border[4] = mixed.border[5] = Border::outflow;
  mixed.force = {0, 1e-5, 0};
  out.push_back({"periodic_y_outflow_z", mixed});
  return out;
}

// The whole lattice's raw populations (LbmFlow::raw_populations of an unsplit lattice) of the
// cells of block `e`, in the order a block's own raw_populations lists them.
inline std::vector<double> block_from_whole(const std::vector<double>& whole, const lbm3d::LbmParams& p,
                                            const lbm3d::BlockExtent& e) {
  const long n = p.cells();
  std::vector<double> out;
  for (int q = 0; q < 15; ++q)
    for (int k = e.lo[2]; k < e.lo[2] + e.size[2]; ++k)
      for (int j = e.lo[1]; j < e.lo[1] + e.size[1]; ++j)
        for (int i = e.lo[0]; i < e.lo[0] + e.size[0]; ++i)
          out.push_back(whole[q * n + i + static_cast<long>(p.nx) * (j + static_cast<long>(p.ny) * k)]);
  return out;
}

// `whole` as one block of itself: ghost layers on its four y and z faces, filled from this very
// process (neighbour rank 0 of a one-process Comm), so across its periodic faces.
inline lbm3d::LbmParams self_ghosted(const lbm3d::LbmParams& whole) {
  lbm3d::LbmParams block = whole;
  block.ny += 2;
  block.nz += 2;
  block.block.origin = {0, -1, -1};
  for (int face = 2; face < 6; ++face) block.block.ghost[face] = true, block.block.neighbour[face] = 0;
  return block;
}

// The groups of a block's local lattice (whole groups `g`, every cell in the region): local cell
// (i, j, k) is the whole lattice's cell origin + (i, j, k), wrapped around periodically.
inline lbm3d::CellGroups block_groups(const lbm3d::CellGroups& g, const lbm3d::LbmParams& whole,
                                      const lbm3d::LbmParams& block) {
  lbm3d::CellGroups out;
  const long n = block.cells(), wn = whole.cells();
  out.group.resize(n);
  out.ub.resize(3 * n);
  const auto& o = block.block.origin;
  for (int k = 0; k < block.nz; ++k)
    for (int j = 0; j < block.ny; ++j)
      for (int i = 0; i < block.nx; ++i) {
        const int wi = (i + o[0] + whole.nx) % whole.nx, wj = (j + o[1] + whole.ny) % whole.ny,
                  wk = (k + o[2] + whole.nz) % whole.nz;
        const long c = i + static_cast<long>(block.nx) * (j + static_cast<long>(block.ny) * k);
        const long wc = wi + static_cast<long>(whole.nx) * (wj + static_cast<long>(whole.ny) * wk);
        out.group[c] = g.group[wc];
        for (int a = 0; a < 3; ++a) out.ub[a * n + c] = g.ub[a * wn + wc];
        out.region.push_back(static_cast<int>(c));
      }
  return out;
}

// Number of entries that differ in any bit (NaN equal to NaN).
inline long bit_differences(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return -1;
  long d = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i]) && !(a[i] != a[i] && b[i] != b[i])) ++d;
  return d;
}

}  // namespace immerse::split_test
