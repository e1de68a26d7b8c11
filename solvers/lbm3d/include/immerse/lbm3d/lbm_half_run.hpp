#pragma once
// A run of binary16-stored cells relaxed with the conversions inside the vector loop (host, AVX-512
// with BW and VL: 16 cells per vector; or AVX2 with F16C: 8): each vector widens its 15 inputs with
// vcvtph2ps, relaxes them in registers through bgk_collide on a float lane type, and narrows its 15
// results with vcvtps2ph, with no float blocks in L1 between (lbm_line_kernel.hpp's water_run
// otherwise widens and narrows whole runs). The last cells are one partial vector (AVX-512: masked;
// AVX2: through an 8-cell buffer). All 15 loads of a vector come before its stores, so in place
// (the AA pattern) stays safe.
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_LBM_HALF_AVX512 1
#elif defined(__AVX2__) && defined(__F16C__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_LBM_HALF_AVX2 1
#endif
#if defined(IMMERSE_LBM_HALF_AVX512) || defined(IMMERSE_LBM_HALF_AVX2)
#define IMMERSE_LBM_HALF_SIMD 1
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "immerse/lbm3d/lbm_kernels.hpp"

namespace immerse::lbm3d {

// Bytes / 4 floats with the arithmetic bgk_collide uses; a number converts by broadcast.
template <int Bytes>
struct FloatLanes {
  typedef float V __attribute__((vector_size(Bytes)));
  V x;
  FloatLanes() = default;
  FloatLanes(V a) : x(a) {}
  FloatLanes(double s) : x(V{} + static_cast<float>(s)) {}
  friend FloatLanes operator+(FloatLanes a, FloatLanes b) { return a.x + b.x; }
  friend FloatLanes operator-(FloatLanes a, FloatLanes b) { return a.x - b.x; }
  friend FloatLanes operator*(FloatLanes a, FloatLanes b) { return a.x * b.x; }
  friend FloatLanes operator/(FloatLanes a, FloatLanes b) { return a.x / b.x; }
  FloatLanes& operator+=(FloatLanes b) {
    x += b.x;
    return *this;
  }
  FloatLanes& operator-=(FloatLanes b) {
    x -= b.x;
    return *this;
  }
};

// m cells from in[q][0..m) to out[q][0..m), binary16 shifted by ref[q] and scaled by 1 / inv_scale;
// the relaxation constants as CollideStream holds them. Masked-off lanes load zeros (the rest state).
#if defined(IMMERSE_LBM_HALF_AVX512)
template <bool Forced>
inline void relax_half_run(const float omega, const float pref, const float force[3], const float ref[15],
                           const float inv_scale, const std::uint16_t* const in[15], std::uint16_t* const out[15],
                           const int m) {
  using L = FloatLanes<64>;
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
#else
// The same with 8 cells per AVX2 vector; the last m % 8 cells go through an 8-cell buffer whose
// unused lanes hold zeros (the rest state), loaded and stored with the count that is there.
template <bool Forced>
inline void relax_half_run(const float omega, const float pref, const float force[3], const float ref[15],
                           const float inv_scale, const std::uint16_t* const in[15], std::uint16_t* const out[15],
                           const int m) {
  using L = FloatLanes<32>;
  const BgkCoefficients<L> c{L(omega), L(pref), L(force[0]), L(force[1]), L(force[2])};
  const __m256 s = _mm256_set1_ps(inv_scale), is = _mm256_set1_ps(1.0f / inv_scale);
  for (int a0 = 0; a0 < m; a0 += 8) {
    const int n = m - a0 < 8 ? m - a0 : 8;
    L f[15];
    for (int q = 0; q < 15; ++q) {
      __m128i h;
      if (n == 8) {
        h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in[q] + a0));
      } else {
        alignas(16) std::uint16_t part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        std::memcpy(part, in[q] + a0, sizeof(std::uint16_t) * n);
        h = _mm_load_si128(reinterpret_cast<const __m128i*>(part));
      }
      f[q] = L(_mm256_add_ps(_mm256_mul_ps(_mm256_cvtph_ps(h), s), _mm256_set1_ps(ref[q])));
    }
    L g[15];
    bgk_collide<Forced>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13],
                        f[14], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13],
                        g[14]);
    for (int q = 0; q < 15; ++q) {
      const __m256 x = _mm256_mul_ps(_mm256_sub_ps(g[q].x, _mm256_set1_ps(ref[q])), is);
      const __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      if (n == 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out[q] + a0), h);
      } else {
        alignas(16) std::uint16_t part[8];
        _mm_store_si128(reinterpret_cast<__m128i*>(part), h);
        std::memcpy(out[q] + a0, part, sizeof(std::uint16_t) * n);
      }
    }
  }
}
#endif

}  // namespace immerse::lbm3d
#endif
