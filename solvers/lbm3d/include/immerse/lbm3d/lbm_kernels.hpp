#pragma once
// Kokkos kernels of the D3Q15 solver, written once over Views for every execution space.
// Storage: structure of arrays, population q of cell n at f[q S + n], n = i + nx (j + ny k), with a
// block stride S slightly larger than the cell count N (see population_stride).
// Two storage patterns (lattice.pattern). Pull, here: the stored state is post-collision; one fused
// kernel pulls (streams) the 15 populations of a cell from its neighbours, collides them and writes
// the other buffer (every write contiguous per direction, no cell read-modified-written in place).
// AA, the default (lbm_aa_kernels.hpp): one buffer, in place, two alternating steps that reuse the
// lattice rules below (gather with the state stored swapped, upwind, wall_momentum).
#include <Kokkos_Core.hpp>
#include <utility>

#include "immerse/core/block_stride.hpp"
#include "immerse/core/half.hpp"
#include "immerse/lbm3d/d3q15.hpp"
#include "immerse/lbm3d/lbm_storage.hpp"

namespace immerse::lbm3d {

// Border codes in the kernels (Border order: periodic, outflow, bounce_back, velocity).
enum : int { kPeriodic = 0, kOutflow = 1, kBounceBack = 2, kVelocity = 3 };
// The C3 rule in the kernels (BodyBoundary order: ladd, paper, paper_literal).
enum : int { kBodyLadd = 0, kBodyPaper = 1, kBodyPaperLiteral = 2 };

// Distance between population blocks (block_stride.hpp): with a stride of exactly N (a multiple of
// 4 KiB at 64^3, 128^3, ...) the 15 loads and the 15 stores of a cell would share their address
// modulo 4 KiB.
template <class Pop>
inline long population_stride(long cells) {
  return block_stride<Pop>(cells);
}

// Pop: the stored type of the populations (lbm_storage.hpp), Real the arithmetic type.
template <class Pop, class Device>
struct Lattice {
  using Real = typename LbmStore<Pop>::real;
  int nx = 0, ny = 0, nz = 0;
  long n = 0;       // cells
  long stride = 0;  // distance between the population blocks q and q + 1 (population_stride)
  int border[6] = {0, 0, 0, 0, 0, 0};
  Real rest_feq[15] = {};   // f_eq(rho0, 0): fictitious outflow cells
  Real inlet_feq[15] = {};  // f_eq(rho0, u_inlet): fictitious inlet cells
  Real rho0 = 1;
  int body_rule = kBodyLadd;  // what water receives from a body cell (from_body)
  long offset[15] = {};       // n - offset[q] is the upwind neighbour of an interior cell
  Kokkos::View<const unsigned char*, Device> group;
  Kokkos::View<const Real*, Device> ub;  // body-cell velocity, 3 blocks of n
  Real ref[15] = {};                     // binary16 storage: the shift of each slot (w_q rho0) ...
  Real inv_scale = 1;                    // ... and the scale (lbm_storage.hpp)

  // Position (i, j, k) of cell c = i + nx (j + ny k). In 32 bits where the lattice allows: a GPU
  // divides 64-bit integers in a long software routine, and the cell kernels divide twice per cell.
  struct Cell {
    int i, j, k;
  };
  KOKKOS_INLINE_FUNCTION Cell cell_at(long c) const {
    if (n <= 0xffffffffL) {
      const unsigned u = static_cast<unsigned>(c), r = u / unsigned(nx), k = r / unsigned(ny);
      return {static_cast<int>(u - r * unsigned(nx)), static_cast<int>(r - k * unsigned(ny)), static_cast<int>(k)};
    }
    const long r = c / nx;
    return {static_cast<int>(c % nx), static_cast<int>(r % ny), static_cast<int>(r / ny)};
  }

  // A stored population of slot q as a number, and a number as the value slot q stores.
  KOKKOS_FORCEINLINE_FUNCTION Real load(Pop x, int q) const {
    if constexpr (LbmStore<Pop>::kHalf)
      return LbmStore<Pop>::load(x, ref[q], inv_scale);
    else
      return x;
  }
  KOKKOS_FORCEINLINE_FUNCTION Pop enc(Real x, int q) const {
    if constexpr (LbmStore<Pop>::kHalf)
      return LbmStore<Pop>::store(x, ref[q], inv_scale);
    else
      return x;
  }

