#pragma once
// The D2Q9 shallow-water lattice in the paper's velocity order (the paper's sec. 2.1): 0 rest, 1 (v,0),
// 2 (v,-v), 3 (0,-v), 4 (-v,-v), 5 (-v,0), 6 (-v,v), 7 (0,v), 8 (v,v); Zhou's (2004) equilibria.
// Plain arithmetic, usable inside kernels on every backend.
#include <Kokkos_Core.hpp>

namespace immerse::swlbm {

KOKKOS_INLINE_FUNCTION int lattice_cx(int a) {
  constexpr int c[9] = {0, 1, 1, 0, -1, -1, -1, 0, 1};
  return c[a];
}
KOKKOS_INLINE_FUNCTION int lattice_cy(int a) {
  constexpr int c[9] = {0, 0, -1, -1, -1, 0, 1, 1, 1};
  return c[a];
}
// The reverse direction: a + 4 modulo the ring 1..8.
KOKKOS_INLINE_FUNCTION int lattice_opposite(int a) { return a == 0 ? 0 : (a + 3) % 8 + 1; }
// w_a = 1 on the axes (odd a), 1/4 on the diagonals (even a) (eq. 2).
KOKKOS_INLINE_FUNCTION double lattice_weight(int a) { return (a & 1) ? 1.0 : 0.25; }

// f_a^eq of eq. 2 for depth h, velocity (ux, uy), gravity g, lattice speed v.
KOKKOS_INLINE_FUNCTION double sw_equilibrium(int a, double h, double ux, double uy, double g, double v) {
  const double v2 = v * v, u2 = ux * ux + uy * uy;
  if (a == 0) return h * (1.0 - 5.0 * g * h / (6.0 * v2) - 2.0 * u2 / (3.0 * v2));
  const double eu = v * (lattice_cx(a) * ux + lattice_cy(a) * uy);
  return lattice_weight(a) * h * (g * h / (6.0 * v2) + eu / (3.0 * v2) + eu * eu / (2.0 * v2 * v2) - u2 / (6.0 * v2));
}

}  // namespace immerse::swlbm
