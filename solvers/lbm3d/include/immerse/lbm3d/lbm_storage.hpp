#pragma once
// How the D3Q15 populations are stored (lattice.storage). fp32 and fp64: as computed. fp16s and
// fp16c: 16 bits of each population's deviation from the rest equilibrium w_q rho0 (the shifting of
// Lehmann et al. 2022: the rounding error scales with the flow, not with rho0), arithmetic in float
// (core/shifted16.hpp: IEEE binary16 with rho0 between 2^13 and 2^14, or FluidX3D's format, one
// mantissa bit more for magnitudes below 2, with rho0 between 1/2 and 1). The shift of slot q is
// w_q rho0 and w_q = w_-q, so a population stored in its opposite's slot (the AA pattern's swapped
// state) has the same shift.
// S: the stored type (float, double, std::uint16_t for binary16, Fp16c).
#include <cstdint>

#include "immerse/core/shifted16.hpp"

namespace immerse::lbm3d {

template <class S>
struct LbmStore {
  using real = S;
  static constexpr bool kHalf = false;
};

template <>
struct LbmStore<std::uint16_t> : Shifted16<std::uint16_t> {
  using real = float;
  static constexpr bool kHalf = true;  // 16 bits, shifted and scaled
};

template <>
struct LbmStore<Fp16c> : Shifted16<Fp16c> {
  using real = float;
  static constexpr bool kHalf = true;
};

}  // namespace immerse::lbm3d
