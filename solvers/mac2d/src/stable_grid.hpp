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

}  // namespace immerse::mac2d
