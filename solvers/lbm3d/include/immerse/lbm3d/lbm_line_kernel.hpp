#pragma once
// The host-space form of the fused collide+stream: one x line of cells per work item.
//
// Why a separate path: on a CPU the kernel only reaches the memory bandwidth when the 15 loads and
// 15 stores of a cell vectorise over consecutive cells. Away from the two x ends every cell of a line
// receives direction q from the same place: a neighbour line (shifted by -e_q.x), its own opposite
// population (bounce-back face) or a constant (outflow / velocity-inlet face). That plan is worked
// out once per line (`plan_interior`), so every line, border lines included, runs its plain water
// cells through SIMD runs (`water_run`). The two x ends have a plan of their own (`plan_end`: their x
// face added) and run as one-cell runs; cells next to a body, and ends with a body across a face,
// go cell by cell (`planned_cell`).
// With `streaming` (lattice.stores = streaming) the runs write with streaming stores
// (streaming_store.hpp): no write-allocate read of the destination buffer.
// Device spaces do not use this file: they run CollideStream one cell per work item.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "immerse/core/prefetch.hpp"
#include "immerse/lbm3d/lbm_half_run.hpp"
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

template <class Pop, class Exec>
struct CollideStreamLines {
  using Real = typename LbmStore<Pop>::real;
  CollideStream<Pop, Exec> k;      // lattice, buffers, relaxation and force
  bool streaming = false;          // water runs store around the caches (lattice.stores)
  static constexpr int kRun = 64;  // cells per SIMD run: the constant fills below are this long
  // The relaxation's constants, worked out once per kernel (copied into a local by each run).
  BgkCoefficients<Real> coefficients{k.omega, k.force_pref, k.force[0], k.force[1], k.force[2]};

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
      // The cell groups mark body neighbours without wrapping: check the wrapped line itself (its
      // cells 1 .. nx - 2, eight groups at a time: a body cell is one that is not water).
      if (p.kind[q] == LinePlan::kPull && wraps && !p.wrapped_body && lat.nx > 2)
        p.wrapped_body = water_cells(p.source[q] + 1, lat.nx - 2, kNearBody) != lat.nx - 2;
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
    const Pop* src = k.src.data();
    Pop* dst = k.dst.data();
    const long n = lat.stride;
    Pop constant[15][kRun];  // constant-kind directions read these as if they were a line
    const Pop* in[15];
    Pop* out[15];
    for (int q = 0; q < 15; ++q) {
      if (plan.kind[q] == LinePlan::kConstant)
        for (int a = 0; a < kRun; ++a) constant[q][a] = lat.enc(plan.value[q], q);
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
      if (!plan.wrapped_body) {
        const int first = i == 0 ? 1 : 0;  // the end cells ride along whatever their group
        m = first + water_cells(base + i + first, limit - first, kWater);
        if (m < limit && i + m == lat.nx - 1) ++m;
      }
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
      Pop* at[15];
      for (int q = 0; q < 15; ++q) at[q] = out[q] + i;
      water_run(in, at, m);
      i += m;
    }
    end_cell(plan_end(plan, 0, base), 0, base);
    if (lat.nx > 1) end_cell(plan_end(plan, lat.nx - 1, base), lat.nx - 1, base);
    if (streaming) streaming_fence();  // this line's stores land before the step's end
  }

  // End cell i of a line by its end plan: a one-cell run (water_run) where it is plain water and no
  // body lies across a periodic face, else planned_cell.
  void end_cell(const LinePlan& plan, const int i, const long base) const {
    if (!plain_end(plan, i, base)) {
      planned_cell(plan, i, base);
      return;
    }
    const Pop* src = k.src.data();
    const long n = k.lat.stride;
    const Pop* in[15];
    Pop* out[15];
    Pop value[15];  // the constant-kind sources as stored
    for (int q = 0; q < 15; ++q) {
      const int o = D3Q15::opposite(q);
      value[q] = k.lat.enc(plan.value[q], q);
      in[q] = plan.kind[q] == LinePlan::kPull     ? src + q * n + plan.source[q] + i
              : plan.kind[q] == LinePlan::kBounce ? src + o * n + plan.source[q] + i
                                                  : &value[q];
      out[q] = k.dst.data() + q * n + base + i;
    }
    water_run(in, out, 1);
  }

  // Whether end cell i of a line, with its end plan, is plain water with no body across a face: the
  // cell groups mark body neighbours inside the box only, so the wrapped sources are read here.
  bool plain_end(const LinePlan& plan, const int i, const long base) const {
    const auto& lat = k.lat;
    bool plain = lat.group(base + i) == kWater;
    for (int q = 0; q < 15 && plain; ++q)
      plain = plan.kind[q] != LinePlan::kPull || !is_body(lat.group(plan.source[q] + i));
    return plain;
  }

  // How many cells from c on (at most limit) have a group of at most `highest`: kWater for plain
  // water, kNearBody for any water. Eight group bytes at a time (a zero word is eight plain water
  // cells), so that finding a line's runs costs little beside relaxing them.
  int water_cells(const long c, const int limit, const unsigned char highest) const {
    static_assert(kWater == 0 && kNearBody == 1, "the word test below assumes these codes");
    const unsigned char* g = k.lat.group.data() + c;
    const std::uint64_t other = highest == kWater ? ~std::uint64_t(0) : std::uint64_t(0xFEFEFEFEFEFEFEFE);
    int m = 0;
    for (; m + 8 <= limit; m += 8) {
      std::uint64_t word;
      std::memcpy(&word, g + m, 8);
      if (word & other) break;
    }
    while (m < limit && g[m] <= highest) ++m;
    return m;
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
        f[q] = lat.load(k.src(D3Q15::opposite(q) * n + c), q);
      } else {
        const long sc = plan.source[q] + i;
        f[q] = is_body(lat.group(sc)) ? lat.pull_from_body(k.src, q, c, sc) : lat.load(k.src(q * n + sc), q);
      }
    }
    k.collide(f, c);
  }

  // m consecutive cells (m <= kRun): populations from in[q][a], relaxed populations to out[q][a].
  // out may be in (the AA pattern, lbm_aa_line_kernel.hpp): out[q] is then in[-q] at the same index,
  // and each cell loads all 15 of its values before it stores any. One pass over the cells, every
  // value in a register (bgk_collide), in whole SIMD vectors of kLanes cells: the last m % kLanes
  // cells are a vector with the cells past m masked off on AVX-512 hosts, and vectors of half, a
  // quarter and an eighth of that width elsewhere (no scalar remainder loop, which cost as much as
  // the rest of a 254-cell run). With `streaming` the results go to `staged` (L1) and are
  // then stored around the caches.
  // Populations stored in binary16: on AVX-512 and AVX2 + F16C hosts the conversions run inside the
  // hand-vectorised cell loop (lbm_half_run.hpp: on AVX-512, 1.5x the FP32 kernel at 256^3, where
  // widening whole runs into L1 float blocks and narrowing them back ran at 0.97x); elsewhere
  // through those blocks (GCC 12 does not vectorise the conversion in the cell loop itself). FP16C
  // likewise, its conversions in integer lanes (fp16c.hpp). All 15 inputs of a cell are read before its
  // outputs are written, so in place stays safe.
  void water_run(const Pop* const in[15], Pop* const out[15], const int m) const {
    if constexpr (LbmStore<Pop>::kHalf) {
      for (int q = 0; q < 15; ++q) {
        prefetch_write(in[q] + kHalfAhead);
        prefetch_write(in[q] + kHalfAhead + 32);
      }
#if defined(IMMERSE_HALF_SIMD)  // binary16 and FP16C
      if (k.forced)
        relax_half_run<true>(k.omega, k.force_pref, k.force, k.lat.ref, k.lat.inv_scale, in, out, m);
      else
        relax_half_run<false>(k.omega, k.force_pref, k.force, k.lat.ref, k.lat.inv_scale, in, out, m);
#else
      alignas(64) Real wide_in[15][kRun], wide_out[15][kRun];
      const Real* win[15];
      Real* wout[15];
      const auto& lat = k.lat;
      for (int q = 0; q < 15; ++q) {
        LbmStore<Pop>::widen(in[q], wide_in[q], m, lat.inv_scale, lat.ref[q]);
        win[q] = wide_in[q];
        wout[q] = wide_out[q];
      }
      if (k.forced)
        vectors<true, false>(win, wout, m);
      else
        vectors<false, false>(win, wout, m);
      for (int q = 0; q < 15; ++q) LbmStore<Pop>::narrow(wide_out[q], out[q], m, lat.inv_scale, lat.ref[q]);
#endif
    } else {
      stored_run(in, out, m);
    }
  }

  // water_run for populations stored as computed.
  void stored_run(const Real* const in[15], Real* const out[15], const int m) const {
    Real staged[15][kRun];
    Real* to[15];
    for (int q = 0; q < 15; ++q) to[q] = streaming ? staged[q] : out[q];
    if (k.forced)
      vectors<true>(in, to, m);
    else
      vectors<false>(in, to, m);
    if (streaming)
      for (int q = 0; q < 15; ++q) store_run(out[q], staged[q], m, true);
  }

  static constexpr int kLanes = 64 / static_cast<int>(sizeof(Real));  // cells per 64-byte vector
