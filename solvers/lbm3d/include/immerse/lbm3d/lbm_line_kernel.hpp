#pragma once
// The host-space form of the fused collide+stream: one x line of cells per work item.
//
// Why a separate path: on a CPU the kernel only reaches the memory bandwidth when the 15 loads and
// 15 stores of a cell vectorise over consecutive cells. Away from the two x ends every cell of a line
// receives direction q from the same place: a neighbour line (shifted by -e_q.x), its own opposite
// population (bounce-back face) or a constant (outflow / velocity-inlet face). That plan is worked
// out once per line (`plan_interior`), so every line, border lines included, runs its plain water
// cells through SIMD runs (`water_run`). Cells next to a body, and the two x ends with a plan of
// their own (`plan_end`: their x face added), go cell by cell (`planned_cell`).
// With `streaming` (lattice.stores = streaming) the runs write with streaming stores
// (streaming_store.hpp): no write-allocate read of the destination buffer.
// Device spaces do not use this file: they run CollideStream one cell per work item.
#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/lbm3d/streaming_store.hpp"

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
  CollideStream<Real, Exec> k;     // lattice, buffers, relaxation and force
  bool streaming = false;          // water runs store around the caches (lattice.stores)
  static constexpr int kRun = 64;  // cells per SIMD run: the constant fills below are this long

  // Where the 15 populations arriving at cells of line (j, k) come from: at every interior cell
  // (0 < i < nx-1) for the line's plan, or at one end cell (i = 0 or nx-1) for an end plan.
  struct LinePlan {
    enum Kind : unsigned char { kPull, kBounce, kConstant };
    Kind kind[15];
    unsigned char rule[15];     // strongest border rule of the faces crossed (kPeriodic when none)
    long source[15];            // kPull: the upwind cell of cell i is source[q] + i
    Real value[15];             // kConstant: the fictitious border cell's population
    bool wrapped_body = false;  // interior plan: a periodic face brings a body cell's population in
  };

  // Rule priority where a direction crosses two or three faces, as in Lattice::gather:
  // bounce_back > velocity > outflow > periodic.
  KOKKOS_INLINE_FUNCTION static int stronger(int rule, int b) {
    return (b == kBounceBack || (b == kVelocity && rule != kBounceBack) || (b == kOutflow && rule == kPeriodic)) ? b
                                                                                                                 : rule;
  }

  void set_rule(LinePlan& p, int q, int rule, long line_base) const {
    const auto& lat = k.lat;
    p.rule[q] = static_cast<unsigned char>(rule);
    if (rule == kBounceBack) {
      p.kind[q] = LinePlan::kBounce;
      p.source[q] = line_base;
    } else if (rule == kOutflow || rule == kVelocity) {
      p.kind[q] = LinePlan::kConstant;
      p.value[q] = rule == kOutflow ? lat.rest_feq[q] : lat.inlet_feq[q];
    } else {
      p.kind[q] = LinePlan::kPull;
    }
  }

  LinePlan plan_interior(int j, int kk) const {
    const auto& lat = k.lat;
    const long line_base = static_cast<long>(lat.nx) * (j + static_cast<long>(lat.ny) * kk);
    LinePlan p;
    const bool inside = j > 0 && kk > 0 && j < lat.ny - 1 && kk < lat.nz - 1;
    for (int q = 0; q < 15; ++q) {
      p.value[q] = 0;
      if (inside) {  // most lines: every direction pulls from a neighbour line
        p.kind[q] = LinePlan::kPull;
        p.rule[q] = kPeriodic;
        p.source[q] = line_base - lat.offset[q];
        continue;
      }
      int s[2] = {j - D3Q15::cy(q), kk - D3Q15::cz(q)};
      const int size[2] = {lat.ny, lat.nz};
      int rule = kPeriodic;
      bool wraps = false;
      for (int a = 0; a < 2; ++a) {
        const int face = s[a] < 0 ? 2 * (a + 1) : s[a] >= size[a] ? 2 * (a + 1) + 1 : -1;
        if (face < 0) continue;
        rule = stronger(rule, lat.border[face]);
        s[a] += s[a] < 0 ? size[a] : -size[a];
        wraps = true;
      }
      p.source[q] = static_cast<long>(lat.nx) * (s[0] + static_cast<long>(lat.ny) * s[1]) - D3Q15::cx(q);
      set_rule(p, q, rule, line_base);
      // The cell groups mark body neighbours without wrapping: check the wrapped line itself.
      for (int i = 1; p.kind[q] == LinePlan::kPull && wraps && !p.wrapped_body && i < lat.nx - 1; ++i)
        p.wrapped_body = is_body(lat.group(p.source[q] + i));
    }
    return p;
  }

  // The interior plan with the x face of end cell `end` added to the directions that cross it.
  LinePlan plan_end(const LinePlan& interior, int end, long line_base) const {
    const auto& lat = k.lat;
    LinePlan p = interior;
    for (int q = 0; q < 15; ++q) {
      const int sx = end - D3Q15::cx(q);
      if (sx >= 0 && sx < lat.nx) continue;
      set_rule(p, q, stronger(interior.rule[q], lat.border[sx < 0 ? 0 : 1]), line_base);
      if (p.kind[q] == LinePlan::kPull)
        p.source[q] = interior.source[q] + (sx < 0 ? lat.nx : -lat.nx);  // periodic wrap
    }
    return p;
  }

  void operator()(const int line) const {
    const auto& lat = k.lat;
    const int j = line % lat.ny, kk = line / lat.ny;
    const long base = static_cast<long>(line) * lat.nx;
    const LinePlan plan = plan_interior(j, kk);
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
    // Runs start at the line's first cell, so that they stay aligned with the line (a run from i = 1
    // splits every other store across two cache lines). The two end cells ride along in the runs and
    // are then recomputed by their end plans below; their pulls in the runs read the neighbouring
    // line or the padding after the last cell of a block (population_stride), never outside f.
    int i = 0;
    while (i < lat.nx) {
      // The longest run (<= kRun) of plain water cells from i, or one other cell.
      int m = 0;
      const int limit = (lat.nx - i) < kRun ? (lat.nx - i) : kRun;
      if (!plan.wrapped_body)
        while (m < limit && (lat.group(base + i + m) == kWater || i + m == 0 || i + m == lat.nx - 1)) ++m;
      if (m == 0) {
        if (i > 0 && i < lat.nx - 1) planned_cell(plan, i, base);  // the ends have their own plans
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
    planned_cell(plan_end(plan, 0, base), 0, base);
    if (lat.nx > 1) planned_cell(plan_end(plan, lat.nx - 1, base), lat.nx - 1, base);
    if (streaming) streaming_fence();  // this line's stores land before the step's end
  }

  // Cell i of the line by its plan, one direction at a time: the two end cells, and interior cells
  // that are not plain water (body cells keep their populations; water next to a body follows the C3 rule).
  void planned_cell(const LinePlan& plan, int i, long base) const {
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
        f[q] = is_body(lat.group(sc)) ? lat.pull_from_body(k.src, q, c, sc) : k.src(q * n + sc);
      }
    }
    k.collide(f, c);
  }

  // m consecutive cells: populations from in[q][a], collided populations to out[q][a]. out may be in
  // (the AA pattern, lbm_aa_line_kernel.hpp): out[q] is then in[-q] at the same index, so relax loads
  // both inputs of a pair before it stores.
  // Two passes: the moments of all m cells (15 loads each), then the relaxation one pair of opposite
  // directions at a time (relax). The second pass reads the run again from L1 (15 x kRun values) and
  // has two input and two output streams live per loop, where a single fused loop keeps 30 pointers
  // and spills them: that single loop (all of bgk_relax per cell) took 2x the CPU time (serial 128^3).
  // With `streaming` each direction is relaxed into `staged` (L1) and then stored around the caches.
  void water_run(const Real* const in[15], Real* const out[15], const int m) const {
    const Real F0 = k.force[0], F1 = k.force[1], F2 = k.force[2];
    Real rho[kRun], ux[kRun], uy[kRun], uz[kRun], uu[kRun], staged[2][kRun];
    const Real* i0 = in[0];
    const Real* i1 = in[1];
    const Real* i2 = in[2];
    const Real* i3 = in[3];
    const Real* i4 = in[4];
    const Real* i5 = in[5];
    const Real* i6 = in[6];
    const Real* i7 = in[7];
    const Real* i8 = in[8];
    const Real* i9 = in[9];
    const Real* i10 = in[10];
    const Real* i11 = in[11];
    const Real* i12 = in[12];
    const Real* i13 = in[13];
    const Real* i14 = in[14];
    IMMERSE_LBM_SIMD
    for (int a = 0; a < m; ++a) {
      const Real f[15] = {i0[a], i1[a], i2[a],  i3[a],  i4[a],  i5[a],  i6[a], i7[a],
                          i8[a], i9[a], i10[a], i11[a], i12[a], i13[a], i14[a]};
      bgk_moments(f, F0, F1, F2, rho[a], ux[a], uy[a], uz[a], uu[a]);
    }
    const RunMoments mo{rho, ux, uy, uz, uu};
    relax<0>(in, out, mo, m, staged);
    relax<1>(in, out, mo, m, staged);
    relax<3>(in, out, mo, m, staged);
    relax<5>(in, out, mo, m, staged);
    relax<7>(in, out, mo, m, staged);
    relax<9>(in, out, mo, m, staged);
    relax<11>(in, out, mo, m, staged);
    relax<13>(in, out, mo, m, staged);
  }

  struct RunMoments {
    const Real *rho, *ux, *uy, *uz, *uu;  // uu = 3/2 |u|^2 (bgk_moments)
  };

  // BGK with Guo forcing (bgk_relax's expressions) for direction q and, for odd q, its opposite q + 1.
  // The two equilibria share w rho (1 + 9/2 (e.u)^2 - 3/2 u^2) and differ in the sign of 3 w rho e.u
  // (and the two forcing terms in the sign of 3 w e.F), so a pair costs little more than one
  // direction; q is a template constant, so e_q's 0 and +-1 components fold away. q = 0: rest alone.
  template <int q>
  void relax(const Real* const in[15], Real* const out[15], const RunMoments& mo, const int m,
             Real (*staged)[kRun]) const {
    constexpr bool pair = q > 0;
    constexpr int o = pair ? q + 1 : q;
    static_assert(!pair || (q % 2 == 1 && q + 1 < 15), "pairs are (1, 2), (3, 4), ... (13, 14)");
    const Real ex = D3Q15::cx(q), ey = D3Q15::cy(q), ez = D3Q15::cz(q), w = Real(D3Q15::w(q));
    const Real om = k.omega, F0 = k.force[0], F1 = k.force[1], F2 = k.force[2];
    const Real pw = k.force_pref * w, eF = ex * F0 + ey * F1 + ez * F2;
    const Real* rho = mo.rho;
    const Real* ux = mo.ux;
    const Real* uy = mo.uy;
    const Real* uz = mo.uz;
    const Real* uu = mo.uu;
    const Real* fa = in[q];
    const Real* fb = in[o];
    Real* ta = streaming ? staged[0] : out[q];
    Real* tb = streaming ? staged[1] : out[o];
    if (k.forced) {
      const Real force_odd = pw * Real(3) * eF;
      IMMERSE_LBM_SIMD
      for (int a = 0; a < m; ++a) {
        const Real eu = ex * ux[a] + ey * uy[a] + ez * uz[a], wr = w * rho[a];
        const Real even = wr * (Real(1) + Real(4.5) * eu * eu - uu[a]), odd = wr * Real(3) * eu;
        const Real force_even = pw * (Real(9) * eu * eF - Real(3) * (ux[a] * F0 + uy[a] * F1 + uz[a] * F2));
        const Real x = fa[a], y = fb[a];  // both before either store: in place, ta is fb (AA pattern)
        ta[a] = x - om * (x - (even + odd)) + (force_even + force_odd);
        if constexpr (pair) tb[a] = y - om * (y - (even - odd)) + (force_even - force_odd);
      }
    } else {
      IMMERSE_LBM_SIMD
      for (int a = 0; a < m; ++a) {
        const Real eu = ex * ux[a] + ey * uy[a] + ez * uz[a], wr = w * rho[a];
        const Real even = wr * (Real(1) + Real(4.5) * eu * eu - uu[a]), odd = wr * Real(3) * eu;
        const Real x = fa[a], y = fb[a];
        ta[a] = x - om * (x - (even + odd));
        if constexpr (pair) tb[a] = y - om * (y - (even - odd));
      }
    }
    if (streaming) {
      store_run(out[q], staged[0], m, true);
      if constexpr (pair) store_run(out[o], staged[1], m, true);
    }
  }
};

}  // namespace immerse::lbm3d

#undef IMMERSE_LBM_SIMD
