// The host's binary16 vector run (lbm_half_run.hpp: conversions inside the SIMD cell loop, AVX-512
// or AVX2 + F16C) against the cell-by-cell form of the same step: each population widened alone
// (load_shifted_half), relaxed by bgk_relax in scalar float, narrowed alone (store_shifted_half).
// Run lengths 1 to 40 cover whole vectors and every partial last vector; in place (the AA pattern's
// out == in) too. Where the host has neither instruction set the run is not compiled: skipped.
// First, on every host: the collision on shifted and scaled deviations, which the run relaxes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "immerse/core/half.hpp"
#include "immerse/lbm3d/lbm_half_run.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

// bgk_collide on deviations d_q = (f_q - w_q r) / scale (BgkShift) against the same cells as full
// populations: scale d' + w_q r must be the relaxed f, forced or not, to a few units of the last
// place of populations below 0.25 (measured at most 1.4e-16 in double and 6.0e-8 in float, with and
// without FMA: tolerances 4e-16 and 1.5e-7). A shift that is dropped or applied with the wrong
// weight class, or a half-force shift left unscaled, moves a result by far more (omega w_q r is
// about 0.02 here): checked, each fails.
template <class Real>
void expect_shift_is_exact(const double tol) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.08, 0.08), noise(-0.003, 0.003);
  const Real omega = Real(1 / 0.62), pref = Real(1 - 0.5 / 0.62), r = Real(1.03), scale = Real(1.0 / 4096);
  const Real force[3] = {Real(2e-4), Real(-1e-4), Real(5e-5)};
  const BgkShift<Real> shift{scale, Real(D3Q15::w(0)) * r, Real(D3Q15::w(1)) * r, Real(D3Q15::w(7)) * r};
  for (const bool forced : {false, true})
    for (int cell = 0; cell < 200; ++cell) {
      const double vx = u(rng), vy = u(rng), vz = u(rng);
      Real f[15], d[15], g[15], h[15];
      for (int q = 0; q < 15; ++q) {
        f[q] = static_cast<Real>(D3Q15::feq<double>(q, 0.98, vx, vy, vz) + noise(rng) / 9);
        d[q] = (f[q] - Real(D3Q15::w(q)) * r) / scale;
      }
      bgk_relax(f, g, omega, pref, force[0], force[1], force[2], forced);
      const BgkCoefficients<Real> c(omega, pref, force[0], force[1], force[2], shift);
      if (forced)
        bgk_collide<true, true>(c, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12],
                                d[13], d[14], h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11],
                                h[12], h[13], h[14]);
      else
        bgk_collide<false, true>(c, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12],
                                 d[13], d[14], h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11],
                                 h[12], h[13], h[14]);
      for (int q = 0; q < 15; ++q)
        ASSERT_NEAR(double(h[q] * scale + Real(D3Q15::w(q)) * r), double(g[q]), tol)
            << "q " << q << ", cell " << cell << (forced ? ", forced" : "");
    }
}

TEST(LatticeShift, RelaxingDeviationsEqualsRelaxingPopulations) {
  expect_shift_is_exact<double>(4e-16);
  expect_shift_is_exact<float>(1.5e-7);
}

#if defined(IMMERSE_HALF_SIMD)
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