#if defined(__AVX512F__)
  static constexpr bool kMaskedVectors = true;  // a run's last cells as one vector with lanes masked off
#else
  static constexpr bool kMaskedVectors = false;
#endif
  static constexpr int kAhead = 256 / static_cast<int>(sizeof(Real));  // prefetch distance: 4 lines
  static constexpr int kHalfAhead = 256;                               // binary16: prefetch 512 bytes (8 lines) ahead

  // The run one vector at a time, each preceded by a prefetch of its 15 sources 256 bytes ahead.
  // Why: the hardware prefetchers do not keep 15 streams ahead of a loop that computes this much
  // per line loaded, and the out-of-order window holds only a few vectors, so without it one core
  // waits for memory and then computes, in turn (1 thread at 256^3: about the sum of the two
  // times). In place (AA) the sources are the destinations; for pull the stores write-allocate.
  // Prefetch: off for the widened binary16 blocks, which are in L1 already.
  // A one-cell run (the x ends of a line) is relaxed in scalar code: a masked vector of kLanes lanes
  // costs several times as much for one cell. The same bgk_collide; GCC may fuse its multiply-adds
  // differently in scalar and vector code, so such a cell can differ from a run's in the last bit.
  template <bool Forced, bool Prefetch = true>
  void vectors(const Real* const in[15], Real* const out[15], const int m) const {
    if (m == 1) {
      one_cell<Forced>(in, out, 0);
      return;
    }
    const int full = m - m % kLanes;
    for (int a0 = 0; a0 < full; a0 += kLanes) {
      if constexpr (Prefetch)
        for (int q = 0; q < 15; ++q) prefetch_write(in[q] + a0 + kAhead);
      cells<Forced, false, kLanes>(in, out, a0, kLanes);
    }
    if (full == m) return;
    if constexpr (kMaskedVectors) {
      cells<Forced, true, kLanes>(in, out, full, m - full);
    } else {
      // Without mask registers GCC compiles the masked vector to scalar code over all kLanes lanes
      // (the 14-cell tail of a 254-cell line: 16 scalar cells). Vectors of half, a quarter and an
      // eighth of the width where they fill (FP32 on AVX2: 8, 4 and 2 cells), then at most one cell.
      int a0 = full;
      if (a0 + kLanes / 2 <= m) {
        cells<Forced, false, kLanes / 2>(in, out, a0, kLanes / 2);
        a0 += kLanes / 2;
      }
      if (a0 + kLanes / 4 <= m) {
        cells<Forced, false, kLanes / 4>(in, out, a0, kLanes / 4);
        a0 += kLanes / 4;
      }
      if (a0 + kLanes / 8 <= m) {
        cells<Forced, false, kLanes / 8>(in, out, a0, kLanes / 8);
        a0 += kLanes / 8;
      }
      for (; a0 < m; ++a0) one_cell<Forced>(in, out, a0);
    }
  }

  // Cell a of a run, in scalar code.
  template <bool Forced>
  void one_cell(const Real* const in[15], Real* const out[15], const int a) const {
    const BgkCoefficients<Real> c = coefficients;
    Real g[15];
    bgk_collide<Forced>(c, in[0][a], in[1][a], in[2][a], in[3][a], in[4][a], in[5][a], in[6][a], in[7][a], in[8][a],
                        in[9][a], in[10][a], in[11][a], in[12][a], in[13][a], in[14][a], g[0], g[1], g[2], g[3], g[4],
                        g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14]);
    for (int q = 0; q < 15; ++q) out[q][a] = g[q];
  }

  // Cells a0 .. a0 + m - 1 of a run as one vector of Width lanes. Masked: m < Width cells, the lanes
  // past m neither loaded (they relax a resting unit density) nor stored.
  // The coefficients are a local copy here, on purpose: passed in by reference, serial 256^3 ran at
  // 45-47 against 51 GB/s (stores through `out` may alias a referenced object).
  template <bool Forced, bool Masked, int Width>
  void cells(const Real* const in[15], Real* const out[15], const int a0, const int m) const {
    const BgkCoefficients<Real> c = coefficients;
    const Real *i0 = in[0] + a0, *i1 = in[1] + a0, *i2 = in[2] + a0, *i3 = in[3] + a0, *i4 = in[4] + a0;
    const Real *i5 = in[5] + a0, *i6 = in[6] + a0, *i7 = in[7] + a0, *i8 = in[8] + a0, *i9 = in[9] + a0;
    const Real *i10 = in[10] + a0, *i11 = in[11] + a0, *i12 = in[12] + a0, *i13 = in[13] + a0, *i14 = in[14] + a0;
    Real *o0 = out[0] + a0, *o1 = out[1] + a0, *o2 = out[2] + a0, *o3 = out[3] + a0, *o4 = out[4] + a0;
    Real *o5 = out[5] + a0, *o6 = out[6] + a0, *o7 = out[7] + a0, *o8 = out[8] + a0, *o9 = out[9] + a0;
    Real *o10 = out[10] + a0, *o11 = out[11] + a0, *o12 = out[12] + a0, *o13 = out[13] + a0, *o14 = out[14] + a0;
    constexpr int n = Width;  // cells (m = Width), or lanes with the cells past m masked off
    const Real rest = Real(1.0 / 15.0);
    IMMERSE_LBM_SIMD
    for (int a = 0; a < n; ++a) {
      const bool on = !Masked || a < m;
      Real g0, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12, g13, g14;
      bgk_collide<Forced>(c, on ? i0[a] : rest, on ? i1[a] : rest, on ? i2[a] : rest, on ? i3[a] : rest,
                          on ? i4[a] : rest, on ? i5[a] : rest, on ? i6[a] : rest, on ? i7[a] : rest, on ? i8[a] : rest,
                          on ? i9[a] : rest, on ? i10[a] : rest, on ? i11[a] : rest, on ? i12[a] : rest,
                          on ? i13[a] : rest, on ? i14[a] : rest, g0, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12,
                          g13, g14);
      if (on) {
        o0[a] = g0, o1[a] = g1, o2[a] = g2, o3[a] = g3, o4[a] = g4, o5[a] = g5, o6[a] = g6, o7[a] = g7;
        o8[a] = g8, o9[a] = g9, o10[a] = g10, o11[a] = g11, o12[a] = g12, o13[a] = g13, o14[a] = g14;
      }
    }
  }
};

}  // namespace immerse::lbm3d

#undef IMMERSE_LBM_SIMD
