#pragma once
// The index map of the Stable Fluids arrays: (nx + 2) x (ny + 2) values, x fastest, a ghost layer
// all round (interior cells 1 <= i <= nx, 1 <= j <= ny), cell size h.
#include <Kokkos_Core.hpp>

namespace immerse::mac2d {

struct StableGrid {
  int nx, ny, w;
  double h;
  KOKKOS_INLINE_FUNCTION int at(int i, int j) const { return j * w + i; }
};

// The multigrid levels' index map (stable_multigrid.hpp), colour-split: each row's even-i and odd-i
// cells in two halves, so that one colour of a row, its east and west neighbours (in the other half)
// and its faces are contiguous runs. Half 0 holds i = 0, 2, ..., half 1 holds i = 1, 3, ...: cell i
// at index (i - 2 + (i & 1)) / 2 of its half (the ghost i = 0 at -1), so either colour's interior
// cells start at index 0. A half has room for indices -kPad .. half - kPad - 1 (at least -1 .. nx / 2)
// and is a whole number of 64-byte vectors of floats; w is a row's stride.
struct SplitGrid {
  static constexpr int kPad = 16;
  int nx, ny, half, w;
  double h;
  static SplitGrid of(int nx, int ny, double h) {
    const int half = (nx / 2 + kPad + 1 + 15) / 16 * 16;
    return {nx, ny, half, 2 * half, h};
  }
  // Row j's half 0 at index 0 (its half 1 is half further on).
  KOKKOS_INLINE_FUNCTION int row(int j) const { return j * w + kPad; }
  KOKKOS_INLINE_FUNCTION int at(int i, int j) const { return row(j) + (i & 1) * half + ((i - 2 + (i & 1)) >> 1); }
  // Values to allocate: every row, and a vector's room past the last for reads that run over.
  size_t size() const { return static_cast<size_t>(ny + 2) * w + 2 * kPad; }
};

}  // namespace immerse::mac2d
