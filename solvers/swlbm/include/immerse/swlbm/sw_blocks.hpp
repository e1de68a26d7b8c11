#pragma once
// The shallow-water lattice split among the ranks of an MPI run (docs/mpi.md): one block of whole
// rows per rank, along y only (x rows stay whole for the row kernel's vectorised loop), each with a
// ghost row toward every neighbouring block (SwHalo), or, for ranks of one node, the whole lattice
// in memory they share, each rank updating its rows where they lie (SwBlock::rows). A block's solver answers every
// query for the whole lattice (SwSolver), so a split run gives the numbers of one process.
#include <array>
#include <memory>

#include "immerse/core/comm.hpp"
#include "immerse/swlbm/sw_flow.hpp"

namespace immerse::swlbm {

// The parameters of rank `rank`'s block when `whole` is split among `ranks` ranks along y
// (`requested`: --decompose, 1xNx1, or zeros to split along y): ghost rows, or where `shared` the
// whole lattice with this rank's rows (SwBlock). InputError naming --decompose when the request
// does not fit (an x or z split, a product other than `ranks`, more blocks than rows).
SwParams sw_block_params(const SwParams& whole, int ranks, int rank, const std::array<int, 3>& requested,
                         bool shared = false);

// Whether the ranks of `comm` share the lattice's memory: several ranks, all on one node
// (Comm::one_node), on a host backend, the BGK collision, room for the lattice in the node's shared
// memory (else rank 0 says so), and as SwBlock::share says: always, or (automatic, unless
// IMMERSE_SHARE_LATTICE says otherwise) where the shared memory gets 2 MiB pages. Collective.
bool sw_ranks_share(Backend backend, const SwParams& whole, Comm& comm);

// This rank's parameters on the ranks of `comm`: the whole lattice on one rank, else its block,
// with shared rows where sw_ranks_share says so. Collective.
SwParams sw_params_on_ranks(Backend backend, const SwParams& whole, Comm& comm, const std::array<int, 3>& requested);

// The lattice on the ranks of `comm` (sw_params_on_ranks).
std::unique_ptr<SwFlow> make_sw_flow_on_ranks(Backend backend, const SwParams& whole, Comm& comm,
                                              const std::array<int, 3>& requested);

}  // namespace immerse::swlbm
