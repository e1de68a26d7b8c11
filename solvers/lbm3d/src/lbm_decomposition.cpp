// The split of a D3Q15 lattice into blocks (lbm_decomposition.hpp): host arithmetic only.
#include "immerse/lbm3d/lbm_decomposition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "immerse/core/block_split.hpp"
#include "immerse/core/error.hpp"

namespace immerse::lbm3d {

namespace {

std::array<int, 3> size_of(const LbmParams& p) { return {p.nx, p.ny, p.nz}; }

}  // namespace

std::array<int, 3> choose_dims(const LbmParams& whole, int ranks, const std::array<int, 3>& requested) {
  const auto n = size_of(whole);
  const bool given = requested[0] > 0 || requested[1] > 0 || requested[2] > 0;
  if (given) {
    const std::array<int, 3> d = {std::max(requested[0], 1), std::max(requested[1], 1), std::max(requested[2], 1)};
    if (d[0] != 1)
      throw InputError(
          fmt::format("--decompose {}x{}x{}: x is never split (each rank keeps whole x lines for the "
                      "vectorised kernel): use 1x{}x{}",
                      d[0], d[1], d[2], d[1] * d[0], d[2]));
    if (d[1] * d[2] != ranks)
      throw InputError(
          fmt::format("--decompose {}x{}x{}: {} blocks for {} ranks: the product must equal the number "
                      "of ranks (mpirun -np {})",
                      d[0], d[1], d[2], d[1] * d[2], ranks, d[1] * d[2]));
    for (int a = 1; a < 3; ++a)
      if (d[a] > n[a])
        throw InputError(fmt::format("--decompose {}x{}x{}: {} blocks along {} of a lattice {} cells long: at most {}",
                                     d[0], d[1], d[2], d[a], a == 1 ? "y" : "z", n[a], n[a]));
    return d;
  }
  // Fewest cut cells: (py - 1) x-z planes and (pz - 1) x-y planes.
  std::array<int, 3> best = {0, 0, 0};
  long best_cut = std::numeric_limits<long>::max();
  for (int py = 1; py <= ranks; ++py) {
    if (ranks % py != 0) continue;
    const int pz = ranks / py;
    if (py > n[1] || pz > n[2]) continue;
    const long cut = static_cast<long>(py - 1) * n[2] + static_cast<long>(pz - 1) * n[1];
    if (cut < best_cut) best_cut = cut, best = {1, py, pz};
  }
  if (best[0] == 0)
    throw InputError(fmt::format("{}: a {}x{}x{} lattice cannot be split among {} ranks along y and z", whole.source,
                                 n[0], n[1], n[2], ranks));
  return best;
}

std::array<int, 2> RankLayout::block(int rank) const {
  const int per = ty * tz, node = rank / per, local = rank % per, nodes_y = dims[1] / ty;
  return {(node % nodes_y) * ty + local % ty, (node / nodes_y) * tz + local / ty};
}

int RankLayout::rank(int cy, int cz) const {
  const int node = cy / ty + (dims[1] / ty) * (cz / tz);
  return node * ty * tz + cy % ty + ty * (cz % tz);
}

RankLayout rank_layout(const LbmParams& whole, const std::array<int, 3>& dims, int per_node) {
  RankLayout best{dims, dims[1], dims[2]};  // one node
  const int py = dims[1], pz = dims[2];
  if (per_node <= 1 || per_node >= py * pz || (py * pz) % per_node != 0) return best;
  // Cells on the faces a node's tile turns toward other nodes: y faces nx x (nz / pz) each, z faces
  // nx x (ny / py) (a split axis's faces stay on the node where the tile spans it).
  auto cut = [&](int ty, int tz) {
    return (py > ty ? 2.0 * tz * whole.nz / pz : 0.0) + (pz > tz ? 2.0 * ty * whole.ny / py : 0.0);
  };
  double best_cut = -1;
  for (int ty = py; ty >= 1; --ty) {
    if (py % ty != 0 || per_node % ty != 0) continue;
    const int tz = per_node / ty;
    if (pz % tz != 0) continue;
    if (best_cut < 0 || cut(ty, tz) < best_cut) best_cut = cut(ty, tz), best = {dims, ty, tz};
  }
  return best;
}

BlockExtent block_of(const LbmParams& whole, const RankLayout& layout, int rank) {
  const auto n = size_of(whole);
  const auto b = layout.block(rank);
  const int c[3] = {0, b[0], b[1]};
  BlockExtent e;
  for (int a = 0; a < 3; ++a) split_evenly(n[a], layout.dims[a], c[a], e.lo[a], e.size[a]);
  return e;
}

LbmParams block_params(const LbmParams& whole, const RankLayout& layout, int rank) {
  const std::array<int, 3>& dims = layout.dims;
  LbmParams p = whole;
  const BlockExtent e = block_of(whole, layout, rank);
  const auto b = layout.block(rank);
  const int c[3] = {0, b[0], b[1]};
  int local[3] = {e.size[0], e.size[1], e.size[2]};
  for (int a = 1; a < 3; ++a) {
    if (dims[a] == 1) {
      p.block.origin[a] = 0;
      continue;
    }
    const bool periodic = whole.border[2 * a] == Border::periodic;
    for (int side = 0; side < 2; ++side) {
      const int next = neighbour_block(c[a], side == 0 ? -1 : 1, dims[a], periodic);
      if (next < 0) continue;  // the whole lattice's border
      int nc[3] = {0, c[1], c[2]};
      nc[a] = next;
      p.block.ghost[2 * a + side] = true;
      p.block.neighbour[2 * a + side] = layout.rank(nc[1], nc[2]);
      ++local[a];
    }
    p.block.origin[a] = e.lo[a] - (p.block.ghost[2 * a] ? 1 : 0);
  }
  p.nx = local[0];
  p.ny = local[1];
  p.nz = local[2];
  return p;
}

LbmParams shared_block_params(const LbmParams& whole, const RankLayout& layout, int rank) {
  if (layout.dims[0] != 1 || layout.dims[1] != 1)
    throw std::logic_error("shared_block_params: the split is along z only");
  LbmParams p = whole;
  const BlockExtent e = block_of(whole, layout, rank);
  p.block.planes = {e.lo[2], e.size[2]};
  const int cz = layout.block(rank)[1];
  const bool periodic = whole.border[4] == Border::periodic;
  for (int side = 0; side < 2; ++side) {
    const int next = neighbour_block(cz, side == 0 ? -1 : 1, layout.dims[2], periodic);
    p.block.plane_neighbour[side] = next < 0 ? -1 : layout.rank(0, next);
  }
  return p;
}

}  // namespace immerse::lbm3d