  // Slot of population q in a cell: q, or its opposite where the state is stored swapped (the AA
  // pattern's post-collision state, lbm_aa_kernels.hpp). The pull pattern always stores unswapped.
  template <bool Swapped>
  KOKKOS_INLINE_FUNCTION static int slot(int q) {
    return Swapped ? D3Q15::opposite(q) : q;
  }

  // Population q arriving at water cell c from body cell sc (the C3 rule, BodyBoundary). `own` is
  // the cell's post-collision population -q, the one heading into the body:
  // - Ladd's moving-wall bounce-back: it returns reversed, plus the momentum the body's local surface
  //   velocity gives it, f_q = f*_{-q} + 6 w_q rho0 e_q . u_b (Ladd 1994);
  // - paper: the body cell's own population q (C1 equilibrium, C2 average; body cells are stored
  //   unswapped in both patterns), `own` is absorbed;
  // - paper_literal: both, summed.
  template <class F>
  KOKKOS_INLINE_FUNCTION Real from_body(const F& f, Real own, int q, long sc) const {
    if (body_rule == kBodyPaper) return load(f(q * stride + sc), q);
    if (body_rule == kBodyPaperLiteral) return own + load(f(q * stride + sc), q);
    return own + wall_momentum(q, sc);
  }
  // from_body with the own population read from the post-collision state f (stored swapped when
  // Swapped). F: a View of the populations (const or not: the AA pattern passes its one writable buffer).
  template <bool Swapped = false, class F>
  KOKKOS_INLINE_FUNCTION Real pull_from_body(const F& f, int q, long c, long sc) const {
    const int o = slot<Swapped>(D3Q15::opposite(q));
    return from_body(f, load(f(o * stride + c), o), q, sc);
  }
  // The AA pattern's arrived state holds, in each slot fed by a body cell, the cell's own result
  // reversed (lbm_aa_kernels.hpp): the C3 rule on those slots of a water cell (i, j, k) = c with the
  // bodies' current state, in place in a. The groups mark body neighbours without wrapping, so a
  // border cell is looked at whatever its group, as the gather does.
  template <class F>
  KOKKOS_INLINE_FUNCTION void arrive_from_bodies(const F& f, int i, int j, int k, long c, Real a[15]) const {
    const bool interior = i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1;
    if (interior && group(c) == kWater) return;
    for (int q = 1; q < 15; ++q) {
      long sc = c - offset[q];
      const int rule = interior ? int(kPeriodic) : upwind(q, i, j, k, sc);
      if (rule == kPeriodic && is_body(group(sc))) a[q] = from_body(f, a[q], q, sc);
    }
  }
  // 6 w_q rho0 e_q . u_b of body cell sc: what the moving surface adds to a population bounced into q.
  KOKKOS_INLINE_FUNCTION Real wall_momentum(int q, long sc) const {
    const Real eu = D3Q15::cx(q) * ub(sc) + D3Q15::cy(q) * ub(n + sc) + D3Q15::cz(q) * ub(2 * n + sc);
    return Real(6 * D3Q15::w(q)) * rho0 * eu;
  }

  // Where population q arriving at cell (i, j, k) comes from: returns the strongest border rule of
  // the faces that the upwind cell (i, j, k) - e_q lies beyond (bounce_back > velocity > outflow >
  // periodic) and, when that rule is periodic, the upwind cell itself in `sc` (wrapped).
  KOKKOS_INLINE_FUNCTION int upwind(int q, int i, int j, int k, long& sc) const {
    int s[3] = {i - D3Q15::cx(q), j - D3Q15::cy(q), k - D3Q15::cz(q)};
    const int size[3] = {nx, ny, nz};
    int rule = kPeriodic;
    for (int a = 0; a < 3; ++a) {
      int face = -1;
      if (s[a] < 0) face = 2 * a;
      if (s[a] >= size[a]) face = 2 * a + 1;
      if (face < 0) continue;
      const int b = border[face];
      if (b == kBounceBack || (b == kVelocity && rule != kBounceBack) || (b == kOutflow && rule == kPeriodic)) rule = b;
      s[a] += s[a] < 0 ? size[a] : -size[a];  // periodic wrap (only used when the rule stays periodic)
    }
    sc = s[0] + static_cast<long>(nx) * (s[1] + static_cast<long>(ny) * s[2]);
    return rule;
  }

