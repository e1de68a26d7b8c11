#pragma once
// The split of a D3Q15 lattice among ranks (docs/mpi.md): one Cartesian block per rank along y and
// z, each block with a ghost layer toward every neighbouring block. Host
// arithmetic without Kokkos, for the solver (lbm_blocks.hpp) and for models of larger runs.
#include <array>

#include "immerse/lbm3d/lbm_params.hpp"

namespace immerse::lbm3d {

// Cells lo <= (i, j, k) < lo + size of the whole lattice.
struct BlockExtent {
  std::array<int, 3> lo = {0, 0, 0}, size = {0, 0, 0};
};

// Ranks along x, y, z for `ranks` ranks: `requested` where given (0: choose), else the split of y
// and z with the fewest cut faces. Throws InputError naming `--decompose` when the request does not
// fit (x split, a product other than `ranks`, a block thinner than one cell).
std::array<int, 3> choose_dims(const LbmParams& whole, int ranks, const std::array<int, 3>& requested);

// Which block (cy, cz) each rank holds. Ranks fill the nodes `per_node` at a time in rank order
// (mpirun's default mapping), and a node's ranks hold a tile of ty x tz blocks, rank = node
// per_node + ly + ty lz, the nodes' tiles laid y first. On one node (the tile is the whole split)
// that is rank = cy + dims[1] cz.
struct RankLayout {
  std::array<int, 3> dims = {1, 1, 1};
  int ty = 1, tz = 1;
  std::array<int, 2> block(int rank) const;  // {cy, cz}
  int rank(int cy, int cz) const;
};
// The layout of `dims` on nodes of `per_node` ranks: the tile that divides the split with the
// fewest cells on block faces toward other nodes (ties: the longer run along y, as rank order
// would lay it); one node's order where no tile divides the split or `per_node` is 1 or unknown.
RankLayout rank_layout(const LbmParams& whole, const std::array<int, 3>& dims, int per_node);

// The block of `rank`: sizes differ by at most one cell.
BlockExtent block_of(const LbmParams& whole, const RankLayout& layout, int rank);
// The local lattice of `rank`: its block plus ghost layers toward the neighbouring blocks (across
// a periodic face too), and the whole lattice's borders where the block touches them.
LbmParams block_params(const LbmParams& whole, const RankLayout& layout, int rank);
// The local lattice of `rank` where the node's ranks share the populations (LbmBlock::planes; the
// split along z only): the whole lattice, of which `rank` updates its block's z planes.
LbmParams shared_block_params(const LbmParams& whole, const RankLayout& layout, int rank);

}  // namespace immerse::lbm3d
