#pragma once
// The two 16-bit formats of shifted lattice populations (lattice.storage fp16s: IEEE binary16,
// half.hpp; fp16c: FluidX3D's format, fp16c.hpp), for both lattices: a value stored as its
// deviation from a reference, scaled by 1 / inv_scale (a power of two), one value at a time on any
// backend and in host blocks. kScaleExponent E: the lattices scale so that their reference (rho0,
// the still-water depth) sits between 2^(E-1) and 2^E of the format, leaving binary16 a factor 4
// to 8 below its largest value (65504) and FP16C a factor 2 to 4 (below 2).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "immerse/core/fp16c.hpp"
#include "immerse/core/half.hpp"

namespace immerse {

template <class H>
struct Shifted16;

// Whether T is one of the two 16-bit formats.
template <class T>
inline constexpr bool kShifted16 = std::is_same_v<T, std::uint16_t> || std::is_same_v<T, Fp16c>;

// 1 / the scale that puts `reference` between 2^(E-1) and 2^E of format H (a power of two).
template <class H>
double shifted16_inv_scale(double reference) {
  return std::ldexp(1.0, std::ilogb(reference) + 1 - Shifted16<H>::kScaleExponent);
}

template <>
struct Shifted16<std::uint16_t> {
  static constexpr int kScaleExponent = 14;
  KOKKOS_FORCEINLINE_FUNCTION static float load(std::uint16_t x, float ref, float inv_scale) {
    return load_shifted_half(x, ref, inv_scale);
  }
  KOKKOS_FORCEINLINE_FUNCTION static std::uint16_t store(float x, float ref, float inv_scale) {
    return store_shifted_half(x, ref, inv_scale);
  }
  static void widen(const std::uint16_t* src, float* dst, int n, float inv_scale, float ref) {
    widen_halves(src, dst, n, inv_scale, ref);
  }
  static void narrow(const float* src, std::uint16_t* dst, int n, float inv_scale, float ref) {
    narrow_halves(src, dst, n, inv_scale, ref);
  }
};

template <>
struct Shifted16<Fp16c> {
  static constexpr int kScaleExponent = 0;
  KOKKOS_FORCEINLINE_FUNCTION static float load(Fp16c x, float ref, float inv_scale) {
    return load_shifted_fp16c(x, ref, inv_scale);
  }
  KOKKOS_FORCEINLINE_FUNCTION static Fp16c store(float x, float ref, float inv_scale) {
    return store_shifted_fp16c(x, ref, inv_scale);
  }
  static void widen(const Fp16c* src, float* dst, int n, float inv_scale, float ref) {
    widen_fp16c(src, dst, n, inv_scale, ref);
  }
  static void narrow(const float* src, Fp16c* dst, int n, float inv_scale, float ref) {
    narrow_fp16c(src, dst, n, inv_scale, ref);
  }
};

}  // namespace immerse