  // Pulls the 15 populations arriving at cell (i, j, k) from the post-collision state `f` (stored
  // swapped when Swapped: the AA pattern's exchange step).
  template <bool Swapped = false, class F>
  KOKKOS_INLINE_FUNCTION void gather(const F& f, int i, int j, int k, long c, Real out[15]) const {
    const bool interior = i > 0 && j > 0 && k > 0 && i < nx - 1 && j < ny - 1 && k < nz - 1;
    if (interior && group(c) == kWater) {  // fast path: no border, no body neighbour
      for (int q = 0; q < 15; ++q) out[q] = load(f(slot<Swapped>(q) * stride + c - offset[q]), q);
      return;
    }
    for (int q = 0; q < 15; ++q) {
      long sc = c - offset[q];
      const int rule = interior ? int(kPeriodic) : upwind(q, i, j, k, sc);
      if (rule == kBounceBack) {
        out[q] = load(f(slot<Swapped>(D3Q15::opposite(q)) * stride + c), q);
      } else if (rule == kOutflow) {
        out[q] = rest_feq[q];
      } else if (rule == kVelocity) {
        out[q] = inlet_feq[q];
      } else {
        out[q] = is_body(group(sc)) ? pull_from_body<Swapped>(f, q, c, sc) : load(f(slot<Swapped>(q) * stride + sc), q);
      }
    }
  }
};

// The sums of f, f e_x, f e_y, f e_z over q = 0 .. 14 in that order, written out (the fold over q):
// each e is then a constant, so a term is the add, subtract or product by zero the rolled loop made,
// without its branches on q (that loop was half of the moments' time, which was a third of a
// tracer run's).
template <class Real, int... q>
KOKKOS_FORCEINLINE_FUNCTION void moment_sums(const Real f[15], Real& r, Real& x, Real& y, Real& z,
                                             std::integer_sequence<int, q...>) {
  ((r += f[q], x += D3Q15::cx(q) * f[q], y += D3Q15::cy(q) * f[q], z += D3Q15::cz(q) * f[q]), ...);
}

// Whether f_eq(q) of (rho, u) is >= 0 (D3Q15::feq's arithmetic, written here so that it is inlined
// with q a constant: a health check spent most of its time calling feq with a run-time q).
template <int q, class Real>
KOKKOS_FORCEINLINE_FUNCTION bool equilibrium_nonnegative(const Real rho, const Real ux, const Real uy, const Real uz,
                                                         const Real uu) {
  const Real eu = D3Q15::cx(q) * ux + D3Q15::cy(q) * uy + D3Q15::cz(q) * uz;
  return Real(D3Q15::w(q)) * rho * (Real(1) + Real(3) * eu + Real(4.5) * eu * eu - Real(1.5) * uu) >= Real(0);
}
template <class Real, int... q>
KOKKOS_FORCEINLINE_FUNCTION bool equilibria_nonnegative(const Real rho, const Real ux, const Real uy, const Real uz,
                                                        std::integer_sequence<int, q...>) {
  const Real uu = ux * ux + uy * uy + uz * uz;
  return (equilibrium_nonnegative<q>(rho, ux, uy, uz, uu) & ...);
}

// Moments with the half-force correction of Guo et al. (2002): u = (sum f e + F/2) / rho. The sums
// run in locals: summed into the outputs, which may alias f as far as the compiler can tell, every
// term went through memory.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION void moments(const Real f[15], const Real force[3], Real& rho, Real& ux, Real& uy,
                                         Real& uz) {
  Real r = 0, x = 0, y = 0, z = 0;
  moment_sums(f, r, x, y, z, std::make_integer_sequence<int, 15>());
  const Real inv = Real(1) / r;
  rho = r;
  ux = (x + Real(0.5) * force[0]) * inv;
  uy = (y + Real(0.5) * force[1]) * inv;
  uz = (z + Real(0.5) * force[2]) * inv;
}

