#pragma once
// How the D3Q15 populations are stored (lattice.storage). fp32 and fp64: as computed. fp16s and
// fp16c: 16 bits of each population's deviation from the rest equilibrium w_q rho0 (the shifting of
// Lehmann et al. 2022: the rounding error scales with the flow, not with rho0), arithmetic in float.
// fp16s is IEEE binary16, the deviation scaled by 2^14 / rho0 rounded to a power of two (rho0 between
// 2^13 and 2^14 of the format's 65504); fp16c is FluidX3D's format (core/fp16c.hpp: one mantissa bit
// more, magnitudes below 2), scaled by 1 / rho0 so rounded (rho0 between 1/2 and 1). The shift of
// slot q is w_q rho0 and w_q = w_-q, so a population stored in its opposite's slot (the AA pattern's
// swapped state) has the same shift.
// S: the stored type (float, double, std::uint16_t for binary16, Fp16c).
#include <cstdint>

#include "immerse/core/fp16c.hpp"
#include "immerse/core/half.hpp"

namespace immerse::lbm3d {

template <class S>
struct LbmStore {
  using real = S;
  static constexpr bool kHalf = false;
};

template <>
struct LbmStore<std::uint16_t> {
  using real = float;
  static constexpr bool kHalf = true;  // 16 bits, shifted and scaled
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
struct LbmStore<Fp16c> {
  using real = float;
  static constexpr bool kHalf = true;
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

}  // namespace immerse::lbm3d
