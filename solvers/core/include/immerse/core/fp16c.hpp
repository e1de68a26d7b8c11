#pragma once
// FluidX3D's 16-bit number format for shifted LBM populations ("FP16C", Lehmann et al. 2022): a
// sign, 4 exponent bits (bias 15) and 11 mantissa bits, one mantissa bit more than IEEE binary16 for
// a smaller range: magnitudes below 2 (largest 2 - 2^-11, smallest normal 2^-14, subnormal step
// 2^-25), no infinities and no NaN. Written here from that definition. Conversions one value at a
// time (every backend) and, on AVX-512 hosts, 16 at a time (AVX2 hosts: 8); all round to nearest
// even and give the same bits. Values of magnitude 2 - 2^-12 and more, NaN included, saturate to the largest.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

namespace immerse {

enum class Fp16c : std::uint16_t {};

// The conversions' constants, shared by the one-value and the 16-lane forms.
namespace fp16c_bits {
constexpr float kWiden = 5.192296858534828e+33f;        // 2^112: a float's exponent bias less FP16C's
constexpr std::uint32_t kMagnitude = 0x7fffffffu;       // a float's bits less its sign
constexpr std::uint32_t kRebias = 0x38000000u;          // 112 << 23: subtracted from a normal's float bits
constexpr std::uint32_t kBelowHalf = 0x7ffu;            // added with the kept lowest bit: round to nearest even
constexpr std::uint32_t kSmallestNormal = 0x38800000u;  // 2^-14 as float bits
constexpr float kSubnormalAdder = 0.25f;                // its float ulp is the subnormal step 2^-25
constexpr std::uint32_t kSubnormalBits = 0x3e800000u;   // 0.25f as bits: the adder taken back off
constexpr std::uint32_t kLargest = 0x7fffu;             // the largest magnitude (2 - 2^-11)
constexpr std::uint32_t kSign = 0x8000u;
// The vector forms' widening (Fp16cLanes), without a float subnormal anywhere (an Intel core takes
// a microcode assist for each product with a subnormal factor unless denormals are treated as zero,
// and FP16C's subnormals, the deviations nearest zero, are common): a normal's 15 bits, placed as
// above, become the float by adding 112 to the exponent field; a subnormal (exponent 0) placed with
// exponent 113 is 2^-14 (1 + m 2^-11), and less 2^-14 it is m 2^-25, exactly.
constexpr std::uint32_t kRebiasUp = 112u << 23;           // added to a normal's placed bits
constexpr std::uint32_t kSubnormalUp = 113u << 23;        // added to a subnormal's placed bits
constexpr float kSmallestNormalFloat = 6.103515625e-05f;  // 2^-14: taken off it again
constexpr std::uint32_t kPlacedExponent = 0xfu << 23;     // FP16C's exponent field where it is placed
constexpr std::uint32_t kFloatSign = 0x80000000u;
}  // namespace fp16c_bits

// The 15 bits of exponent and mantissa placed in a float's exponent and mantissa at the same
// distance from its binary point make a float 2^-112 times the value (a float subnormal where the
// exponent is 0); the product by 2^112 is then exact. Needs subnormal floats not flushed to zero.
KOKKOS_FORCEINLINE_FUNCTION float fp16c_to_float(Fp16c h) {
  using namespace fp16c_bits;
  const std::uint32_t x = static_cast<std::uint16_t>(h);
  const std::uint32_t bits = ((x & kLargest) << 12) | ((x & kSign) << 16);
  float f;
  std::memcpy(&f, &bits, 4);
  return f * kWiden;
}

// Both roundings are computed and one selected, without branches: deviations near zero fall on
// either side of 2^-14 from cell to cell, and mispredicted branches made the shallow-water step,
// which converts value by value, 12x slower than binary16's.
KOKKOS_FORCEINLINE_FUNCTION Fp16c float_to_fp16c(float v) {
  using namespace fp16c_bits;
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  const std::uint32_t sign = (bits >> 16) & kSign, a = bits & kMagnitude;
  // |v| >= 2^-14: the exponent rebiased by -112, the mantissa rounded to nearest even (a carry
  // into the exponent is right; 2 - 2^-12 and above, NaN included, reach 0x8000 or more).
  const std::uint32_t normal = (a - kRebias + kBelowHalf + ((a >> 12) & 1u)) >> 12;
  // Below: the subnormal step 2^-25 is the float ulp at 0.25, so the adder rounds there.
  float t;
  std::memcpy(&t, &a, 4);
  t += kSubnormalAdder;
  std::uint32_t r;
  std::memcpy(&r, &t, 4);
  std::uint32_t h = a >= kSmallestNormal ? normal : r - kSubnormalBits;
  h = h < kLargest ? h : kLargest;  // saturated at the largest
  return static_cast<Fp16c>(h | sign);
}

// A value stored as a deviation from ref, scaled by 1 / inv_scale (a power of two: exact), in FP16C.
KOKKOS_FORCEINLINE_FUNCTION float load_shifted_fp16c(Fp16c h, float ref, float inv_scale) {
  return fp16c_to_float(h) * inv_scale + ref;
}
KOKKOS_FORCEINLINE_FUNCTION Fp16c store_shifted_fp16c(float x, float ref, float inv_scale) {
  return float_to_fp16c((x - ref) / inv_scale);
}

}  // namespace immerse