// BGK relaxation with Guo's forcing, factored by pairs of opposite directions and written on the
// momentum j = sum e f (Guo's half force included) and 1 / rho instead of the velocity u = j / rho.
// For the pair (q, -q), with s = e_q.j and J = |j|^2 / 3, the equilibrium w rho (1 + 3 e.u + 9/2
// (e.u)^2 - 3/2 u^2) times omega is
//   omega f_eq(+-q) = P + X (s^2 - J) / rho +- S s,   P = omega w rho,  X = 9/2 omega w,  S = 3 omega w,
// and Guo's term pref w (3 (e - u).F + 9 (e.u)(e.F)) is Y (s e.F - j.F / 3) / rho +- 3 pref w e.F,
// Y = 9 pref w. Only X / rho and Y / rho wait for the division: the sums s, s^2 - J and j.F run
// beside it, and a pair then costs three multiply-adds (X/rho (s^2 - J) + P, then +- S s, then
// (1 - omega) f +). Written on u = j / rho, every term of every pair waited for the division and
// then for |u|^2: a longer chain per vector, which the binary16 line (conversions at both of its
// ends) felt most, 26 % more time per vector in L1. The result is (1 - omega) f + omega f_eq +
// forcing. The e_q are compile-time constants of each pair below, so the corners' s are sums of jx
// +- jy and jz. Written on named scalars, not arrays: GCC vectorises the host line kernel's loop
// over cells only then (lbm_line_kernel.hpp); every path (device cells, host runs, the x ends)
// relaxes through this one function.
//
// The populations may come as scaled deviations d_q = (f_q - r_q) / scale from shifts r_q = w_q r
// (BgkShift; binary16 storage keeps its populations so, lbm_storage.hpp). Then rho = r + scale sum d,
// j = scale sum e d (the shifts carry no momentum), and the relaxed deviation is
//   d'_q = (1 - omega) d_q + (omega f_eq(q) - omega r_q + forcing_q) / scale,
// so j is summed in deviation units (X then carries the scale, and S and Y none, by the units of
// the terms they multiply) and P becomes omega (w rho - r_q) / scale: no population is converted to
// f and back. Full populations are the shift 0, scale 1.
template <class Real>
struct BgkShift {
  Real scale = Real(1);                                   // a stored deviation of 1 is this much population
  Real rest = Real(0), face = Real(0), corner = Real(0);  // r_q of the rest, face and corner directions
};

// bgk_collide's constants, by weight class where they depend on w (rest 0, face 1, corner 7), in the
// stored deviations' units (BgkShift).
template <class Real>
struct BgkCoefficients {
  Real keep;           // 1 - omega
  Real a0, a1, a7;     // omega w / scale: P = a rho - c
  Real c0, c1, c7;     // omega r_q / scale
  Real x0, x1, x7;     // 9/2 omega w scale: X for j in deviation units
  Real t1, t7;         // 3 omega w: S
  Real y0, y1, y7;     // 9 pref w: Y
  Real hF0, hF1, hF2;  // F / (2 scale): Guo's half-force shift of j in deviation units
  Real F0, F1, F2;     // the body force per unit volume
  Real eF[7];          // e_q.F of the pairs q = 1, 3, ... 13
  Real sF[7];          // 3 pref w e_q.F / scale, the odd part of their forcing
  Real rho_shift;      // sum of the shifts r_q: rho = rho_shift + scale sum d
  Real scale;          // a stored deviation of 1 is this much population
  Real third;          // 1 / 3: J = |j|^2 / 3, and j.F / 3

