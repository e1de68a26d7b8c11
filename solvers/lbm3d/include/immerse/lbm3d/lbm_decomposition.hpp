#pragma once
// The split of a D3Q15 lattice among ranks (docs/mpi.md): one Cartesian block per rank along y and
// z, rank = cy + dims[1] cz, each block with a ghost layer toward every neighbouring block. Host
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
// The block of `rank` (rank = cy + dims[1] cz): sizes differ by at most one cell.
BlockExtent block_of(const LbmParams& whole, const std::array<int, 3>& dims, int rank);
// The local lattice of `rank`: its block plus ghost layers toward the neighbouring blocks (across
// a periodic face too), and the whole lattice's borders where the block touches them.
LbmParams block_params(const LbmParams& whole, const std::array<int, 3>& dims, int rank);

}  // namespace immerse::lbm3d
