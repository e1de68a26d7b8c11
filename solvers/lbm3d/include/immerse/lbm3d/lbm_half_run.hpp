#pragma once
// A run of binary16-stored cells relaxed with the conversions inside the vector loop (host, AVX-512
// with BW and VL: 16 cells per vector; or AVX2 with F16C: 8; half_vector.hpp): each vector widens
// its 15 inputs with vcvtph2ps, relaxes them in registers as the stored deviations (bgk_collide with
// the lattice's shift, on a float lane type), and narrows its 15 results with vcvtps2ph, with no
// float blocks in L1 between (lbm_line_kernel.hpp's water_run otherwise widens and narrows whole runs). The last
// cells are one partial vector (AVX-512: masked; AVX2: through an 8-cell buffer). All 15 loads of a
// vector come before its stores, so in place (the AA pattern) stays safe. FP16C (fp16c.hpp) runs
// here too, converted in integer lanes.
#include "immerse/core/half_vector.hpp"
#if defined(IMMERSE_HALF_SIMD)
#include "immerse/lbm3d/lbm_kernels.hpp"

namespace immerse::lbm3d {

using immerse::FloatLanes;
using immerse::HalfVector;

// m cells from in[q][0..m) to out[q][0..m), binary16 shifted by ref[q] and scaled by 1 / inv_scale;
// the relaxation constants as CollideStream holds them. The widened halves are the deviations
// bgk_collide relaxes with the lattice's shift (BgkShift), so no population is shifted and scaled
// on its way in or out: two vector operations less per population.
// Half: std::uint16_t (binary16) or Fp16c.
template <bool Forced, class Half>
inline void relax_half_run(const float omega, const float pref, const float force[3], const float ref[15],
                           const float inv_scale, const Half* const in[15], Half* const out[15], const int m) {
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