  KOKKOS_INLINE_FUNCTION BgkCoefficients(Real omega, Real pref, Real fx, Real fy, Real fz,
                                         const BgkShift<Real>& shift = BgkShift<Real>())
      : keep(Real(1) - omega),
        a0(omega * Real(2.0 / 9.0) / shift.scale),
        a1(omega * Real(1.0 / 9.0) / shift.scale),
        a7(omega * Real(1.0 / 72.0) / shift.scale),
        c0(omega * shift.rest / shift.scale),
        c1(omega * shift.face / shift.scale),
        c7(omega * shift.corner / shift.scale),
        x0(Real(4.5) * omega * Real(2.0 / 9.0) * shift.scale),
        x1(Real(4.5) * omega * Real(1.0 / 9.0) * shift.scale),
        x7(Real(4.5) * omega * Real(1.0 / 72.0) * shift.scale),
        t1(Real(3) * omega * Real(1.0 / 9.0)),
        t7(Real(3) * omega * Real(1.0 / 72.0)),
        y0(Real(9) * pref * Real(2.0 / 9.0)),
        y1(Real(9) * pref * Real(1.0 / 9.0)),
        y7(Real(9) * pref * Real(1.0 / 72.0)),
        hF0(Real(0.5) * fx / shift.scale),
        hF1(Real(0.5) * fy / shift.scale),
        hF2(Real(0.5) * fz / shift.scale),
        F0(fx),
        F1(fy),
        F2(fz),
        eF{fx, fy, fz, fx + fy + fz, fx + fy - fz, fx - fy + fz, fx - fy - fz},
        sF{Real(3.0 / 9.0) * pref * eF[0] / shift.scale,  Real(3.0 / 9.0) * pref * eF[1] / shift.scale,
           Real(3.0 / 9.0) * pref * eF[2] / shift.scale,  Real(3.0 / 72.0) * pref * eF[3] / shift.scale,
           Real(3.0 / 72.0) * pref * eF[4] / shift.scale, Real(3.0 / 72.0) * pref * eF[5] / shift.scale,
           Real(3.0 / 72.0) * pref * eF[6] / shift.scale},
        rho_shift(shift.rest + Real(6) * shift.face + Real(8) * shift.corner),
        scale(shift.scale),
        third(Real(1.0 / 3.0)) {}

  // The same coefficients on another arithmetic type (a scalar set broadcast to SIMD lanes).
  template <class From>
  KOKKOS_INLINE_FUNCTION explicit BgkCoefficients(const BgkCoefficients<From>& s)
      : keep(s.keep),
        a0(s.a0),
        a1(s.a1),
        a7(s.a7),
        c0(s.c0),
        c1(s.c1),
        c7(s.c7),
        x0(s.x0),
        x1(s.x1),
        x7(s.x7),
        t1(s.t1),
        t7(s.t7),
        y0(s.y0),
        y1(s.y1),
        y7(s.y7),
        hF0(s.hF0),
        hF1(s.hF1),
        hF2(s.hF2),
        F0(s.F0),
        F1(s.F1),
        F2(s.F2),
        eF{s.eF[0], s.eF[1], s.eF[2], s.eF[3], s.eF[4], s.eF[5], s.eF[6]},
        sF{s.sF[0], s.sF[1], s.sF[2], s.sF[3], s.sF[4], s.sF[5], s.sF[6]},
        rho_shift(s.rho_shift),
        scale(s.scale),
        third(s.third) {}
};

