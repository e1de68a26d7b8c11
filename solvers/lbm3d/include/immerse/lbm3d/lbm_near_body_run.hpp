#pragma once
// Vectors of 16 cells next to a body, for both steps of the AA pattern (host, GCC, AVX-512; FP32 and
// binary16 storage, as lbm_line_run.hpp).
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

#if defined(IMMERSE_LBM_LINE_AVX512)
namespace immerse::lbm3d {

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

  // The lanes of `lanes` whose cell c + lane is a body cell (the others are not read).
  __mmask16 bodies_at(const long c, const __mmask16 lanes) const {
    const __m128i g = _mm_maskz_loadu_epi8(lanes, group + c);
    return _mm_mask_cmpge_epu8_mask(lanes, g, _mm_set1_epi8(static_cast<char>(kSurface)));
  }
};

// Cells i .. i + 15 (the lanes set in `lanes`) of the line whose cell 0 is `line`, in the exchange
// step (Exchange) or the local step; up[q]: the upwind cell x - e_q of the line's cell 0 (its plan's
// source).
template <bool Forced, bool Exchange, class Pop>
inline void relax_near_body(const BgkCoefficients<FloatLanes<64>>& c, const NearBodyCells<Pop>& b, const long up[15],
                            const long line, const int i, const __mmask16 lanes) {
  using V = LineVector<Pop>;
  using L = FloatLanes<64>;
  const long S = b.stride, x = line + i;
  const __mmask16 live = lanes & static_cast<__mmask16>(~b.bodies_at(x, lanes));
  __mmask16 from_body[15];  // lanes whose direction q arrives from a body cell, x - e_q
  from_body[0] = 0;
  for (int q = 1; q < 15; ++q) from_body[q] = b.bodies_at(up[q] + i, live);
  L a[15];
#pragma GCC unroll 15
  for (int q = 0; q < 15; ++q) {
    const int r = D3Q15::opposite(q);
    const long sc = up[q] + i;
    // Exchange: q comes from x - e_q's slot -q (the swapped state); local: the cell's own slot q.
    a[q] = Exchange ? V::widen(V::load(b.f + r * S + sc, live & static_cast<__mmask16>(~from_body[q])))
                    : V::widen(V::load(b.f + q * S + x, live));
    const __mmask16 m = from_body[q];
    if (m == 0) continue;
    // The cell's own population -q, the one that went into the body: in slot q in both states.
    const L own = Exchange ? V::widen(V::load(b.f + q * S + x, m)) : a[q];
    L v;
    if (b.rule == kBodyLadd) {
      const __m512 ux = _mm512_maskz_loadu_ps(m, b.ub + sc), uy = _mm512_maskz_loadu_ps(m, b.ub + b.n + sc),
                   uz = _mm512_maskz_loadu_ps(m, b.ub + 2 * b.n + sc);
      const L eu = L(_mm512_set1_ps(float(D3Q15::cx(q)))) * L(ux) + L(_mm512_set1_ps(float(D3Q15::cy(q)))) * L(uy) +
                   L(_mm512_set1_ps(float(D3Q15::cz(q)))) * L(uz);
      v = own + L(_mm512_set1_ps(b.momentum[q])) * eu;
    } else {  // the body cell's own population q (stored unswapped)
      const L body = V::widen(V::load(b.f + q * S + sc, m));
      v = b.rule == kBodyPaper ? body : own + body + L(_mm512_set1_ps(b.twice_shifted[q]));
    }
    a[q] = L(_mm512_mask_mov_ps(a[q].x, m, v.x));
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
    const __mmask16 to_body = from_body[r];
    V::store(b.f + q * S + up[r] + i, live & static_cast<__mmask16>(~to_body), out);
    if (to_body) V::store(b.f + r * S + x, to_body, out);
  }
}

}  // namespace immerse::lbm3d
#endif
