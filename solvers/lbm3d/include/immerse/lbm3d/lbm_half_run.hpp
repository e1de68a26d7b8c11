#pragma once
// A run of binary16-stored cells relaxed with the conversions inside the vector loop (host,
// AVX-512 with BW and VL): each 16-cell vector widens its 15 inputs with vcvtph2ps, relaxes them in
// registers through bgk_collide on a 16-lane float type, and narrows its 15 results with vcvtps2ph,
// with no float blocks in L1 between (lbm_line_kernel.hpp's water_run otherwise widens and narrows
// whole runs). The last m % 16 cells are one masked vector. All 15 loads of a vector come before its
// stores, so in place (the AA pattern) stays safe.
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_LBM_HALF_AVX512 1
#include <immintrin.h>

#include <cstdint>

#include "immerse/lbm3d/lbm_kernels.hpp"

namespace immerse::lbm3d {

// 16 floats with the arithmetic bgk_collide uses; a number converts by broadcast.
struct Float16Lanes {
  typedef float V __attribute__((vector_size(64)));
  V x;
  Float16Lanes() = default;
  Float16Lanes(V a) : x(a) {}
  Float16Lanes(double s) : x(V{} + static_cast<float>(s)) {}
  friend Float16Lanes operator+(Float16Lanes a, Float16Lanes b) { return a.x + b.x; }
  friend Float16Lanes operator-(Float16Lanes a, Float16Lanes b) { return a.x - b.x; }
  friend Float16Lanes operator*(Float16Lanes a, Float16Lanes b) { return a.x * b.x; }
  friend Float16Lanes operator/(Float16Lanes a, Float16Lanes b) { return a.x / b.x; }
  Float16Lanes& operator+=(Float16Lanes b) {
    x += b.x;
    return *this;
  }
  Float16Lanes& operator-=(Float16Lanes b) {
    x -= b.x;
    return *this;
  }
};

// m cells from in[q][0..m) to out[q][0..m), binary16 shifted by ref[q] and scaled by 1 / inv_scale;
// the relaxation constants as CollideStream holds them. Masked-off lanes load zeros (the rest state).
template <bool Forced>
inline void relax_half_run(const float omega, const float pref, const float force[3], const float ref[15],
                           const float inv_scale, const std::uint16_t* const in[15], std::uint16_t* const out[15],
                           const int m) {
  using L = Float16Lanes;
  const BgkCoefficients<L> c{L(omega), L(pref), L(force[0]), L(force[1]), L(force[2])};
  const __m512 s = _mm512_set1_ps(inv_scale), is = _mm512_set1_ps(1.0f / inv_scale);
  for (int a0 = 0; a0 < m; a0 += 16) {
    const __mmask16 mask = m - a0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (m - a0)) - 1);
    L f[15];
    for (int q = 0; q < 15; ++q) {
      const __m256i h = _mm256_maskz_loadu_epi16(mask, in[q] + a0);
      f[q] = L(_mm512_add_ps(_mm512_mul_ps(_mm512_maskz_cvtph_ps(mask, h), s), _mm512_set1_ps(ref[q])));
    }
    L g[15];
    bgk_collide<Forced>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13],
                        f[14], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13],
                        g[14]);
    for (int q = 0; q < 15; ++q) {
      const __m512 x = _mm512_mul_ps(_mm512_sub_ps(g[q].x, _mm512_set1_ps(ref[q])), is);
      _mm256_mask_storeu_epi16(out[q] + a0, mask,
                               _mm512_maskz_cvtps_ph(mask, x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
  }
}

}  // namespace immerse::lbm3d
#endif