// a * b + c, a * b - c and c - a * b on numbers: the compiler fuses them as it likes (nvcc always,
// GCC where both operations stay in one basic block). On host SIMD lanes the same names are
// Lanes' overloads (simd_lanes.hpp), fused by instruction.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real mul_add(const Real a, const Real b, const Real c) {
  return a * b + c;
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real mul_sub(const Real a, const Real b, const Real c) {
  return a * b - c;
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real neg_mul_add(const Real a, const Real b, const Real c) {
  return c - a * b;
}

// One pair (q, -q): populations fp, fm to gp, gm. Of the pair's weight class: X = X / rho, P = omega
// (w rho - r_q) / scale, S; s = e_q.j, J = |j|^2 / 3. Forced only: Y = Y / rho, eF = e_q.F, jF = j.F /
// 3, sF = 3 pref w e_q.F / scale.
template <bool Forced, class Real>
KOKKOS_FORCEINLINE_FUNCTION void bgk_pair(const Real keep, const Real X, const Real P, const Real S, const Real s,
                                          const Real J, const Real Y, const Real eF, const Real jF, const Real sF,
                                          const Real fp, const Real fm, Real& gp, Real& gm) {
  // The terms without 1 / rho first (the kept share, P and the odd part), then the even part, whose
  // X and Y wait for the division: one multiply-add per result waits for it, so fewer instructions
  // wait in a host core's scheduler while the next cells' loads and sums could start.
  Real ap, am;
  if constexpr (Forced) {
    const Real sign = mul_add(S, s, sF);
    ap = mul_add(keep, fp, P + sign);
    am = mul_add(keep, fm, P - sign);
  } else {
    ap = mul_add(keep, fp, mul_add(S, s, P));
    am = mul_add(keep, fm, neg_mul_add(S, s, P));
  }
  const Real even = mul_sub(s, s, J);
  gp = mul_add(X, even, ap);
  gm = mul_add(X, even, am);
  if constexpr (Forced) {
    const Real forcing = mul_sub(s, eF, jF);
    gp = mul_add(Y, forcing, gp);
    gm = mul_add(Y, forcing, gm);
  }
}

// One cell: streamed populations f0..f14 (D3Q15 order; deviations when Shifted, with c's shift) to
// relaxed g0..g14 (the same kind). Unshifted, the shift's terms are left out at compile time: c's
// shift is then the default one (0, scale 1), and the FP32 line kernel keeps its registers.
template <bool Forced, bool Shifted = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION void bgk_collide(const BgkCoefficients<Real>& c, const Real f0, const Real f1,
                                             const Real f2, const Real f3, const Real f4, const Real f5, const Real f6,
                                             const Real f7, const Real f8, const Real f9, const Real f10,
                                             const Real f11, const Real f12, const Real f13, const Real f14, Real& g0,
                                             Real& g1, Real& g2, Real& g3, Real& g4, Real& g5, Real& g6, Real& g7,
                                             Real& g8, Real& g9, Real& g10, Real& g11, Real& g12, Real& g13,
                                             Real& g14) {
  // Corner pairs: 7 (1,1,1), 9 (1,1,-1), 11 (1,-1,1), 13 (1,-1,-1); odd q is the + member.
  const Real d7 = f7 - f8, d9 = f9 - f10, d11 = f11 - f12, d13 = f13 - f14;
  const Real sum =
      ((f0 + (f1 + f2)) + ((f3 + f4) + (f5 + f6))) + (((f7 + f8) + (f9 + f10)) + ((f11 + f12) + (f13 + f14)));
  Real jx = (f1 - f2) + ((d7 + d9) + (d11 + d13)), jy = (f3 - f4) + ((d7 + d9) - (d11 + d13)),
       jz = (f5 - f6) + ((d7 - d9) + (d11 - d13));
  if constexpr (Forced) {  // Guo's half-force shift of the momentum
    jx += c.hF0;
    jy += c.hF1;
    jz += c.hF2;
  }
  const Real rho = Shifted ? mul_add(c.scale, sum, c.rho_shift) : sum;
  const Real inv = Real(1) / rho;
  const Real J = mul_add(jz, jz, mul_add(jy, jy, jx * jx)) * c.third;
  const Real X0 = c.x0 * inv, X1 = c.x1 * inv, X7 = c.x7 * inv;
  const Real P0 = Shifted ? mul_sub(c.a0, rho, c.c0) : c.a0 * rho, P1 = Shifted ? mul_sub(c.a1, rho, c.c1) : c.a1 * rho,
             P7 = Shifted ? mul_sub(c.a7, rho, c.c7) : c.a7 * rho;
  const Real jF = Forced ? mul_add(jz, c.F2, mul_add(jy, c.F1, jx * c.F0)) * c.third : Real(0);
  const Real Y1 = Forced ? c.y1 * inv : Real(0), Y7 = Forced ? c.y7 * inv : Real(0);
  g0 = neg_mul_add(X0, J, mul_add(c.keep, f0, P0));
  if constexpr (Forced) g0 = neg_mul_add(c.y0 * inv, jF, g0);
  bgk_pair<Forced>(c.keep, X1, P1, c.t1, jx, J, Y1, c.eF[0], jF, c.sF[0], f1, f2, g1, g2);
  bgk_pair<Forced>(c.keep, X1, P1, c.t1, jy, J, Y1, c.eF[1], jF, c.sF[1], f3, f4, g3, g4);
  bgk_pair<Forced>(c.keep, X1, P1, c.t1, jz, J, Y1, c.eF[2], jF, c.sF[2], f5, f6, g5, g6);
  const Real pxy = jx + jy, mxy = jx - jy;
  bgk_pair<Forced>(c.keep, X7, P7, c.t7, pxy + jz, J, Y7, c.eF[3], jF, c.sF[3], f7, f8, g7, g8);
  bgk_pair<Forced>(c.keep, X7, P7, c.t7, pxy - jz, J, Y7, c.eF[4], jF, c.sF[4], f9, f10, g9, g10);
  bgk_pair<Forced>(c.keep, X7, P7, c.t7, mxy + jz, J, Y7, c.eF[5], jF, c.sF[5], f11, f12, g11, g12);
  bgk_pair<Forced>(c.keep, X7, P7, c.t7, mxy - jz, J, Y7, c.eF[6], jF, c.sF[6], f13, f14, g13, g14);
}

// bgk_collide on arrays, for the cell-by-cell paths.
template <class Real>
KOKKOS_INLINE_FUNCTION void bgk_relax(const Real f[15], Real g[15], Real omega, Real pref, Real F0, Real F1, Real F2,
                                      bool forced) {
  const BgkCoefficients<Real> c(omega, pref, F0, F1, F2);
  if (forced)
    bgk_collide<true>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13], f[14],
                      g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14]);
  else
    bgk_collide<false>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13], f[14],
                       g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14]);
}

