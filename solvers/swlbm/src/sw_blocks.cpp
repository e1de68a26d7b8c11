#include "immerse/swlbm/sw_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "immerse/core/block_split.hpp"
#include "immerse/core/error.hpp"

namespace immerse::swlbm {

SwParams sw_block_params(const SwParams& whole, int ranks, int rank, const std::array<int, 3>& requested) {
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
  for (int side = 0; side < 2; ++side) {
    const int next = neighbour_block(rank, side == 0 ? -1 : 1, ranks, whole.bottom == Border::periodic);
    if (next < 0) continue;  // the whole lattice's border
    p.block.ghost[side] = true;
    p.block.neighbour[side] = next;
  }
  p.block.origin_y = lo - (p.block.ghost[0] ? 1 : 0);
  p.ny = rows + (p.block.ghost[0] ? 1 : 0) + (p.block.ghost[1] ? 1 : 0);
  return p;
}

std::unique_ptr<SwFlow> make_sw_flow_on_ranks(Backend backend, const SwParams& whole, Comm& comm,
                                              const std::array<int, 3>& requested) {
  return make_sw_flow(backend, sw_block_params(whole, comm.size(), comm.rank(), requested));
}

}  // namespace immerse::swlbm
