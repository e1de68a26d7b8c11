#pragma once
// How the shallow-water populations are stored (lattice.storage). fp64: as computed, in double (the
// default). fp32 and fp16s: shifted by the still-water equilibrium at a reference depth (Lehmann et al.
// 2022's DDF shifting: what is stored is the deviation, so its rounding error scales with the flow,
// not with the depth), with the arithmetic in float. fp16s is IEEE binary16, the deviation scaled
// by a power of two that puts the reference depth between 2^13 and 2^14: 11 significant bits, and
// overflow (an infinite depth the health check names) past 4 to 8 reference depths of deviation.
// fp16c is FluidX3D's format (core/fp16c.hpp), the deviation scaled to put the reference depth
// between 1/2 and 1: 12 significant bits, saturating (no infinity) past 2 to 4 reference depths.
// Each policy converts one stored value to the arithmetic type and back (round to nearest even).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "immerse/core/shifted16.hpp"

namespace immerse::swlbm {

// Stored value type V -> arithmetic type `real`, load / store with the reference (shift) and scale.
template <class V>
struct SwStore;

template <>
struct SwStore<double> {
  using real = double;
  KOKKOS_FORCEINLINE_FUNCTION static real load(double x, real, real) { return x; }
  KOKKOS_FORCEINLINE_FUNCTION static double store(real x, real, real) { return x; }
};

template <>
struct SwStore<float> {
  using real = float;
  KOKKOS_FORCEINLINE_FUNCTION static real load(float x, real ref, real) { return x + ref; }
  KOKKOS_FORCEINLINE_FUNCTION static float store(real x, real ref, real) { return x - ref; }
};

// The 16-bit formats (core/shifted16.hpp), with the arithmetic in float.
template <>
struct SwStore<std::uint16_t> : Shifted16<std::uint16_t> {
  using real = float;
};

template <>
struct SwStore<Fp16c> : Shifted16<Fp16c> {
  using real = float;
};

}  // namespace immerse::swlbm