#if defined(__GNUC__) && !defined(__NVCC__) && !defined(__clang__)
namespace immerse {

// The widening of the vector forms below, on N lanes of GCC's vector types (one instruction per
// operation at the build's width), from the 16 bits sign-extended to 32 (by the forms' own
// instruction: GCC 12 extends a vector of 16 in two halves): shifted by 12 they put the sign at bit
// 31 (its copies at bits 27..31) and exponent and mantissa at bits 12..26, as in fp16c_to_float.
// (The element types are parameters: GCC 12 takes a vector typedef whose element type depends on
// no template argument for a scalar in the template's definition.)
template <int N, class Word = std::uint32_t, class Float = float>
struct Fp16cLanes {
  typedef Word Words __attribute__((vector_size(4 * N)));
  typedef Float Floats __attribute__((vector_size(4 * N)));
  static Floats widen(const Words extended) {
    using namespace fp16c_bits;
    const Words x = extended << 12;
    const Words placed = x & (kLargest << 12);
    const Floats normal = reinterpret_cast<Floats>(placed + kRebiasUp);
    const Floats subnormal = reinterpret_cast<Floats>(placed + kSubnormalUp) - kSmallestNormalFloat;
    const Floats magnitude = (placed & kPlacedExponent) == 0 ? subnormal : normal;
    return reinterpret_cast<Floats>(reinterpret_cast<Words>(magnitude) | (x & kFloatSign));
  }
};

}  // namespace immerse
#endif

#if defined(__AVX512F__) && defined(__AVX512BW__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_FP16C_AVX512 1
#include <immintrin.h>

namespace immerse {

// GCC 12's plain forms of these pass an undefined vector that -Wuninitialized reports at every use;
// the zero-masked forms with every lane set are the same instructions.
namespace fp16c_lanes {
constexpr __mmask16 kAllLanes = 0xFFFF;
inline __m512i slli32(__m512i a, unsigned n) { return _mm512_maskz_slli_epi32(kAllLanes, a, n); }
inline __m512i srli32(__m512i a, unsigned n) { return _mm512_maskz_srli_epi32(kAllLanes, a, n); }
}  // namespace fp16c_lanes

// 16 values at a time, the same arithmetic in integer lanes.
inline __m512 fp16c_to_float16(__m256i h) {
  using Lanes = Fp16cLanes<16>;
  return reinterpret_cast<__m512>(
      Lanes::widen(reinterpret_cast<Lanes::Words>(_mm512_maskz_cvtepi16_epi32(fp16c_lanes::kAllLanes, h))));
}

inline __m256i float16_to_fp16c(__m512 v) {
  using namespace fp16c_lanes;
  using namespace fp16c_bits;
  const __m512i bits = _mm512_castps_si512(v);
  const __m512i a = _mm512_and_si512(bits, _mm512_set1_epi32(int(kMagnitude)));
  const __m512i odd = _mm512_and_si512(srli32(a, 12), _mm512_set1_epi32(1));
  const __m512i normal =
      srli32(_mm512_add_epi32(_mm512_add_epi32(a, _mm512_set1_epi32(int(kBelowHalf - kRebias))), odd), 12);
  const __m512i subnormal =
      _mm512_sub_epi32(_mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(kSubnormalAdder))),
                       _mm512_set1_epi32(int(kSubnormalBits)));
  const __mmask16 is_normal = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(int(kSmallestNormal)));
  __m512i h = _mm512_maskz_min_epu32(kAllLanes, _mm512_mask_blend_epi32(is_normal, subnormal, normal),
                                     _mm512_set1_epi32(int(kLargest)));
  h = _mm512_or_si512(h, _mm512_and_si512(srli32(bits, 16), _mm512_set1_epi32(int(kSign))));
  return _mm512_maskz_cvtepi32_epi16(kAllLanes, h);
}

}  // namespace immerse
#elif defined(__AVX2__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_FP16C_AVX2 1
#include <immintrin.h>

