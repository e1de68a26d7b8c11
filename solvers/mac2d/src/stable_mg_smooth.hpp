#pragma once
// The multigrid smoother's kernel (stable_multigrid.cpp), in a header of its own so that a test can
// run its host row loop against its per-cell form (tests/stable/test_colour_sweeps.cpp).
#include <Kokkos_Core.hpp>

#include "immerse/core/simd_lanes.hpp"
#include "stable_grid.hpp"
#include "stable_loops.hpp"

namespace immerse::mac2d {

// A number's form of select_positive (simd_lanes.hpp), so that the cell update below is written once.
template <class S>
KOKKOS_FORCEINLINE_FUNCTION S select_positive(S x, S a, S b) {
  return x > 0 ? a : b;
}

// How a smoothing pass starts, in its first two half-sweeps (H = 0 and 1 in colour_sweeps):
//   current:   from p as it is;
//   zero:      from p = 0, whatever p holds inside (its ghosts are 0: no kernel writes them): half-sweep
//              0 reads no neighbour, and both set their closed cells (W = 0, no update) to 0, so that
//              the caller need not clear p first;
//   prolonged: from p plus the coarser level's correction cp (piecewise constant, scaled by kc), added
//              where it is read instead of in a pass of its own: an update never reads p(k), so
//              half-sweep 0 needs its neighbours corrected and half-sweep 1 only its closed cells.
enum class MgStart { current, zero, prolonged };

// One red-black half-sweep h of p(k) = (sum w p_nb - b) / W on a multigrid level, written without
// branches on the cell (selects only) so that it runs on vectors of cells. The start is a template
// parameter because a run-time one leaves the reads conditional, and the loops scalar.
template <class View, MgStart Start>
struct MgSmoothKernel {
  using S = typename View::non_const_value_type;
  static constexpr bool kProlong = Start == MgStart::prolonged, kZero = Start == MgStart::zero;
  StableGrid g, cg;
  View wu, wv, p, b, cp;
  S kc;

  // A cell's (or a vector of cells') face weights and neighbours, its right-hand side and value.
  template <class T>
  struct Cells {
    T we, ww, wn, ws, pe, pw, pn, ps, b, p;
  };
  // Its new value, with the coarse corrections of its east, west, north and south neighbours (added
  // in half-sweep 0) and its own (added to a closed cell in half-sweeps 0 and 1). T: S or host lanes.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T relax(const Cells<T>& c, int h, T ce, T cw, T cn, T cs, T own) {
    const T W = c.we + c.ww + c.wn + c.ws;
    T sum = kZero && h == 0 ? T(0) : c.we * c.pe + c.ww * c.pw + c.wn * c.pn + c.ws * c.ps;
    if (kProlong && h == 0) sum += c.we * ce + c.ww * cw + c.wn * cn + c.ws * cs;
    const T relaxed = (sum - c.b) / select_positive(W, W, T(1));
    return select_positive(W, relaxed, kProlong && h < 2 ? c.p + own : kZero && h < 2 ? T(0) : c.p);
  }
  KOKKOS_INLINE_FUNCTION S corr(int i, int j) const { return kc * cp(cg.at((i + 1) / 2, (j + 1) / 2)); }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int h) const {
    const int k = g.at(i, j);
    const Cells<S> c{wu(k), wu(k - 1), wv(k), wv(k - g.w), p(k + 1), p(k - 1), p(k + g.w), p(k - g.w), b(k), p(k)};
    if (kProlong)
      p(k) = relax(c, h, corr(i + 1, j), corr(i - 1, j), corr(i, j + 1), corr(i, j - 1), corr(i, j));
    else
      p(k) = relax(c, h, S(0), S(0), S(0), S(0), S(0));
  }

  // The host row loop (colour_sweeps): cells i = i0, i0 + 2, ... <= i1 of row j.
  void row(int j, int h, int i0, int i1) const {
    if (Start == MgStart::current || h >= 2)
      row_of<2>(j, i0, i1);
    else if (h == 0)
      row_of<0>(j, i0, i1);
    else
      row_of<1>(j, i0, i1);
  }

