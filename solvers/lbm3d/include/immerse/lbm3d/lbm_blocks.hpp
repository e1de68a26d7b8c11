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
#include "immerse/lbm3d/lbm_decomposition.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::lbm3d {

// The layout of `dims` on the ranks of `comm` (rank_layout with its ranks per node): the one
// make_lbm_flow_on_ranks lays the blocks out by.
RankLayout rank_layout_on(const LbmParams& whole, const std::array<int, 3>& dims, const Comm& comm);

// The lattice on the ranks of `comm`: the ordinary solver on one rank without a requested split,
// else this rank's block of the split (`requested`: --decompose, zeros to choose).
std::unique_ptr<LbmFlow> make_lbm_flow_on_ranks(Backend backend, const LbmParams& whole, Comm& comm,
                                                const std::array<int, 3>& requested);

}  // namespace immerse::lbm3d
