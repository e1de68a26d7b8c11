#pragma once
// The host-space form of the fused collide+stream: one x line of cells per work item.
//
// Why a separate path: on a CPU the kernel only reaches the memory bandwidth when the 15 loads and
// 15 stores of a cell vectorise over consecutive cells. Away from the two x ends every cell of a line
// receives direction q from the same place: a neighbour line (shifted by -e_q.x), its own opposite
// population (bounce-back face) or a constant (outflow / velocity-inlet face). That plan is worked
// out once per line (`plan_line`), so every line, border lines included, runs its plain water cells
// through one SIMD loop (`water_run`). Cells next to a body use the plan cell by cell
// (`near_body_cell`); the two x ends use the general per-cell rule of CollideStream::cell.
// Device spaces do not use this file: they run CollideStream one cell per work item.
#include "immerse/lbm3d/lbm_kernels.hpp"

// The SIMD loop's stores never alias its loads (other buffer, other population blocks): ivdep tells
// GCC so, and it vectorises without run-time alias checks over 30 pointers.
#if defined(__GNUC__) && !defined(__clang__)
#define IMMERSE_LBM_SIMD _Pragma("GCC ivdep")
#else
#define IMMERSE_LBM_SIMD
#endif

namespace immerse::lbm3d {

template <class Real, class Exec>
struct CollideStreamLines {
  CollideStream<Real, Exec> k;  // lattice, buffers, relaxation and force
  static constexpr int kRun = 64;  // cells per SIMD run: the constant fills below are this long

  // Where the 15 populations arriving at the interior cells (0 < i < nx-1) of line (j, k) come from.
  struct LinePlan {
    enum Kind : unsigned char { kPull, kBounce, kConstant };
    Kind kind[15];
    long source[15];       // kPull: the upwind cell of cell i is source[q] + i
    Real value[15];        // kConstant: the fictitious border cell's population
    bool wrapped_body = false;  // a periodic face brings a body cell's population into this line
  };

  LinePlan plan_line(int j, int kk) const {
    const auto& lat = k.lat;
    LinePlan p;
    for (int q = 0; q < 15; ++q) {
      int s[2] = {j - D3Q15::cy(q), kk - D3Q15::cz(q)};
      const int size[2] = {lat.ny, lat.nz};
      int rule = kPeriodic;  // strongest rule of the faces crossed, as in Lattice::gather
      bool wraps = false;
      for (int a = 0; a < 2; ++a) {
        int face = -1;
        if (s[a] < 0) face = 2 * (a + 1);
        if (s[a] >= size[a]) face = 2 * (a + 1) + 1;
        if (face < 0) continue;
        const int b = lat.border[face];
        if (b == kBounceBack || (b == kVelocity && rule != kBounceBack) || (b == kOutflow && rule == kPeriodic)) rule = b;
        s[a] += s[a] < 0 ? size[a] : -size[a];
        wraps = true;
      }
      const long line_base = static_cast<long>(lat.nx) * (j + static_cast<long>(lat.ny) * kk);
      p.source[q] = 0, p.value[q] = 0;
      if (rule == kBounceBack) {
        p.kind[q] = LinePlan::kBounce, p.source[q] = line_base;
      } else if (rule == kOutflow || rule == kVelocity) {
        p.kind[q] = LinePlan::kConstant, p.value[q] = rule == kOutflow ? lat.rest_feq[q] : lat.inlet_feq[q];
      } else {
        p.kind[q] = LinePlan::kPull;
        p.source[q] = static_cast<long>(lat.nx) * (s[0] + static_cast<long>(lat.ny) * s[1]) - D3Q15::cx(q);
        // The cell groups mark body neighbours without wrapping: check the wrapped line itself.
        for (int i = 1; wraps && !p.wrapped_body && i < lat.nx - 1; ++i) p.wrapped_body = is_body(lat.group(p.source[q] + i));
      }
    }
    return p;
  }

  void operator()(const int line) const {
    const auto& lat = k.lat;
    const int j = line % lat.ny, kk = line / lat.ny;
    const long base = static_cast<long>(line) * lat.nx;
    k.cell(0, j, kk, base);
    if (lat.nx == 1) return;
    const LinePlan plan = plan_line(j, kk);
    const Real* src = k.src.data();
    Real* dst = k.dst.data();
    const long n = lat.stride;
    Real constant[15][kRun];  // constant-kind directions read these as if they were a line
    const Real* in[15];
    Real* out[15];
    for (int q = 0; q < 15; ++q) {
      if (plan.kind[q] == LinePlan::kConstant)
        for (int a = 0; a < kRun; ++a) constant[q][a] = plan.value[q];
      out[q] = dst + q * n + base;
    }
    int i = 1;
    while (i < lat.nx - 1) {
      // The longest run (<= kRun) of plain water cells from i, or one other cell.
      int m = 0;
      const int limit = (lat.nx - 1 - i) < kRun ? (lat.nx - 1 - i) : kRun;
      if (!plan.wrapped_body)
        while (m < limit && lat.group(base + i + m) == kWater) ++m;
      if (m == 0) {
        near_body_cell(plan, i, base);
        ++i;
        continue;
      }
      for (int q = 0; q < 15; ++q) {
        const int o = D3Q15::opposite(q);
        in[q] = plan.kind[q] == LinePlan::kPull     ? src + q * n + plan.source[q] + i
                : plan.kind[q] == LinePlan::kBounce ? src + o * n + plan.source[q] + i
                                                    : constant[q];
      }
      Real* at[15];
      for (int q = 0; q < 15; ++q) at[q] = out[q] + i;
      water_run(in, at, m);
      i += m;
    }
    k.cell(lat.nx - 1, j, kk, base + lat.nx - 1);
  }

