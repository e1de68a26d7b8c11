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

  // One cell per work item (devices) ...
  KOKKOS_INLINE_FUNCTION void operator()(const int c) const { cell(c % nx, c / nx, c); }
  // ... or one row per work item (host spaces: no index division, and the row's interior is one
  // simple loop the compiler can keep in registers and prefetch).
  struct Rows {
    SwStep k;
    KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
      for (int i = 0; i < k.nx; ++i) k.cell(i, j, j * k.nx + i);
    }
  };

  KOKKOS_INLINE_FUNCTION void cell(const int i, const int j, const int c) const {
    double f[9];
    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
      // Interior: the source of direction a is the cell c - (cx_a + cy_a nx); no border test.
      f[0] = f_old(c, 0);
      f[1] = f_old(c - 1, 1);
      f[2] = f_old(c - 1 + nx, 2);
      f[3] = f_old(c + nx, 3);
      f[4] = f_old(c + 1 + nx, 4);
      f[5] = f_old(c + 1, 5);
      f[6] = f_old(c + 1 - nx, 6);
      f[7] = f_old(c - nx, 7);
      f[8] = f_old(c - 1 - nx, 8);
    } else {
      for (int a = 0; a < 9; ++a) f[a] = pull(i, j, a);
    }
    const double hs = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7] + f[8];
    const double mx = f[1] + f[2] + f[8] - f[4] - f[5] - f[6], my = f[6] + f[7] + f[8] - f[2] - f[3] - f[4];
    const double u = v * mx / hs, w = v * my / hs;
    h(c) = hs, ux(c) = u, uy(c) = w;
    // Eq. 2 in lattice form: with U = u / v, s_a = (v_a . u) / v^2, A = g h / (6 v^2),
    //   f_0 = h (1 - 5 A - 2 |U|^2 / 3),  f_a = w_a h (A + s_a / 3 + s_a^2 / 2 - |U|^2 / 6),
    // spelled out per direction (paper order) so the compiler keeps everything in registers.
    const double U = u / v, W = w / v, q = U * U + W * W, A = g * hs / (6.0 * v * v);
    const double ax = hs * (A - q / 6.0), dg = 0.25 * ax, hs4 = 0.25 * hs;
    const double Fx = force_coef * v * fx(c), Fy = force_coef * v * fy(c);
    const double s[9] = {0, U, U - W, -W, -U - W, -U, -U + W, W, U + W};
    const double fu[9] = {0, Fx, Fx - Fy, -Fy, -Fx - Fy, -Fx, -Fx + Fy, Fy, Fx + Fy};
    double eq[9];
    eq[0] = hs * (1.0 - 5.0 * A - 2.0 * q / 3.0);
    eq[1] = ax + hs * (s[1] / 3.0 + 0.5 * s[1] * s[1]);
    eq[3] = ax + hs * (s[3] / 3.0 + 0.5 * s[3] * s[3]);
    eq[5] = ax + hs * (s[5] / 3.0 + 0.5 * s[5] * s[5]);
    eq[7] = ax + hs * (s[7] / 3.0 + 0.5 * s[7] * s[7]);
    eq[2] = dg + hs4 * (s[2] / 3.0 + 0.5 * s[2] * s[2]);
    eq[4] = dg + hs4 * (s[4] / 3.0 + 0.5 * s[4] * s[4]);
    eq[6] = dg + hs4 * (s[6] / 3.0 + 0.5 * s[6] * s[6]);
    eq[8] = dg + hs4 * (s[8] / 3.0 + 0.5 * s[8] * s[8]);
    f_new(c, 0) = f[0] - omega * (f[0] - eq[0]);
    f_new(c, 1) = f[1] - omega * (f[1] - eq[1]) + fu[1];
    f_new(c, 2) = f[2] - omega * (f[2] - eq[2]) + fu[2];
    f_new(c, 3) = f[3] - omega * (f[3] - eq[3]) + fu[3];
    f_new(c, 4) = f[4] - omega * (f[4] - eq[4]) + fu[4];
    f_new(c, 5) = f[5] - omega * (f[5] - eq[5]) + fu[5];
    f_new(c, 6) = f[6] - omega * (f[6] - eq[6]) + fu[6];
    f_new(c, 7) = f[7] - omega * (f[7] - eq[7]) + fu[7];
    f_new(c, 8) = f[8] - omega * (f[8] - eq[8]) + fu[8];
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