#if defined(IMMERSE_HOST_LANES)
  // Vectors of consecutive cells from i = 1 on, both colours computed and only this half-sweep's
  // stored (a masked store), so that every read is a contiguous vector load; the stride-2 form left
  // the compiler storing lane by lane. A vector's result is stored after the next vector's loads:
  // those overlap it (its west neighbours), and a load that overlaps a store still in flight waits
  // for it to complete (measured: the smoother 1.4x slower with the store first). The active cells
  // read only the other colour, so the next vector needs nothing this one writes.
  // The coarse corrections: a vector of cells from an odd i covers the coarse cells from (i + 1) / 2
  // on, each twice; the coarse row is read as a vector from the cell west of that and spread over the
  // lanes. The last cells (fewer than a vector, or a coarse read that would pass the coarse array's
  // end) take the per-cell form.
  template <int H>
  void row_of(int j, int i0, int i1) const {
    using L = HostLanes<S>;
    constexpr int kW = L::width;
    constexpr bool kCoarse = kProlong && H < 2;
    const S *wup = wu.data(), *wvp = wv.data(), *bp = b.data();
    S* pp = p.data();
    const int first = (i0 - 1) & 1;  // lanes from an odd i: the active ones are first, first + 2, ...
    // Coarse rows: the cell's own, and those of its north and south neighbours (odd j: the north one
    // shares the cell's coarse row, even j: the south one).
    const int J = (j + 1) / 2;
    const int own_row = kCoarse ? cg.at(0, J) : 0;
    const int north_row = kCoarse ? cg.at(0, j & 1 ? J : J + 1) : 0;
    const int south_row = kCoarse ? cg.at(0, j & 1 ? J - 1 : J) : 0;
    // The coarse reads from a row offset r + (i - 1) / 2 stay below cp's extent while i <= last_i.
    int last_i = i1;
    if (kCoarse) {
      const long top = own_row > north_row ? own_row : north_row;
      const long room = static_cast<long>(cp.extent(0)) - kW - top;
      last_i = room < 0 ? 0 : static_cast<int>(2 * room + 1 < i1 ? 2 * room + 1 : i1);
    }
    const S* cpp = kCoarse ? cp.data() : nullptr;
    const L kcl(kc), zero(0.0);
    L pending;
    int pending_k = -1;
    int i = 1;
    // The east and west neighbours, and the west faces, from the vectors before and after: three
    // loads fewer per vector (each unaligned load splits a cache line and costs about a cycle).
    L p_prev, p_cur, wu_prev;
    if (i + kW - 1 <= i1) {
      const int k = g.at(i, j);
      p_prev = L::load(pp + k - kW), p_cur = L::load(pp + k), wu_prev = L::load(wup + k - kW);
    }
    for (; i + kW - 1 <= i1 && i <= last_i; i += kW) {
      const int k = g.at(i, j);
      const L p_next = L::load(pp + k + kW), wu_cur = L::load(wup + k);
      const Cells<L> c{wu_cur,
                       L::template along<kW - 1>(wu_prev, wu_cur),
                       L::load(wvp + k),
                       L::load(wvp + k - g.w),
                       L::template along<1>(p_cur, p_next),
                       L::template along<kW - 1>(p_prev, p_cur),
                       L::load(pp + k + g.w),
                       L::load(pp + k - g.w),
                       L::load(bp + k),
                       p_cur};
      p_prev = p_cur, p_cur = p_next, wu_prev = wu_cur;
      L next;
      if constexpr (kCoarse) {
        const int I = (i - 1) / 2;  // the coarse cell west of the vector's first
        const L mine = kcl * L::load(cpp + own_row + I);
        const L own = mine.template spread_pairs<2>();
        if constexpr (H == 0) {
          const L north = (kcl * L::load(cpp + north_row + I)).template spread_pairs<2>();
          const L south = (kcl * L::load(cpp + south_row + I)).template spread_pairs<2>();
          next = relax(c, H, mine.template spread_pairs<3>(), mine.template spread_pairs<1>(), north, south, own);
        } else {
          next = relax(c, H, zero, zero, zero, zero, own);
        }
      } else {
        next = relax(c, H, zero, zero, zero, zero, zero);
      }
      if (pending_k >= 0) store_alternate(pp + pending_k, pending, first);
      pending = next;
      pending_k = k;
    }
    if (pending_k >= 0) store_alternate(pp + pending_k, pending, first);
    for (i += (i0 - i) & 1; i <= i1; i += 2) (*this)(i, j, H);
  }
#else
  template <int H>
  void row_of(int j, int i0, int i1) const {
    IMMERSE_ROW_SIMD
    for (int i = i0; i <= i1; i += 2) (*this)(i, j, H);
  }
#endif
};

}  // namespace immerse::mac2d