  // A cell that is not plain water (body, or water next to the body) at interior i of the line.
  void near_body_cell(const LinePlan& plan, int i, long base) const {
    const auto& lat = k.lat;
    const long c = base + i, n = lat.stride;
    if (is_body(lat.group(c))) {
      for (int q = 0; q < 15; ++q) k.dst(q * n + c) = k.src(q * n + c);
      return;
    }
    Real f[15];
    for (int q = 0; q < 15; ++q) {
      if (plan.kind[q] == LinePlan::kConstant) {
        f[q] = plan.value[q];
      } else if (plan.kind[q] == LinePlan::kBounce) {
        f[q] = k.src(D3Q15::opposite(q) * n + c);
      } else {
        const long sc = plan.source[q] + i;
        f[q] = is_body(lat.group(sc)) ? lat.moving_wall(k.src, q, c, sc) : k.src(q * n + sc);
      }
    }
    k.collide(f, c);
  }

  // m consecutive cells: populations from in[q][a], collided populations to out[q][a].
  // Two passes: the moments of all m cells (15 loads each), then per direction q one load, the
  // equilibrium and one store. The second pass reads the run again from L1 (15 x kRun values) and has
  // one input and one output stream live per loop, where a single fused loop keeps 30 pointers and
  // spills them: that single loop (all of bgk_relax per cell) took 2x the CPU time (serial 128^3).
  void water_run(const Real* const in[15], Real* const out[15], const int m) const {
    const Real om = k.omega, pref = k.force_pref, F0 = k.force[0], F1 = k.force[1], F2 = k.force[2];
    Real rho[kRun], ux[kRun], uy[kRun], uz[kRun], uu[kRun];
    const Real* i0 = in[0]; const Real* i1 = in[1]; const Real* i2 = in[2]; const Real* i3 = in[3];
    const Real* i4 = in[4]; const Real* i5 = in[5]; const Real* i6 = in[6]; const Real* i7 = in[7];
    const Real* i8 = in[8]; const Real* i9 = in[9]; const Real* i10 = in[10]; const Real* i11 = in[11];
    const Real* i12 = in[12]; const Real* i13 = in[13]; const Real* i14 = in[14];
    IMMERSE_LBM_SIMD
    for (int a = 0; a < m; ++a) {
      const Real f[15] = {i0[a], i1[a], i2[a], i3[a], i4[a], i5[a], i6[a], i7[a],
                          i8[a], i9[a], i10[a], i11[a], i12[a], i13[a], i14[a]};
      bgk_moments(f, F0, F1, F2, rho[a], ux[a], uy[a], uz[a], uu[a]);
    }
    for (int q = 0; q < 15; ++q) {
      const Real ex = D3Q15::cx(q), ey = D3Q15::cy(q), ez = D3Q15::cz(q), w = Real(D3Q15::w(q));
      const Real eF = ex * F0 + ey * F1 + ez * F2;
      const Real* from = in[q];
      Real* to = out[q];
      if (k.forced) {
        IMMERSE_LBM_SIMD
        for (int a = 0; a < m; ++a) {
          const Real eu = ex * ux[a] + ey * uy[a] + ez * uz[a];
          const Real uF = ux[a] * F0 + uy[a] * F1 + uz[a] * F2;
          const Real feq = w * rho[a] * (Real(1) + Real(3) * eu + Real(4.5) * eu * eu - uu[a]);
          to[a] = from[a] - om * (from[a] - feq) + pref * w * (Real(3) * (eF - uF) + Real(9) * eu * eF);
        }
      } else {
        IMMERSE_LBM_SIMD
        for (int a = 0; a < m; ++a) {
          const Real eu = ex * ux[a] + ey * uy[a] + ez * uz[a];
          const Real feq = w * rho[a] * (Real(1) + Real(3) * eu + Real(4.5) * eu * eu - uu[a]);
          to[a] = from[a] - om * (from[a] - feq);
        }
      }
    }
  }
};

}  // namespace immerse::lbm3d

#undef IMMERSE_LBM_SIMD