// The fused pull collide+stream, one cell per call. Device spaces run it one cell per work item
// (coalesced along x); host spaces run lines through CollideStreamLines (lbm_line_kernel.hpp), which
// uses `cell` for the two x ends of a line only.
template <class Pop, class Exec>
struct CollideStream {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  Lattice<Pop, Device> lat;
  Kokkos::View<const Pop*, Device> src;
  Kokkos::View<Pop*, Device> dst;
  Real omega = 1;  // 1 / tau
  Real force[3] = {0, 0, 0};
  Real force_pref = 0;  // (1 - 1/(2 tau)), Guo's forcing prefactor
  bool forced = false;

  KOKKOS_INLINE_FUNCTION void cell(int i, int j, int k, long c) const {
    const long s = lat.stride;
    if (is_body(lat.group(c))) {  // body cells keep what the body set (both buffers hold it)
      for (int q = 0; q < 15; ++q) dst(q * s + c) = src(q * s + c);
      return;
    }
    Real f[15];
    lat.gather(src, i, j, k, c, f);
    collide(f, c);
  }
  // Relaxes the streamed populations f of water cell c and stores them.
  KOKKOS_INLINE_FUNCTION void collide(const Real f[15], long c) const {
    Real g[15];
    bgk_relax(f, g, omega, force_pref, force[0], force[1], force[2], forced);
    for (int q = 0; q < 15; ++q) dst(q * lat.stride + c) = lat.enc(g[q], q);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const long c) const {
    const auto [i, j, k] = lat.cell_at(c);
    cell(i, j, k, c);
  }
};

// How the populations of water cells are stored between steps. The pull pattern keeps the
// post-collision state unswapped; the AA pattern (lbm_aa_kernels.hpp) alternates between the
// post-collision state stored swapped (slot -q holds q) and the streamed (arrived) populations.
enum class Stored { kPostCollision, kPostCollisionSwapped, kArrived };

// Macroscopic fields of the state the next step will collide (streamed populations).
template <class Pop, class Exec>
struct Moments {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  Lattice<Pop, Device> lat;
  Kokkos::View<const Pop*, Device> f;
  Kokkos::View<Real*, Device> macro;  // 4 blocks: rho, ux, uy, uz
  Real force[3] = {0, 0, 0};
  Stored stored = Stored::kPostCollision;
  // rho, ux, uy, uz of cell c into out.
  KOKKOS_INLINE_FUNCTION void at(const long c, Real out[4]) const {
    const auto [i, j, k] = lat.cell_at(c);
    at(i, j, k, c, out);
  }
  // The same for cell c at (i, j, k), where the caller knows its indices.
  KOKKOS_INLINE_FUNCTION void at(const int i, const int j, const int k, const long c, Real out[4]) const {
    const long n = lat.n;
    Real rho = 0, ux = 0, uy = 0, uz = 0;
    if (is_body(lat.group(c))) {
      ux = lat.ub(c);
      uy = lat.ub(n + c);
      uz = lat.ub(2 * n + c);
      for (int q = 0; q < 15; ++q) rho += lat.load(f(q * lat.stride + c), q);
    } else {
      Real g[15];
      if (stored == Stored::kArrived) {
        for (int q = 0; q < 15; ++q) g[q] = lat.load(f(q * lat.stride + c), q);
        lat.arrive_from_bodies(f, i, j, k, c, g);
      } else if (stored == Stored::kPostCollisionSwapped) {
        lat.template gather<true>(f, i, j, k, c, g);
      } else {
        lat.gather(f, i, j, k, c, g);
      }
      moments(g, force, rho, ux, uy, uz);
    }
    out[0] = rho;
    out[1] = ux;
    out[2] = uy;
    out[3] = uz;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const long c) const {
    Real v[4];
    at(c, v);
    for (int a = 0; a < 4; ++a) macro(a * lat.n + c) = v[a];
  }
};

