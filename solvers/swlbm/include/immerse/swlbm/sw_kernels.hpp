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
  double g6v2;  // g / (6 v^2)

  KOKKOS_INLINE_FUNCTION double from_border(const border& b, int k, int a) const {
    return sw_equilibrium(a, b(k, 0), b(k, 1), b(k, 2), g, v);
  }

  // The population arriving at (i, j) in direction a.
  KOKKOS_INLINE_FUNCTION double pull(int i, int j, int a) const {
    int si = i - lattice_cx(a), sj = j - lattice_cy(a);
    if (si < 0 || si >= nx) {
      const int side = si < 0 ? kLeft : kRight;
      switch (kind[side]) {
        case kPeriodic:
          si = si < 0 ? nx - 1 : 0;
          break;
        case kWall:
          return f_old(j * nx + i, lattice_opposite(a));  // half-way bounce-back
        case kOutflow:
          si = i;
          break;  // zero gradient
        default:
          return from_border(side == kLeft ? left : right, j, a);
      }
    }
    if (sj < 0 || sj >= ny) {
      const int side = sj < 0 ? kBottom : kTop;
      switch (kind[side]) {
        case kPeriodic:
          sj = sj < 0 ? ny - 1 : 0;
          break;
        case kWall:
          return f_old(j * nx + i, lattice_opposite(a));
        case kOutflow:
          sj = j;
          break;
        default:
          return from_border(side == kBottom ? bottom : top, i, a);
      }
    }
    return f_old(sj * nx + si, a);
  }

  // One cell per work item (devices) ...
  KOKKOS_INLINE_FUNCTION void operator()(const int c) const { cell(c % nx, c / nx, c); }
  // ... or one row per work item (host spaces): the row's interior is one branch-free loop the
  // compiler vectorises across cells; the two end cells and the first/last rows take the border path.
  struct Rows {
    SwStep k;
    KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
      const int nx = k.nx, row = j * nx;
      if (j == 0 || j == k.ny - 1 || nx < 3) {
        for (int i = 0; i < nx; ++i) k.cell(i, j, row + i);
        return;
      }
      k.cell(0, j, row);
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
      for (int i = 1; i < nx - 1; ++i) k.interior(row + i);
      k.cell(nx - 1, j, row + nx - 1);
    }
  };

  // Any cell: populations pulled through the border rules where a neighbour is missing.
  KOKKOS_INLINE_FUNCTION void cell(const int i, const int j, const int c) const {
    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) return interior(c);
    double f[9];
    for (int a = 0; a < 9; ++a) f[a] = pull(i, j, a);
    collide(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
  }

  // An interior cell: the source of direction a is the cell c - (cx_a + cy_a nx).
  KOKKOS_FORCEINLINE_FUNCTION void interior(const int c) const {
    collide(c, f_old(c, 0), f_old(c - 1, 1), f_old(c - 1 + nx, 2), f_old(c + nx, 3), f_old(c + 1 + nx, 4),
            f_old(c + 1, 5), f_old(c + 1 - nx, 6), f_old(c - nx, 7), f_old(c - 1 - nx, 8));
  }

  // w_a h (A - |U|^2/6) + w_a h (s/3 + s^2/2): a moving population's equilibrium, the first term shared.
  KOKKOS_FORCEINLINE_FUNCTION static double moving(double base, double wh, double s) {
    return base + wh * (s * (1.0 / 3.0) + 0.5 * s * s);
  }

  // Moments, eq. 2 equilibria and the BGK + force update of one cell's arrived populations.
  KOKKOS_FORCEINLINE_FUNCTION void collide(const int c, const double f0, const double f1, const double f2,
                                           const double f3, const double f4, const double f5, const double f6,
                                           const double f7, const double f8) const {
    const double hs = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8;
    const double inv = 1.0 / hs;
    // U = u / v: lattice units; h u = v sum c_a f_a.
    const double U = (f1 + f2 + f8 - f4 - f5 - f6) * inv, W = (f6 + f7 + f8 - f2 - f3 - f4) * inv;
    h(c) = hs;
    ux(c) = v * U;
    uy(c) = v * W;
    // Eq. 2 in lattice form: s_a = (v_a . u) / v^2 = c_a . U, A = g h / (6 v^2),
    //   f_0 = h (1 - 5 A - 2 |U|^2 / 3),  f_a = w_a h (A + s_a / 3 + s_a^2 / 2 - |U|^2 / 6).
    const double q = U * U + W * W, A = g6v2 * hs;
    const double ax = hs * (A - q / 6.0), dg = 0.25 * ax, hs4 = 0.25 * hs;
    const double Fx = force_coef * v * fx(c), Fy = force_coef * v * fy(c);
    f_new(c, 0) = f0 - omega * (f0 - hs * (1.0 - 5.0 * A - 2.0 * q / 3.0));
    f_new(c, 1) = f1 - omega * (f1 - moving(ax, hs, U)) + Fx;
    f_new(c, 2) = f2 - omega * (f2 - moving(dg, hs4, U - W)) + Fx - Fy;
    f_new(c, 3) = f3 - omega * (f3 - moving(ax, hs, -W)) - Fy;
    f_new(c, 4) = f4 - omega * (f4 - moving(dg, hs4, -U - W)) - Fx - Fy;
    f_new(c, 5) = f5 - omega * (f5 - moving(ax, hs, -U)) - Fx;
    f_new(c, 6) = f6 - omega * (f6 - moving(dg, hs4, -U + W)) - Fx + Fy;
    f_new(c, 7) = f7 - omega * (f7 - moving(ax, hs, W)) + Fy;
    f_new(c, 8) = f8 - omega * (f8 - moving(dg, hs4, U + W)) + Fx + Fy;
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
