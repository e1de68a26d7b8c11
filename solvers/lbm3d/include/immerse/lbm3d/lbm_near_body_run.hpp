#pragma once
// Vectors of cells next to a body, for both steps of the AA pattern (host, GCC; FP32 and binary16
// storage; 16 cells on AVX-512 hosts, 8 on AVX2 + F16C hosts, as lbm_line_run.hpp).
//
// Water cells with a body neighbour (C3) went one by one through AaStep::exchange_cell and
// local_cell: the gather with a border and body test per direction, about 90 ns a cell, two fifths
// of the jellyfish's exchange step at 80^3. Here the body rules are lane masks from the group bytes:
// lane x's direction q arrives from a body where x - e_q is a body cell (Lattice::from_body, the
// C3 rule), and its result q is pushed into a body where x + e_q is one (stored reversed in the
// cell, for the local step to apply the rule). Body lanes are masked off and keep their populations.
//
// For the cells 1 .. nx - 2 of a line whose every direction pulls from a neighbour line (its
// plan: away from the y and z faces, or across periodic ones), with the plan's upwind cells: the
// group bytes tested are those of the cells the populations really come from, so a body brought
// in across a periodic face counts too. Which cells run here depends on the lattice's faces and the
// line's groups alone, never on how the lattice is split into blocks (lbm_line_run.hpp says why).
//
// In place stays safe: all loads of a vector come before its stores, and each lane reads and writes
// the slots AaStep's cell rules give that cell, which no other cell touches in the same step.
#include "immerse/lbm3d/lbm_line_run.hpp"

#if defined(IMMERSE_LBM_LINE_VECTORS)
#include <cstring>

namespace immerse::lbm3d {

// The float lanes of m from p, the others 0; v where m is set, else a.
#if defined(IMMERSE_HALF_AVX512)
inline LineLanes line_floats(const float* p, const LineMask m) {
  return LineLanes(_mm512_maskz_loadu_ps(static_cast<__mmask16>(m), p));
}
inline LineLanes line_select(const LineMask m, const LineLanes v, const LineLanes a) {
  return LineLanes(_mm512_mask_mov_ps(a.x, static_cast<__mmask16>(m), v.x));
}
#else
inline LineLanes line_floats(const float* p, const LineMask m) {
  return LineLanes(_mm256_maskload_ps(p, line_lanes(m)));
}
inline LineLanes line_select(const LineMask m, const LineLanes v, const LineLanes a) {
  return LineLanes(_mm256_blendv_ps(a.x, v.x, _mm256_castsi256_ps(line_lanes(m))));
}
#endif

// What the vectors need of the lattice and its bodies (the same for every line).
template <class Pop>
struct NearBodyCells {
  Pop* f = nullptr;                      // the population buffer
  long stride = 0;                       // between population blocks
  const unsigned char* group = nullptr;  // the cell groups
  const float* ub = nullptr;             // body-cell velocity, 3 blocks of n (Ladd's rule)
  long n = 0;                            // cells
  int rule = kBodyLadd;                  // Lattice::body_rule
  float momentum[15] = {};               // 6 w_q rho0 in stored units (binary16: over the scale)
  float twice_shifted[15] = {};          // binary16: what a sum of two deviations lacks (ref_q / scale)

  NearBodyCells() = default;
  // Left empty for the stored types without vectors (kLineVectors), whose lattices are in double.
  template <class Lattice>
  NearBodyCells(const Lattice& lat, Pop* buffer) {
    if constexpr (kLineVectors<Pop>) {
      f = buffer;
      stride = lat.stride;
      group = lat.group.data();
      ub = lat.ub.data();
      n = lat.n;
      rule = lat.body_rule;
      for (int q = 0; q < 15; ++q) {
        // Lattice::wall_momentum's factor; a deviation of 1 is inv_scale of population (a power of two).
        momentum[q] = static_cast<float>(6 * D3Q15::w(q)) * lat.rho0;
        if constexpr (LbmStore<Pop>::kHalf) {
          momentum[q] /= lat.inv_scale;
          twice_shifted[q] = lat.ref[q] / lat.inv_scale;
        }
      }
    }
  }