// Applies new cell groups to the cells of `region`: C1 gets f_eq(rho0, u_surface), C2 the average of
// its C1 neighbours' populations (across periodic faces too), A zero; a body cell that became water starts from what it
// held (C1/C2: equilibrium at rho0) or, coming from A (zeros), from rest equilibrium at rho0. Two passes over the
// region: the first sets every cell but C2, the second (rim_pass) averages for each C2 cell the populations its C1
// neighbours now hold, instead of recomputing up to 14 x 15 equilibria per C2 cell. A C1 cell outside the region still
// holds the equilibrium of its unchanged velocity: body cells are never streamed into. Body cells are stored unswapped
// in both patterns (no step touches them); where the water is stored swapped (AA pattern, `swapped`), a C1/C2 cell that
// becomes water has its populations swapped into the water's layout.
template <class Pop, class Exec>
struct ApplyGroups {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  Lattice<Pop, Device> lat;
  Kokkos::View<const int*, Device> region;
  Kokkos::View<unsigned char*, Device> previous;
  Kokkos::View<Pop*, Device> f;
  bool rim_pass = false;
  bool swapped = false;  // water populations stored swapped (AA pattern, after a local step)
  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    const long n = lat.n, S = lat.stride, c = region(r);
    const unsigned char g = lat.group(c);
    if (rim_pass) {
      if (g == kInnerRim) average_surface_neighbours(c);
      return;
    }
    const unsigned char before = previous(c);
    previous(c) = g;
    if (g == kSurface) {
      for (int q = 0; q < 15; ++q)
        f(q * S + c) = lat.enc(D3Q15::feq(q, lat.rho0, lat.ub(c), lat.ub(n + c), lat.ub(2 * n + c)), q);
    } else if (g == kInner) {
      for (int q = 0; q < 15; ++q) f(q * S + c) = lat.enc(Real(0), q);
    } else if (g == kWater || g == kNearBody) {
      if (before == kInner) {
        for (int q = 0; q < 15; ++q) f(q * S + c) = lat.enc(Real(D3Q15::w(q)) * lat.rho0, q);
      } else if (swapped && is_body(before)) {
        for (int q = 1; q < 15; q += 2) {
          const auto a = f(q * S + c);  // raw: the two slots of a pair share their shift
          f(q * S + c) = f((q + 1) * S + c);
          f((q + 1) * S + c) = a;
        }
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void average_surface_neighbours(const long c) const {
    const long S = lat.stride;
    const auto [i, j, k] = lat.cell_at(c);
    Real acc[15] = {};
    int count = 0;
    for (int p = 1; p < 15; ++p) {
      // The neighbour x + e_p (the upwind cell of -p), across a periodic face too (a split
      // lattice's ghost layers hold it there); none past any other face.
      long s;
      if (lat.upwind(D3Q15::opposite(p), i, j, k, s) != kPeriodic) continue;
      if (lat.group(s) != kSurface) continue;
      ++count;
      for (int q = 0; q < 15; ++q) acc[q] += lat.load(f(q * S + s), q);
    }
    for (int q = 0; q < 15; ++q)
      f(q * S + c) = lat.enc(count > 0 ? acc[q] / Real(count) : Real(D3Q15::w(q)) * lat.rho0, q);
  }
};

}  // namespace immerse::lbm3d
