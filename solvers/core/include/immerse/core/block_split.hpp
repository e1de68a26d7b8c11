#pragma once
// One axis of a lattice cut into blocks for the ranks of an MPI run (lbm3d and swlbm): the cells of
// each block, and each block's neighbours along the axis.
#include <algorithm>

namespace immerse {

// Block `part` of `n` cells cut into `parts` blocks whose sizes differ by at most one cell:
// cells [lo, lo + size).
inline void split_evenly(int n, int parts, int part, int& lo, int& size) {
  const int base = n / parts, extra = n % parts;
  size = base + (part < extra ? 1 : 0);
  lo = part * base + std::min(part, extra);
}

// The block next to `part` on `side` (-1 below, +1 above) of `parts` blocks in a row, across the
// ends when the axis is periodic; -1 past an end of a non-periodic axis.
inline int neighbour_block(int part, int side, int parts, bool periodic) {
  const int next = part + side;
  if (!periodic && (next < 0 || next >= parts)) return -1;
  return (next + parts) % parts;
}

}  // namespace immerse