namespace immerse {

// 8 values at a time on AVX2 hosts, the arithmetic of the 16-lane form above.
inline __m256 fp16c_to_float8(__m128i h) {
  using Lanes = Fp16cLanes<8>;
  return reinterpret_cast<__m256>(Lanes::widen(reinterpret_cast<Lanes::Words>(_mm256_cvtepi16_epi32(h))));
}

inline __m128i float8_to_fp16c(__m256 v) {
  using namespace fp16c_bits;
  const __m256i bits = _mm256_castps_si256(v);
  const __m256i a = _mm256_and_si256(bits, _mm256_set1_epi32(int(kMagnitude)));
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(a, 12), _mm256_set1_epi32(1));
  const __m256i normal =
      _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(int(kBelowHalf - kRebias))), odd), 12);
  const __m256i subnormal =
      _mm256_sub_epi32(_mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_set1_ps(kSubnormalAdder))),
                       _mm256_set1_epi32(int(kSubnormalBits)));
  // a has no sign bit, so the signed comparison is the unsigned one.
  const __m256i is_normal = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(int(kSmallestNormal - 1)));
  __m256i h = _mm256_min_epu32(_mm256_blendv_epi8(subnormal, normal, is_normal), _mm256_set1_epi32(int(kLargest)));
  h = _mm256_or_si256(h, _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(int(kSign))));
  // Every lane fits 16 unsigned bits: the saturating pack keeps them.
  return _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

}  // namespace immerse
#endif

namespace immerse {

// Blocks on the host, 16 values per AVX-512 vector (8 per AVX2 vector) where the target has it:
// dst[k] = load_shifted_fp16c(src[k], ref, inv_scale), and back, bit for bit (a product by a power
// of two, or by its reciprocal, is exact, so it rounds as the quotient does).
inline void widen_fp16c(const Fp16c* src, float* dst, int n, float inv_scale, float ref) {
  int k = 0;
#if defined(IMMERSE_FP16C_AVX512)
  const __m512 s = _mm512_set1_ps(inv_scale), r = _mm512_set1_ps(ref);
  for (; k + 16 <= n; k += 16)
    _mm512_storeu_ps(
        dst + k,
        _mm512_fmadd_ps(fp16c_to_float16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k))), s, r));
#elif defined(IMMERSE_FP16C_AVX2)
  const __m256 s = _mm256_set1_ps(inv_scale), r = _mm256_set1_ps(ref);
  for (; k + 8 <= n; k += 8)
    _mm256_storeu_ps(
        dst + k, _mm256_fmadd_ps(fp16c_to_float8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k))), s, r));
#endif
  for (; k < n; ++k) dst[k] = load_shifted_fp16c(src[k], ref, inv_scale);
}
inline void narrow_fp16c(const float* src, Fp16c* dst, int n, float inv_scale, float ref) {
  int k = 0;
#if defined(IMMERSE_FP16C_AVX512)
  const __m512 s = _mm512_set1_ps(1.0f / inv_scale), r = _mm512_set1_ps(ref);
  for (; k + 16 <= n; k += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k),
                        float16_to_fp16c(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(src + k), r), s)));
#elif defined(IMMERSE_FP16C_AVX2)
  const __m256 s = _mm256_set1_ps(1.0f / inv_scale), r = _mm256_set1_ps(ref);
  for (; k + 8 <= n; k += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k),
                     float8_to_fp16c(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(src + k), r), s)));
#endif
  for (; k < n; ++k) dst[k] = store_shifted_fp16c(src[k], ref, inv_scale);
}

}  // namespace immerse
