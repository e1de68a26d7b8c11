#pragma once
// The D3Q15 lattice split among the ranks of an MPI run (docs/mpi.md): one Cartesian block per rank,
// split along y and z only (x lines stay whole for the host kernel's SIMD runs), each block with a
// one-cell ghost layer toward every neighbouring block (LbmHalo). The flow such a split makes
// behaves as the whole lattice's LbmFlow on every rank: its steps update each rank's block, and
// every query (macro, mass, health) answers for the whole lattice, gathered from all ranks, with
// the sums added in the whole lattice's order, so the result is the same on 1 or N ranks.
#include <array>
#include <memory>

#include "immerse/core/comm.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

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

// The lattice on the ranks of `comm`: the ordinary solver on one rank without a requested split,
// else this rank's block of the split (`requested`: --decompose, zeros to choose).
std::unique_ptr<LbmFlow> make_lbm_flow_on_ranks(Backend backend, const LbmParams& whole, Comm& comm,
                                                const std::array<int, 3>& requested);

}  // namespace immerse::lbm3d
