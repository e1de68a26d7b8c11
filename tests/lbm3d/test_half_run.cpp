// The host's binary16 vector run (lbm_half_run.hpp: conversions inside the SIMD cell loop, AVX-512
// or AVX2 + F16C) against the cell-by-cell form of the same step: each population widened alone
// (load_shifted_half), relaxed by bgk_relax in scalar float, narrowed alone (store_shifted_half).
// Run lengths 1 to 40 cover whole vectors and every partial last vector; in place (the AA pattern's
// out == in) too. Where the host has neither instruction set the run is not compiled: skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "immerse/core/half.hpp"
#include "immerse/lbm3d/lbm_half_run.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

#if defined(IMMERSE_LBM_HALF_SIMD)
namespace {

// Cells near equilibrium (|u| < 0.05, a little noise), stored as shifted binary16.
std::vector<std::vector<std::uint16_t>> random_cells(int m, float inv_scale, const float ref[15]) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.05, 0.05), noise(-0.002, 0.002);
  std::vector<std::vector<std::uint16_t>> pop(15, std::vector<std::uint16_t>(m));
  for (int a = 0; a < m; ++a) {
    const double vx = u(rng), vy = u(rng), vz = u(rng);
    for (int q = 0; q < 15; ++q)
      pop[q][a] = store_shifted_half(static_cast<float>(D3Q15::feq<double>(q, 1.0, vx, vy, vz) + noise(rng) / 9),
                                     ref[q], inv_scale);
  }
  return pop;
}

// Largest distance in binary16 units (as integers of the same sign) between two stored values.
int half_units(std::uint16_t a, std::uint16_t b) {
  auto ordered = [](std::uint16_t h) { return h & 0x8000 ? -int(h & 0x7fff) : int(h); };
  return std::abs(ordered(a) - ordered(b));
}

}  // namespace

// Both paths widen exactly (the scale is a power of two) and narrow with round-to-nearest; only the
// compiler's fused multiply-adds may differ between the vector and the scalar relaxation, a few float
// ulps, which can move a stored value across a rounding boundary: at most one binary16 unit.
TEST(LatticeHalfRun, MatchesTheCellByCellStep) {
  const float inv_scale = 1.0f / 16384, omega = 1 / 0.7f, pref = 1 - 0.5f / 0.7f;
  const float force[3] = {1e-4f, -2e-5f, 5e-5f};
  float ref[15];
  for (int q = 0; q < 15; ++q) ref[q] = static_cast<float>(D3Q15::w(q));
  for (const bool forced : {false, true})
    for (const bool in_place : {false, true})
      for (int m = 1; m <= 40; ++m) {
        SCOPED_TRACE(testing::Message() << m << " cells" << (forced ? ", forced" : "")
                                        << (in_place ? ", in place" : ""));
        auto pop = random_cells(m, inv_scale, ref);
        std::vector<std::vector<std::uint16_t>> expect(15, std::vector<std::uint16_t>(m));
        for (int a = 0; a < m; ++a) {
          float f[15], g[15];
          for (int q = 0; q < 15; ++q) f[q] = load_shifted_half(pop[q][a], ref[q], inv_scale);
          bgk_relax(f, g, omega, pref, force[0], force[1], force[2], forced);
          for (int q = 0; q < 15; ++q) expect[q][a] = store_shifted_half(g[q], ref[q], inv_scale);
        }
        std::vector<std::vector<std::uint16_t>> got =
            in_place ? pop : std::vector<std::vector<std::uint16_t>>(15, std::vector<std::uint16_t>(m, 0x7e00));
        const std::uint16_t* in[15];
        std::uint16_t* out[15];
        for (int q = 0; q < 15; ++q) {
          in[q] = in_place ? got[q].data() : pop[q].data();
          out[q] = got[q].data();
        }
        if (forced)
          relax_half_run<true>(omega, pref, force, ref, inv_scale, in, out, m);
        else
          relax_half_run<false>(omega, pref, force, ref, inv_scale, in, out, m);
        int worst = 0;
        for (int q = 0; q < 15; ++q)
          for (int a = 0; a < m; ++a) worst = std::max(worst, half_units(got[q][a], expect[q][a]));
        EXPECT_LE(worst, 1);
      }
}
#else
TEST(LatticeHalfRun, MatchesTheCellByCellStep) {
  GTEST_SKIP() << "no AVX-512 or AVX2 + F16C binary16 run on this host";
}
#endif
