#pragma once
// Host row loops on the multigrid's colour-split layout (SplitGrid), most of them between it and the
// solver's layout (StableGrid: cells i = 1, 2, ... of a row in order), a block of kBlock consecutive
// cells at a time: its odd cells are a half vector of half 1, its even cells the same of half 0, both
// at index (i - 1) / 2 for the block's first cell i (odd). Each reports the cells it did (i = 1 ..
// done); the caller does the rest per cell. Host spaces with AVX only (IMMERSE_HOST_LANES).
#include <cstring>

#include "immerse/core/simd_lanes.hpp"
#include "stable_grid.hpp"

#if defined(IMMERSE_HOST_LANES)
namespace immerse::mac2d::split_rows {

using F = HostLanes<float>;
using D = HostLanes<double>;
constexpr int kBlock = F::width;  // cells per block; D::width = kBlock / 2
typedef int LaneIndex __attribute__((vector_size(kHostVectorBytes)));

// The reverse: lanes 0, 2, ... (odd cells) and 1, 3, ... (even cells), each in a half vector's lanes.
inline void deinterleave(F x, float* odd, float* even) {
  LaneIndex o, e;
  for (int l = 0; l < kBlock; ++l) o[l] = (2 * l) % kBlock, e[l] = (2 * l + 1) % kBlock;
  const F::V a = __builtin_shuffle(x.x, o), b = __builtin_shuffle(x.x, e);
  std::memcpy(odd, &a, sizeof(float) * kBlock / 2);
  std::memcpy(even, &b, sizeof(float) * kBlock / 2);
}
// The same for doubles: two vectors of consecutive cells, odd ones (lanes 0, 2, ...) to odd, even
// ones to even, a whole vector each.
inline void deinterleave(D lo, D hi, double* odd, double* even) {
  typedef long long LaneIndexD __attribute__((vector_size(kHostVectorBytes)));
  LaneIndexD o, e;
  for (int l = 0; l < D::width; ++l) o[l] = 2 * l, e[l] = 2 * l + 1;
  D::V a = __builtin_shuffle(lo.x, hi.x, o), b = __builtin_shuffle(lo.x, hi.x, e);
  std::memcpy(odd, &a, sizeof(a));
  std::memcpy(even, &b, sizeof(b));
}
// The values of consecutive cells i .. (shift 0), i + 1 .. (shift 1) or i - 1 .. (shift -1) in
// order, i = m + 1 (m even), from row base r (SplitGrid::row): odd cells from half 1, even ones from
// half 0, interleaved. T: float or double.
template <class T>
HostLanes<T> block(const T* z, const SplitGrid& s, int r, int m, int shift) {
  using L = HostLanes<T>;
  const int q = m / 2;
  const T *h0 = z + r, *h1 = z + r + s.half;
  if (shift == 0) return L::interleave(L::load(h1 + q), L::load(h0 + q));
  if (shift > 0) return L::interleave(L::load(h0 + q), L::load(h1 + q + 1));
  return L::interleave(L::load(h0 + q - 1), L::load(h1 + q));
}
// Lanes 0 .. kBlock / 2 - 1 (part 0) or the rest (part 1) of x as doubles.
inline D widen(F x, int part) {
  typedef float Half __attribute__((vector_size(kHostVectorBytes / 2)));
  Half h;
  std::memcpy(&h, reinterpret_cast<const float*>(&x.x) + part * kBlock / 2, sizeof(h));
  return D(__builtin_convertvector(h, D::V));
}
inline F narrow(D lo, D hi) {
  typedef float Half __attribute__((vector_size(kHostVectorBytes / 2)));
  const Half a = __builtin_convertvector(lo.x, Half), b = __builtin_convertvector(hi.x, Half);
  F r;
  std::memcpy(reinterpret_cast<float*>(&r.x), &a, sizeof(a));
  std::memcpy(reinterpret_cast<float*>(&r.x) + kBlock / 2, &b, sizeof(b));
  return r;
}
inline D vabs(D x) { return D(x.x < D::V{} ? -x.x : x.x); }
inline D vmax(D a, D b) { return D(a.x > b.x ? a.x : b.x); }
inline double hmax(D x) {
  double m = 0;
  for (int l = 0; l < D::width; ++l) m = x.x[l] > m ? x.x[l] : m;
  return m;
}

// The residual r = b - L q of the pressure equation (stable_pressure_defect, closed cells 0) on row
// j, q = p, or p + z with the correction z split (with_z); r into rf (split, float) and into r_out
// (split, double) unless null, q into pn where the cell is open (p elsewhere) when with_z. The row's max |r| over the
// cells done joins m_acc.
template <bool kWithZ>
void defect_row(const StableGrid& g, const SplitGrid& s, int j, const double* p, const double* b, const double* wu,
                const double* wv, const float* z, double* pn, float* rf, double* r_out, double& m_acc, int* done) {
  constexpr int kD = D::width;
  const int rs = s.row(j);
  D m(0.0);
  int t = 0;
  for (; kBlock * (t + 1) <= g.nx; ++t) {
    const int i = 1 + kBlock * t, k = g.at(i, j);
    F zc, ze, zw, zn, zs;
    if constexpr (kWithZ) {
      zc = block(z, s, rs, kBlock * t, 0), ze = block(z, s, rs, kBlock * t, 1), zw = block(z, s, rs, kBlock * t, -1);
      zn = block(z, s, rs + s.w, kBlock * t, 0), zs = block(z, s, rs - s.w, kBlock * t, 0);
    }
    D r[2];
    for (int part = 0; part < 2; ++part) {
      const int c = k + part * kD;
      auto q = [&](int at, const F& zz) {
        const D pv = D::load(p + at);
        if constexpr (kWithZ)
          return pv + widen(zz, part);
        else
          return pv;
      };
      const D we = D::load(wu + c), ww = D::load(wu + c - 1), wn = D::load(wv + c), ws = D::load(wv + c - g.w);
      const D W = we + ww + wn + ws, qk = q(c, zc);
      const D res =
          D::load(b + c) - (we * q(c + 1, ze) + ww * q(c - 1, zw) + wn * q(c + g.w, zn) + ws * q(c - g.w, zs) - W * qk);
      r[part] = select_positive(W, res, D(0.0));
      if constexpr (kWithZ) select_positive(W, qk, D::load(p + c)).store(pn + c);
      m = vmax(m, vabs(r[part]));
    }
    const int q0 = t * kBlock / 2;
    deinterleave(narrow(r[0], r[1]), rf + rs + s.half + q0, rf + rs + q0);
    if (r_out) deinterleave(r[0], r[1], r_out + rs + s.half + q0, r_out + rs + q0);
  }
  *done = kBlock * t;
  const double r = hmax(m);
  m_acc = r > m_acc ? r : m_acc;
}

// Row j of a double array in the solver's layout into a float one in the split layout, and into a
// double one there too unless split_d is null (cells 1 .. done; the ghosts and the rest are the
// caller's).
inline int to_split_row(const StableGrid& g, const SplitGrid& s, int j, const double* plain, float* split,
                        double* split_d) {
  const int rs = s.row(j);
  int t = 0;
  for (; kBlock * (t + 1) <= g.nx; ++t) {
    const int k = g.at(1 + kBlock * t, j), q0 = t * kBlock / 2;
    const D lo = D::load(plain + k), hi = D::load(plain + k + D::width);
    deinterleave(narrow(lo, hi), split + rs + s.half + q0, split + rs + q0);
    if (split_d) deinterleave(lo, hi, split_d + rs + s.half + q0, split_d + rs + q0);
  }
  return kBlock * t;
}

// A multigrid level's face weights on row J from the finer level's (both split; as setup's per-cell
// form): wu = sum of the two fine faces (2I, 2J - 1), (2I, 2J) (row J >= 1), wv = scale (fine faces
// (2I - 1, 2J), (2I, 2J)). Coarse cells I = 1 .. done with done < c.nx (the boundary face there has
// a factor of its own); each coarse run reads contiguous fine runs.
inline int coarse_weights_row(const SplitGrid& f, const SplitGrid& c, int J, float scale_v, const float* fwu,
                              const float* fwv, float* wu, float* wv) {
  const int rc = c.row(J), f0 = f.row(2 * J - 1), f1 = f.row(2 * J);
  const F sv(scale_v);
  int t = 0;
  for (; 1 + kBlock * (t + 1) <= c.nx; ++t) {
    const int m = kBlock * t, q0 = m / 2;  // fine index m = I - 1 of the block's first I
    if (J >= 1) deinterleave(F::load(fwu + f0 + m) + F::load(fwu + f1 + m), wu + rc + c.half + q0, wu + rc + q0);
    deinterleave(sv * (F::load(fwv + f1 + f.half + m) + F::load(fwv + f1 + m)), wv + rc + c.half + q0, wv + rc + q0);
  }
  return kBlock * t;
}

// The multigrid's residual restricted to coarse row J (StableMultigrid::restrict_residual): coarse
// cells I = m + 1 .. sum the residuals of fine cell m of row 2J - 1's odd half and of row 2J's even
// half (each a contiguous run); the sums go to cb split into the coarse row's halves, cp to 0. The
// row's max |residual| joins m_acc; coarse cells 1 .. done.
inline void restrict_row(const SplitGrid& f, const SplitGrid& c, int J, const float* wu, const float* wv,
                         const float* p, const float* b, float* cb, float* cp, double& m_acc, int* done) {
  const int B1 = f.row(2 * J - 1), A1 = B1 + f.half;  // odd i: east in half 0 at m, west at m - 1
  const int A0 = f.row(2 * J), B0 = A0 + f.half;      // even i: east in half 1 at m + 1, west at m
  const int C0 = c.row(J), C1 = C0 + c.half;
  F::V vmax = F::V{};
  const F zero(0.0);
  auto residual = [&](int k, F pe, F pw, F ww) {
    const F we = F::load(wu + k), wn = F::load(wv + k), ws = F::load(wv + k - f.w), W = we + ww + wn + ws;
    const F r = F::load(b + k) -
                (we * pe + ww * pw + wn * F::load(p + k + f.w) + ws * F::load(p + k - f.w) - W * F::load(p + k));
    const F rr = select_positive(W, r, zero);
    const F::V a = rr.x < F::V{} ? -rr.x : rr.x;
    vmax = vmax > a ? vmax : a;
    return rr;
  };
  int m = 0;
  for (; m + kBlock <= c.nx; m += kBlock) {
    const F po = F::load(p + B1 + m), po_prev = F::load(p + B1 + m - kBlock), wo_prev = F::load(wu + B1 + m - kBlock);
    const F ro =
        residual(A1 + m, po, F::along<kBlock - 1>(po_prev, po), F::along<kBlock - 1>(wo_prev, F::load(wu + B1 + m)));
    const F pe = F::load(p + B0 + m), pe_next = F::load(p + B0 + m + kBlock);
    const F re = residual(A0 + m, F::along<1>(pe, pe_next), pe, F::load(wu + B0 + m));
    deinterleave(ro + re, cb + C1 + m / 2, cb + C0 + m / 2);  // odd I to half 1, even I to half 0
    deinterleave(zero, cp + C1 + m / 2, cp + C0 + m / 2);
  }
  *done = m;
  for (int l = 0; l < kBlock; ++l) m_acc = vmax[l] > m_acc ? vmax[l] : m_acc;
}

}  // namespace immerse::mac2d::split_rows
#else
// Without host vectors (devices, portable builds) the rows do no cells: the callers' per-cell forms
// do them all (stable_pressure.cpp reaches these only from code it does not run there).
namespace immerse::mac2d::split_rows {
template <bool kWithZ>
void defect_row(const StableGrid&, const SplitGrid&, int, const double*, const double*, const double*, const double*,
                const float*, double*, float*, double*, double&, int* done) {
  *done = 0;
}
}  // namespace immerse::mac2d::split_rows
#endif
