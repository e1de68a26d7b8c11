// The factored collision every lattice path runs (bgk_collide, through bgk_relax) against the
// textbook form it factors, evaluated here term by term: BGK towards the second-order equilibrium
// D3Q15::feq at u = (sum e f + F / 2) / rho, plus Guo et al.'s (2002) forcing
//   (1 - omega / 2) w_q (3 (e_q - u).F + 9 (e_q.u)(e_q.F)).
#include <gtest/gtest.h>

#include <random>

#include "immerse/lbm3d/d3q15.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"

using namespace immerse::lbm3d;

namespace {

// The textbook update of one cell, in long double.
void textbook(const double f[15], double omega, const double force[3], double out[15]) {
  long double rho = 0, j[3] = {0, 0, 0};
  for (int q = 0; q < 15; ++q) {
    rho += f[q];
    j[0] += D3Q15::cx(q) * f[q];
    j[1] += D3Q15::cy(q) * f[q];
    j[2] += D3Q15::cz(q) * f[q];
  }
  long double u[3];
  for (int a = 0; a < 3; ++a) u[a] = (j[a] + 0.5L * force[a]) / rho;
  const long double pref = 1.0L - 0.5L * omega;
  for (int q = 0; q < 15; ++q) {
    const long double e[3] = {static_cast<long double>(D3Q15::cx(q)), static_cast<long double>(D3Q15::cy(q)),
                              static_cast<long double>(D3Q15::cz(q))};
    const long double feq = D3Q15::feq<long double>(q, rho, u[0], u[1], u[2]);
    long double eu = 0, eF = 0, euF = 0;
    for (int a = 0; a < 3; ++a) {
      eu += e[a] * u[a];
      eF += e[a] * force[a];
      euF += (e[a] - u[a]) * force[a];
    }
    const long double guo = pref * D3Q15::w(q) * (3 * euF + 9 * eu * eF);
    out[q] = static_cast<double>(f[q] - omega * (f[q] - feq) + guo);
  }
}

// Random cells near equilibrium (speeds up to 0.15, non-equilibrium parts up to 1e-3 of a weight),
// omega across the stable range, forces up to 1e-3: the factored form must agree to rounding.
// Measured: at most 1.1e-16 in double over these cells (populations below 0.3). The tolerance,
// 4e-16, is a few units in the last place of the largest population. Each wrong factoring tried
// fails it: the 1/3 of |j|^2 taken as 1/2, Guo's j.F term left out of the rest direction or of
// the pairs, the half-force shift of j dropped.
TEST(Collision, FactoredFormIsTheTextbookBgkWithGuoForcing) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> speed(-0.15, 0.15), noise(-1e-3, 1e-3), tau(0.51, 2.0), push(-1e-3, 1e-3);
  for (int cell = 0; cell < 500; ++cell) {
    const double omega = 1 / tau(rng), rho = 0.9 + 0.2 * (cell % 7) / 6.0;
    const double ux = speed(rng), uy = speed(rng), uz = speed(rng);
    const bool forced = cell % 2 == 1;
    const double force[3] = {forced ? push(rng) : 0, forced ? push(rng) : 0, forced ? push(rng) : 0};
    double f[15], got[15], want[15];
    for (int q = 0; q < 15; ++q) f[q] = D3Q15::feq<double>(q, rho, ux, uy, uz) + D3Q15::w(q) * noise(rng);
    bgk_relax(f, got, omega, 1 - 0.5 * omega, force[0], force[1], force[2], forced);
    textbook(f, omega, force, want);
    for (int q = 0; q < 15; ++q)
      ASSERT_NEAR(got[q], want[q], 4e-16) << "q " << q << ", cell " << cell << (forced ? ", forced" : "");
  }
}

}  // namespace

// The health check's test of a cell's equilibrium (equilibria_nonnegative, written out per q)
// against D3Q15::feq direction by direction, over speeds from rest to past every sign change: at
// |u|^2 > 2/3 the rest population goes negative, and along a diagonal a corner one sooner.
TEST(Collision, EquilibriumSignTestMatchesFeqInEveryDirection) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> speed(-0.9f, 0.9f), density(0.5f, 1.5f);
  int negative = 0;
  for (int n = 0; n < 20000; ++n) {
    const float rho = density(rng), ux = speed(rng), uy = speed(rng), uz = speed(rng);
    bool all = true;
    for (int q = 0; q < 15; ++q) all = all && D3Q15::feq(q, rho, ux, uy, uz) >= 0;
    negative += all ? 0 : 1;
    ASSERT_EQ(equilibria_nonnegative(rho, ux, uy, uz, std::make_integer_sequence<int, 15>()), all)
        << "rho " << rho << " u (" << ux << ", " << uy << ", " << uz << ")";
  }
  EXPECT_GT(negative, 1000);  // both answers were tested
  EXPECT_LT(negative, 19000);
  EXPECT_FALSE(
      equilibria_nonnegative(1.0f, 0.9f, 0.0f, 0.0f, std::make_integer_sequence<int, 15>()));  // rest: 1 - 1.215
  EXPECT_TRUE(equilibria_nonnegative(1.0f, 0.1f, -0.1f, 0.05f, std::make_integer_sequence<int, 15>()));
}
