#pragma once
// The multigrid smoother's kernel (stable_multigrid.cpp), in a header of its own so that a test can
// run its host row loop against its per-cell form (tests/stable/test_colour_sweeps.cpp).
#include <Kokkos_Core.hpp>

#include "stable_grid.hpp"
#include "stable_loops.hpp"

namespace immerse::mac2d {

// One red-black half-sweep h of p(k) = (sum w p_nb - b) / W on a multigrid level, written without
// branches on the cell (selects only) so that the row loop vectorises. With Prolong, the coarse
// correction cp is added where it is read instead of in a pass of its own: an update never reads
// p(k), so half-sweep 0 needs its neighbours corrected and half-sweep 1 only its closed cells (W = 0,
// no update). Prolong is a template parameter because a run-time flag leaves the coarse reads
// conditional, and the loops scalar.
template <class View, bool Prolong>
struct MgSmoothKernel {
  using S = typename View::non_const_value_type;
  StableGrid g, cg;
  View wu, wv, p, b, cp;
  S kc;
  // Cell k, with the coarse corrections of its east, west, north and south neighbours (added in
  // half-sweep 0) and its own (added to a closed cell in half-sweeps 0 and 1).
  KOKKOS_INLINE_FUNCTION void relax(int k, int h, S ce, S cw, S cn, S cs, S own) const {
    const S we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
    const bool open = W > 0;
    S sum = we * p(k + 1) + ww * p(k - 1) + wn * p(k + g.w) + ws * p(k - g.w);
    if (Prolong && h == 0) sum += we * ce + ww * cw + wn * cn + ws * cs;
    const S relaxed = (sum - b(k)) / (open ? W : S(1));
    p(k) = open ? relaxed : (Prolong && h < 2 ? p(k) + own : p(k));
  }
  KOKKOS_INLINE_FUNCTION S corr(int i, int j) const { return kc * cp(cg.at((i + 1) / 2, (j + 1) / 2)); }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int h) const {
    if (Prolong)
      relax(g.at(i, j), h, corr(i + 1, j), corr(i - 1, j), corr(i, j + 1), corr(i, j - 1), corr(i, j));
    else
      relax(g.at(i, j), h, 0, 0, 0, 0, 0);
  }
  // The host row loop (colour_sweeps): cells i = i0, i0 + 2, ... <= i1 of row j. Per cell, the
  // coarse index (i + 1) / 2 is a gather the compiler does not vectorise; along a row of one colour
  // it is (i0 + 1) / 2 + m for the m-th cell, so the coarse values are read as contiguous rows: the
  // coarse row of j and the one of j's vertical neighbour outside it, the coarse column of i and of
  // i's horizontal neighbour outside it. The prolonging smoother then costs little more than the
  // plain one.
  void row(int j, int h, int i0, int i1) const {
    if (!Prolong || h >= 2) {
      IMMERSE_ROW_SIMD
      for (int i = i0; i <= i1; i += 2) relax(g.at(i, j), 2, 0, 0, 0, 0, 0);
    } else if (h == 0) {
      row_prolonged<0>(j, i0, i1);
    } else {
      row_prolonged<1>(j, i0, i1);
    }
  }
  template <int H>
  void row_prolonged(int j, int i0, int i1) const {
    const int J = (j + 1) / 2, I0 = (i0 + 1) / 2, count = i1 >= i0 ? (i1 - i0) / 2 + 1 : 0;
    const bool odd_i = i0 & 1, odd_j = j & 1;  // odd: the east (north) neighbour shares the coarse cell
    const S* own_row = &cp(cg.at(0, J));
    const S* other_row = &cp(cg.at(0, odd_j ? J - 1 : J + 1));
    const int other_col = odd_i ? -1 : 1;
    IMMERSE_ROW_SIMD
    for (int m = 0; m < count; ++m) {
      const int I = I0 + m;
      const S c = kc * own_row[I], cx = kc * own_row[I + other_col], cy = kc * other_row[I];
      relax(g.at(i0 + 2 * m, j), H, odd_i ? c : cx, odd_i ? cx : c, odd_j ? c : cy, odd_j ? cy : c, c);
    }
  }
};

}  // namespace immerse::mac2d
