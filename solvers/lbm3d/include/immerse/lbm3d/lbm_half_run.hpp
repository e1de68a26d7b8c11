#pragma once
// A run of binary16-stored cells relaxed with the conversions inside the vector loop (host, AVX-512
// with BW and VL: 16 cells per vector; or AVX2 with F16C: 8): each vector widens its 15 inputs with
// vcvtph2ps, relaxes them in registers as the stored deviations (bgk_collide with the lattice's
// shift, on a float lane type), and narrows its 15 results with vcvtps2ph, with no float blocks in
// L1 between (lbm_line_kernel.hpp's water_run otherwise widens and narrows whole runs). The last
// cells are one partial vector (AVX-512: masked; AVX2: through an 8-cell buffer). All 15 loads of a
// vector come before its stores, so in place (the AA pattern) stays safe.
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

// One vector of binary16 cells, widened to floats on load and narrowed on store, for the n cells
// that are there (n >= width: a whole vector). Missing lanes load zeros (the rest state) and are not
// stored.
#if defined(IMMERSE_LBM_HALF_AVX512)
struct HalfVector {  // 16 cells; the tail is masked
  static constexpr int width = 16;
  using Lanes = FloatLanes<64>;
  __mmask16 mask;
  explicit HalfVector(int n) : mask(n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1)) {}
  Lanes load(const std::uint16_t* p) const { return _mm512_maskz_cvtph_ps(mask, _mm256_maskz_loadu_epi16(mask, p)); }
  void store(std::uint16_t* p, Lanes x) const {
    _mm256_mask_storeu_epi16(p, mask, _mm512_maskz_cvtps_ph(mask, x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
};
#else
struct HalfVector {  // 8 cells; the tail goes through an 8-cell buffer
  static constexpr int width = 8;
  using Lanes = FloatLanes<32>;
  int n;
  explicit HalfVector(int count) : n(count < 8 ? count : 8) {}
  Lanes load(const std::uint16_t* p) const {
    if (n == 8) return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    alignas(16) std::uint16_t part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(part, p, sizeof(std::uint16_t) * n);
    return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(part)));
  }
  void store(std::uint16_t* p, Lanes x) const {
    const __m128i h = _mm256_cvtps_ph(x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (n == 8) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h);
      return;
    }
    alignas(16) std::uint16_t part[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(part), h);
    std::memcpy(p, part, sizeof(std::uint16_t) * n);
  }
};
#endif

// m cells from in[q][0..m) to out[q][0..m), binary16 shifted by ref[q] and scaled by 1 / inv_scale;
// the relaxation constants as CollideStream holds them. The widened halves are the deviations
// bgk_collide relaxes with the lattice's shift (BgkShift), so no population is shifted and scaled
// on its way in or out: two vector operations less per population.
template <bool Forced>
inline void relax_half_run(const float omega, const float pref, const float force[3], const float ref[15],
                           const float inv_scale, const std::uint16_t* const in[15], std::uint16_t* const out[15],
                           const int m) {
  using L = HalfVector::Lanes;
  const BgkShift<L> shift{L(inv_scale), L(ref[0]), L(ref[1]), L(ref[7])};  // rest, face, corner shifts
  const BgkCoefficients<L> c{L(omega), L(pref), L(force[0]), L(force[1]), L(force[2]), shift};
  for (int a0 = 0; a0 < m; a0 += HalfVector::width) {
    const HalfVector v(m - a0);
    L f[15];
    for (int q = 0; q < 15; ++q) f[q] = v.load(in[q] + a0);
    L g[15];
    bgk_collide<Forced, true>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13],
                              f[14], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12],
                              g[13], g[14]);
    for (int q = 0; q < 15; ++q) v.store(out[q] + a0, g[q]);
  }
}

}  // namespace immerse::lbm3d
#endif
