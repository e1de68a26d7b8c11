#include "immerse/swlbm/sw_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "immerse/core/block_split.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/node_shared.hpp"
#include "immerse/swlbm/stability.hpp"

namespace immerse::swlbm {

SwParams sw_block_params(const SwParams& whole, int ranks, int rank, const std::array<int, 3>& requested, bool shared) {
  const bool given = requested[0] > 0 || requested[1] > 0 || requested[2] > 0;
  if (given && (std::max(requested[0], 1) != 1 || std::max(requested[2], 1) != 1 || requested[1] != ranks))
    throw InputError(
        fmt::format("--decompose {}x{}x{}: a shallow-water lattice is split along y only, among all "
                    "ranks: use 1x{}x1",
                    requested[0], requested[1], requested[2], ranks));
  if (ranks > whole.ny)
    throw InputError(
        fmt::format("{}: {} rows cannot be split among {} ranks: at most {}", whole.source, whole.ny, ranks, whole.ny));
  SwParams p = whole;
  if (ranks == 1) return p;
  int lo, rows;
  split_evenly(whole.ny, ranks, rank, lo, rows);
  p.block.whole_ny = whole.ny;
  const bool periodic = whole.bottom == Border::periodic;
  if (shared) {  // the whole lattice, of which this rank updates its rows
    p.block.rows = {lo, rows};
    for (int side = 0; side < 2; ++side)
      p.block.row_neighbour[side] = neighbour_block(rank, 2 * side - 1, ranks, periodic);
    return p;
  }
  for (int side = 0; side < 2; ++side) {
    const int next = neighbour_block(rank, 2 * side - 1, ranks, periodic);
    if (next < 0) continue;  // the whole lattice's border
    p.block.ghost[side] = true;
    p.block.neighbour[side] = next;
  }
  p.block.origin_y = lo - (p.block.ghost[0] ? 1 : 0);
  p.ny = rows + (p.block.ghost[0] ? 1 : 0) + (p.block.ghost[1] ? 1 : 0);
  return p;
}

bool sw_ranks_share(Backend backend, const SwParams& whole, Comm& comm) {
  const NodeSharing share = whole.block.share == NodeSharing::automatic ? node_sharing_from_env() : whole.block.share;
  // The corrected collision's gradients read the neighbours' fields of the step's start, copied at
  // each step's start: a word per step would not order that copy against the neighbour's reads.
  if (share == NodeSharing::never || comm.size() == 1 || !comm.one_node() || backend == Backend::cuda ||
      whole.collision != Collision::bgk)
    return false;
  if (!node_has_room(comm, sw_lattice_bytes(whole), "the shallow-water lattice")) return false;
  // In 4 KiB pages the shared rows' step loses more than the exchange it saves against ghost rows,
  // whose private arrays get 2 MiB pages (docs/mpi.md): by itself the solver shares them only in
  // 2 MiB pages.
  return share == NodeSharing::always || shared_huge_page_share(comm) >= 0.5;
}

SwParams sw_params_on_ranks(Backend backend, const SwParams& whole, Comm& comm, const std::array<int, 3>& requested) {
  if (comm.size() == 1) return sw_block_params(whole, 1, 0, requested);
  return sw_block_params(whole, comm.size(), comm.rank(), requested, sw_ranks_share(backend, whole, comm));
}

std::unique_ptr<SwFlow> make_sw_flow_on_ranks(Backend backend, const SwParams& whole, Comm& comm,
                                              const std::array<int, 3>& requested) {
  return make_sw_flow(backend, sw_params_on_ranks(backend, whole, comm, requested));
}

}  // namespace immerse::swlbm
