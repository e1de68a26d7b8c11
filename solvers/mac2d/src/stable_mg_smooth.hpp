#pragma once
// The multigrid smoother's kernel (stable_multigrid.cpp), in a header of its own so that a test can
// run its host row loop against its per-cell form (tests/stable/test_colour_sweeps.cpp).
#include <Kokkos_Core.hpp>

#include "immerse/core/simd_lanes.hpp"
#include "stable_grid.hpp"
#include "stable_loops.hpp"
#include "stable_split_rows.hpp"

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
  SplitGrid g, cg;
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
    const int e = g.at(i + 1, j), w = g.at(i - 1, j);
    const Cells<S> c{wu(k), wu(w), wv(k), wv(k - g.w), p(e), p(w), p(k + g.w), p(k - g.w), b(k), p(k)};
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
  // Vectors of this colour's cells, which the colour-split layout (SplitGrid) keeps contiguous: from
  // index m of the active half, aligned loads of the cell's values, faces and north and south
  // neighbours; the east and west neighbours and west faces from the other half, at m or one along
  // (from the vector before or after); a plain store. Cell m of either colour lies in coarse cell
  // m + 1, so a vector's coarse corrections are consecutive coarse cells, interleaved from the
  // coarse row's two halves. The last cells (fewer than a vector) take the per-cell form.
  template <int H>
  void row_of(int j, int i0, int i1) const {
    using L = HostLanes<S>;
    constexpr int kW = L::width;
    constexpr bool kCoarse = kProlong && H < 2;
    const int a = i0 & 1;                         // the active half
    const int count = a ? (i1 + 1) / 2 : i1 / 2;  // its cells i = 2m + 2 - a <= i1
    const int A = g.row(j) + a * g.half, B = g.row(j) + (1 - a) * g.half;
    const S *wup = wu.data(), *wvp = wv.data(), *bp = b.data(), *cpp = kCoarse ? cp.data() : nullptr;
    S* pp = p.data();
    // Coarse rows (their half 0 and half 1 at index 0): the cell's own, its north and south
    // neighbours' (odd j: the north one shares the cell's coarse row, even j: the south one).
    const int J = (j + 1) / 2;
    const int own_row = kCoarse ? cg.row(J) : 0;
    const int north_row = kCoarse ? cg.row(j & 1 ? J : J + 1) : 0;
    const int south_row = kCoarse ? cg.row(j & 1 ? J - 1 : J) : 0;
    // Coarse cells I = m + 1 + l in lane l (split_rows::block); shift 1: I one further along, -1: back.
    auto coarse = [&](int row, int m, int shift) { return split_rows::block(cpp, cg, row, m, shift); };
    const L kcl(kc), zero(0.0);
    int m = 0;
    L p_prev, p_cur, w_prev, w_cur;
    if (kW <= count)
      p_prev = L::load(pp + B - kW), p_cur = L::load(pp + B), w_prev = L::load(wup + B - kW), w_cur = L::load(wup + B);
    for (; m + kW <= count; m += kW) {
      const L p_next = L::load(pp + B + m + kW), w_next = L::load(wup + B + m + kW);
      // a = 0 (i = 2m + 2): east in half 1 at m + 1, west at m; a = 1 (i = 2m + 1): east in half 0 at
      // m, west at m - 1.
      const L pe = a ? p_cur : L::template along<1>(p_cur, p_next);
      const L pw = a ? L::template along<kW - 1>(p_prev, p_cur) : p_cur;
      const L ww = a ? L::template along<kW - 1>(w_prev, w_cur) : w_cur;
      const int k = A + m;
      const Cells<L> c{L::load(wup + k),
                       ww,
                       L::load(wvp + k),
                       L::load(wvp + k - g.w),
                       pe,
                       pw,
                       L::load(pp + k + g.w),
                       L::load(pp + k - g.w),
                       L::load(bp + k),
                       L::load(pp + k)};
      p_prev = p_cur, p_cur = p_next, w_prev = w_cur, w_cur = w_next;
      L next;
      if constexpr (kCoarse) {
        const L own = kcl * coarse(own_row, m, 0);
        if constexpr (H == 0) {
          // East: coarse cell (i + 2) / 2 = m + 2 (a = 0) or m + 1; west: i / 2 = m + 1 or m (a = 1).
          const L ce = a ? own : kcl * coarse(own_row, m, 1), cw = a ? kcl * coarse(own_row, m, -1) : own;
          next = relax(c, H, ce, cw, kcl * coarse(north_row, m, 0), kcl * coarse(south_row, m, 0), own);
        } else {
          next = relax(c, H, zero, zero, zero, zero, own);
        }
      } else {
        next = relax(c, H, zero, zero, zero, zero, zero);
      }
      next.store(pp + k);
    }
    for (; m < count; ++m) (*this)(2 * m + 2 - a, j, H);
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
