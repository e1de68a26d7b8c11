#pragma once
// IEEE binary16 <-> binary32 conversions, one value at a time (every backend) and in blocks on the
// host, for populations stored in 16 bits (lattice.storage fp16s of the lattice families).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif
#if defined(__F16C__) && !defined(__NVCC__)
#include <immintrin.h>
#endif

namespace immerse {

// The portable forms: exact widening through a multiply by 2^112 (normals and subnormals alike);
// narrowing with round to nearest even by a rebias-and-add (normals) or the float adder (subnormals).
KOKKOS_INLINE_FUNCTION float half_to_float_portable(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t em = static_cast<std::uint32_t>(h & 0x7fffu) << 13;
  float f;
  std::memcpy(&f, &em, 4);
  f *= 5.192296858534828e+33f;  // 2^112
  std::uint32_t out;
  std::memcpy(&out, &f, 4);
  if ((h & 0x7c00u) == 0x7c00u) out = em | 0x7f800000u;  // infinity or NaN
  out |= sign;
  std::memcpy(&f, &out, 4);
  return f;
}

KOKKOS_INLINE_FUNCTION std::uint16_t float_to_half_portable(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  bits &= 0x7fffffffu;
  std::uint16_t h;
  if (bits >= 0x47800000u) {  // |f| >= 65536 (rounds to infinity), infinity or NaN
    h = static_cast<std::uint16_t>(bits > 0x7f800000u ? 0x7e00u : 0x7c00u);
  } else if (bits < 0x38800000u) {  // below the smallest normal binary16: subnormal or zero
    float a;
    std::memcpy(&a, &bits, 4);
    a += 0.5f;  // binary16's subnormal step 2^-24 is the float ulp at 0.5: the adder rounds there
    std::uint32_t r;
    std::memcpy(&r, &a, 4);
    h = static_cast<std::uint16_t>(r - 0x3f000000u);
  } else {
    const std::uint32_t odd = (bits >> 13) & 1u;
    bits += 0xc8000fffu + odd;  // exponent rebiased by -112, then round to nearest even
    h = static_cast<std::uint16_t>(bits >> 13);
  }
  return static_cast<std::uint16_t>(h | sign);
}

// binary16 <-> binary32 as fast as the target allows. CUDA devices convert in hardware; GCC's
// _Float16 (x86-64, GCC >= 12) compiles to F16C's vectorised vcvtph2ps / vcvtps2ph where the target
// has it (-march=native here); elsewhere (clang 14, nvcc's host pass) the portable forms above.
#if defined(__FLT16_MAX__) && !defined(__NVCC__) && !defined(__clang__)
#define IMMERSE_HOST_FLOAT16 1
#endif

KOKKOS_FORCEINLINE_FUNCTION float half_to_float(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(h));
#elif defined(IMMERSE_HOST_FLOAT16)
  _Float16 x;
  std::memcpy(&x, &h, 2);
  return static_cast<float>(x);
#else
  return half_to_float_portable(h);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION std::uint16_t float_to_half(float f) {
#if defined(__CUDA_ARCH__)
  return __half_as_ushort(__float2half_rn(f));
#elif defined(IMMERSE_HOST_FLOAT16)
  const _Float16 x = static_cast<_Float16>(f);
  std::uint16_t h;
  std::memcpy(&h, &x, 2);
  return h;
#else
  return float_to_half_portable(f);
#endif
}

// A value stored as a deviation from ref, scaled by 1 / inv_scale (a power of two: exact), in binary16.
KOKKOS_FORCEINLINE_FUNCTION float load_shifted_half(std::uint16_t h, float ref, float inv_scale) {
  return half_to_float(h) * inv_scale + ref;
}
KOKKOS_FORCEINLINE_FUNCTION std::uint16_t store_shifted_half(float x, float ref, float inv_scale) {
  return float_to_half((x - ref) / inv_scale);
}

// Blocks of binary16 on the host, for loops the compiler will not vectorise through the conversion
// (GCC 12 has no vector form of _Float16 <-> float without AVX512-FP16's arithmetic): F16C's
// vcvtph2ps / vcvtps2ph, 8 values per instruction, where the target has it (the 16-wide AVX-512
// forms measured no faster in the D3Q15 kernel).
// dst[k] = load_shifted_half(src[k], ref, inv_scale), bit for bit (the product by a power of two is
// exact, so fused or not the sum rounds once).
inline void widen_halves(const std::uint16_t* src, float* dst, int n, float inv_scale, float ref) {
  int k = 0;
#if defined(__F16C__) && !defined(__NVCC__)
  const __m256 s = _mm256_set1_ps(inv_scale), r = _mm256_set1_ps(ref);
  for (; k + 8 <= n; k += 8) {
    const __m256 x = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k)));
    _mm256_storeu_ps(dst + k, _mm256_add_ps(_mm256_mul_ps(x, s), r));
  }
#endif
  for (; k < n; ++k) dst[k] = load_shifted_half(src[k], ref, inv_scale);
}

// dst[k] = store_shifted_half(src[k], ref, inv_scale), rounded to nearest even.
inline void narrow_halves(const float* src, std::uint16_t* dst, int n, float inv_scale, float ref) {
  int k = 0;
#if defined(__F16C__) && !defined(__NVCC__)
  const __m256 s = _mm256_set1_ps(1.0f / inv_scale), r = _mm256_set1_ps(ref);
  for (; k + 8 <= n; k += 8) {
    const __m256 x = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(src + k), r), s);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
  }
#endif
  for (; k < n; ++k) dst[k] = store_shifted_half(src[k], ref, inv_scale);
}

}  // namespace immerse