  // The lanes of `lanes` (the low bits, contiguous) whose cell c + lane is a body cell; the group
  // bytes past the last lane are not read.
  LineMask bodies_at(const long c, const LineMask lanes) const {
#if defined(IMMERSE_HALF_AVX512)
    const __m128i g = _mm_maskz_loadu_epi8(static_cast<__mmask16>(lanes), group + c);
    return _mm_mask_cmpge_epu8_mask(static_cast<__mmask16>(lanes), g, _mm_set1_epi8(static_cast<char>(kSurface)));
#else
    std::uint64_t word = 0;
    if (lanes == kAllLanes)
      std::memcpy(&word, group + c, 8);
    else
      for (int l = 0; l < 8 && (lanes >> l & 1u); ++l) word |= std::uint64_t(group[c + l]) << (8 * l);
    const __m128i g = _mm_cvtsi64_si128(static_cast<long long>(word));
    // Unsigned g >= kSurface: max(g, kSurface) == g.
    const __m128i body = _mm_cmpeq_epi8(_mm_max_epu8(g, _mm_set1_epi8(static_cast<char>(kSurface))), g);
    return static_cast<LineMask>(_mm_movemask_epi8(body)) & lanes;
#endif
  }
};

// Cells i .. i + kLineWidth - 1 (the lanes set in `lanes`) of the line whose cell 0 is `line`, in the exchange
// step (Exchange) or the local step; up[q]: the upwind cell x - e_q of the line's cell 0 (its plan's
// source).
template <bool Forced, bool Exchange, class Pop>
inline void relax_near_body(const BgkCoefficients<LineLanes>& c, const NearBodyCells<Pop>& b, const long up[15],
                            const long line, const int i, const LineMask lanes) {
  using V = LineVector<Pop>;
  using L = LineLanes;
  const long S = b.stride, x = line + i;
  const LineMask live = lanes & ~b.bodies_at(x, lanes);
  LineMask from_body[15];  // lanes whose direction q arrives from a body cell, x - e_q
  from_body[0] = 0;
  for (int q = 1; q < 15; ++q) from_body[q] = b.bodies_at(up[q] + i, lanes) & live;
  L a[15];
#pragma GCC unroll 15
  for (int q = 0; q < 15; ++q) {
    const int r = D3Q15::opposite(q);
    const long sc = up[q] + i;
    // Exchange: q comes from x - e_q's slot -q (the swapped state); local: the cell's own slot q.
    a[q] =
        Exchange ? V::widen(V::load(b.f + r * S + sc, live & ~from_body[q])) : V::widen(V::load(b.f + q * S + x, live));
    const LineMask m = from_body[q];
    if (m == 0) continue;
    // The cell's own population -q, the one that went into the body: in slot q in both states.
    const L own = Exchange ? V::widen(V::load(b.f + q * S + x, m)) : a[q];
    L v;
    if (b.rule == kBodyLadd) {
      const L ux = line_floats(b.ub + sc, m), uy = line_floats(b.ub + b.n + sc, m),
              uz = line_floats(b.ub + 2 * b.n + sc, m);
      const L eu = L(float(D3Q15::cx(q))) * ux + L(float(D3Q15::cy(q))) * uy + L(float(D3Q15::cz(q))) * uz;
      v = own + L(b.momentum[q]) * eu;
    } else {  // the body cell's own population q (stored unswapped)
      const L body = V::widen(V::load(b.f + q * S + sc, m));
      v = b.rule == kBodyPaper ? body : own + body + L(b.twice_shifted[q]);
    }
    a[q] = line_select(m, v, a[q]);
  }
  L g[15];
  bgk_collide<Forced, V::kShifted>(c, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
                                   a[13], a[14], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10],
                                   g[11], g[12], g[13], g[14]);
#pragma GCC unroll 15
  for (int q = 0; q < 15; ++q) {
    const int r = D3Q15::opposite(q);
    const typename V::Raw out = V::narrow(g[q]);
    if constexpr (!Exchange) {  // result q into the cell's slot -q
      V::store(b.f + r * S + x, live, out);
      continue;
    }
    // Result q to x + e_q (the upwind cell of -q), slot q, or where that is a body, reversed into
    // the cell's own slot -q.
    const LineMask to_body = from_body[r];
    V::store(b.f + q * S + up[r] + i, live & ~to_body, out);
    if (to_body) V::store(b.f + r * S + x, to_body, out);
  }
}

}  // namespace immerse::lbm3d
#endif
