#pragma once
// How the D3Q15 populations are stored (lattice.storage). fp32 and fp64: as computed. fp16s: IEEE
// binary16 of each population's deviation from the rest equilibrium w_q rho0 (the shifting of
// Lehmann et al. 2022: the rounding error scales with the flow, not with rho0), scaled by 2^14 / rho0
// rounded to a power of two, arithmetic in float. The shift of slot q is w_q rho0 and w_q = w_-q, so
// a population stored in its opposite's slot (the AA pattern's swapped state) has the same shift.
// S: the stored type (float, double, or std::uint16_t for binary16).
#include <cstdint>

namespace immerse::lbm3d {

template <class S>
struct LbmStore {
  using real = S;
  static constexpr bool kHalf = false;
};

template <>
struct LbmStore<std::uint16_t> {
  using real = float;
  static constexpr bool kHalf = true;
};

}  // namespace immerse::lbm3d
