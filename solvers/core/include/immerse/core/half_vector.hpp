#pragma once
// Host vectors of binary16 values widened to floats (AVX-512 with BW and VL: 16 lanes; or AVX2 with
// F16C: 8), for the lattice kernels that keep the conversions inside their SIMD cell loops
// (lbm_half_run.hpp, sw_kernels.hpp): FloatLanes, a float vector with the arithmetic the collisions
// are written in, and HalfVector, one vector's loads and stores of binary16 and float arrays. GCC 12
// does not vectorise _Float16 <-> float itself. Not compiled for devices or other compilers.
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_HALF_AVX512 1
#elif defined(__AVX2__) && defined(__F16C__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_HALF_AVX2 1
#endif
#if defined(IMMERSE_HALF_AVX512) || defined(IMMERSE_HALF_AVX2)
#define IMMERSE_HALF_SIMD 1
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "immerse/core/fp16c.hpp"
#include "immerse/core/simd_lanes.hpp"

namespace immerse {

// Bytes / 4 floats with the arithmetic bgk_collide uses.
template <int Bytes>
using FloatLanes = Lanes<float, Bytes>;

// One vector of binary16 cells, widened to floats on load and narrowed on store, for the n cells
// that are there (n >= width: a whole vector). Missing lanes load zeros (the rest state) and are not
// stored. Both forms also load and store FP16C (fp16c.hpp). load_floats / store_floats: the same cells of a
// float array (a lattice's fields). first_lane(x, others): x in the first lane, others in the rest (not a broadcast,
// whose operations the compiler would turn into scalar ones).
#if defined(IMMERSE_HALF_AVX512)
struct HalfVector {  // 16 cells; the tail is masked
  static constexpr int width = 16;
  using Lanes = FloatLanes<64>;
  __mmask16 mask;
  explicit HalfVector(int n) : mask(n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1)) {}
  Lanes load(const std::uint16_t* p) const { return _mm512_maskz_cvtph_ps(mask, _mm256_maskz_loadu_epi16(mask, p)); }
  void store(std::uint16_t* p, Lanes x) const {
    _mm256_mask_storeu_epi16(p, mask, _mm512_maskz_cvtps_ph(mask, x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  // FluidX3D's 16-bit format (fp16c.hpp), converted in integer lanes; missing lanes load zeros.
  Lanes load(const Fp16c* p) const { return fp16c_to_float16(_mm256_maskz_loadu_epi16(mask, p)); }
  void store(Fp16c* p, Lanes x) const { _mm256_mask_storeu_epi16(p, mask, float16_to_fp16c(x.x)); }
  Lanes load_floats(const float* p) const { return _mm512_maskz_loadu_ps(mask, p); }
  static Lanes first_lane(float x, float others) {
    return _mm512_mask_broadcastss_ps(_mm512_set1_ps(others), __mmask16(1), _mm_set_ss(x));
  }
  void store_floats(float* p, Lanes x) const { _mm512_mask_storeu_ps(p, mask, x.x); }
};
#else
struct HalfVector {  // 8 cells; the tail goes through an 8-cell buffer
  static constexpr int width = 8;
  using Lanes = FloatLanes<32>;
  int n;
  explicit HalfVector(int count) : n(count < 8 ? count : 8) {}
  Lanes load(const std::uint16_t* p) const { return _mm256_cvtph_ps(load_raw(p)); }
  void store(std::uint16_t* p, Lanes x) const {
    store_raw(p, _mm256_cvtps_ph(x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  // FluidX3D's 16-bit format (fp16c.hpp), converted in integer lanes.
  Lanes load(const Fp16c* p) const { return fp16c_to_float8(load_raw(p)); }
  void store(Fp16c* p, Lanes x) const { store_raw(p, float8_to_fp16c(x.x)); }
  // The n cells' 16 bits, missing lanes 0, and back.
  template <class P>
  __m128i load_raw(const P* p) const {
    if (n == 8) return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    alignas(16) std::uint16_t part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(part, p, sizeof(P) * n);
    return _mm_load_si128(reinterpret_cast<const __m128i*>(part));
  }
  template <class P>
  void store_raw(P* p, const __m128i h) const {
    if (n == 8) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h);
      return;
    }
    alignas(16) std::uint16_t part[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(part), h);
    std::memcpy(p, part, sizeof(P) * n);
  }
  static Lanes first_lane(float x, float others) {
    return _mm256_blend_ps(_mm256_set1_ps(others), _mm256_set1_ps(x), 1);
  }
  Lanes load_floats(const float* p) const {
    if (n == 8) return _mm256_loadu_ps(p);
    alignas(32) float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(part, p, sizeof(float) * n);
    return _mm256_load_ps(part);
  }
  void store_floats(float* p, Lanes x) const {
    if (n == 8) return _mm256_storeu_ps(p, x.x);
    alignas(32) float part[8];
    _mm256_store_ps(part, x.x);
    std::memcpy(p, part, sizeof(float) * n);
  }
};
#endif

}  // namespace immerse
#endif
