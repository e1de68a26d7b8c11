#pragma once
// The shallow-water LBM step as one fused kernel: each cell pulls its populations from its
// neighbours (streaming, borders resolved on the way), takes the moments h = sum f and
// h u = sum v_a f_a, and relaxes towards Zhou's equilibrium with the force term of eq. 1:
//   f_a <- f_a - (f_a - f_a^eq) / tau + dt / (6 v^2) v_a . F.
// The force term carries no weights (sum_a v_a v_a^T = 6 v^2 I), so it adds dt F to h u; F is a
// momentum flux density (m^2/s^2) written by the body coupling.
#include <Kokkos_Core.hpp>

#include "immerse/swlbm/sw_lattice.hpp"

namespace immerse::swlbm {

// Border kinds as plain ints inside kernels (order of Border).
enum : int { kWall = 0, kPeriodic = 1, kInflow = 2, kOutflow = 3, kWave = 4 };
enum : int { kLeft = 0, kRight = 1, kBottom = 2, kTop = 3 };

template <class Device>
struct SwStep {
  using pops = Kokkos::View<double**, Kokkos::LayoutLeft, Device>;
  using field = Kokkos::View<double*, Device>;
  using border = Kokkos::View<double* [3], Device>;  // h, u, v along a border

  pops f_old, f_new;
  field h, ux, uy, fx, fy;
  border left, right, bottom, top;
  int nx, ny;
  int kind[4];
  double g, v, omega, force_coef;

  KOKKOS_INLINE_FUNCTION double from_border(const border& b, int k, int a) const {
    return sw_equilibrium(a, b(k, 0), b(k, 1), b(k, 2), g, v);
  }

  // The population arriving at (i, j) in direction a.
  KOKKOS_INLINE_FUNCTION double pull(int i, int j, int a) const {
    int si = i - lattice_cx(a), sj = j - lattice_cy(a);
    if (si < 0 || si >= nx) {
      const int side = si < 0 ? kLeft : kRight;
      switch (kind[side]) {
        case kPeriodic: si = si < 0 ? nx - 1 : 0; break;
        case kWall: return f_old(j * nx + i, lattice_opposite(a));  // half-way bounce-back
        case kOutflow: si = i; break;                                // zero gradient
        default: return from_border(side == kLeft ? left : right, j, a);
      }
    }
    if (sj < 0 || sj >= ny) {
      const int side = sj < 0 ? kBottom : kTop;
      switch (kind[side]) {
        case kPeriodic: sj = sj < 0 ? ny - 1 : 0; break;
        case kWall: return f_old(j * nx + i, lattice_opposite(a));
        case kOutflow: sj = j; break;
        default: return from_border(side == kBottom ? bottom : top, i, a);
      }
    }
    return f_old(sj * nx + si, a);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int c) const {
    const int i = c % nx, j = c / nx;
    double f[9];
    double hs = 0, mx = 0, my = 0;
    for (int a = 0; a < 9; ++a) {
      f[a] = pull(i, j, a);
      hs += f[a];
      mx += lattice_cx(a) * f[a];
      my += lattice_cy(a) * f[a];
    }
    const double u = v * mx / hs, w = v * my / hs;
    h(c) = hs, ux(c) = u, uy(c) = w;
    const double Fx = fx(c), Fy = fy(c);
    for (int a = 0; a < 9; ++a)
      f_new(c, a) = f[a] - omega * (f[a] - sw_equilibrium(a, hs, u, w, g, v)) +
                    force_coef * v * (lattice_cx(a) * Fx + lattice_cy(a) * Fy);
  }
};

// Initial populations at equilibrium with the given h, u, v.
template <class Device>
struct SwInitEquilibrium {
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> f;
  Kokkos::View<double*, Device> h, ux, uy;
  double g, v;
  KOKKOS_INLINE_FUNCTION void operator()(const int c) const {
    for (int a = 0; a < 9; ++a) f(c, a) = sw_equilibrium(a, h(c), ux(c), uy(c), g, v);
  }
};

}  // namespace immerse::swlbm
