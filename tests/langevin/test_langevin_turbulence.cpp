// The k-epsilon precompute on the 3D MAC grid: the model's exact decay law without mean flow, on
// every backend; the projection keeps the flow past a body divergence-free; backends agree.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/mac3d/turbulence.hpp"
#include "support/backends.hpp"

namespace m = immerse::mac3d;

template <class Exec>
class LangevinTurbulence : public immerse::test::BackendTest<Exec> {};
TYPED_TEST_SUITE(LangevinTurbulence, immerse::test::EnabledSpaces, immerse::test::SpaceName);

// No mean flow (U0 = 0, so G = 0): dk/dt = -eps, deps/dt = -C2 eps^2 / k has the exact solution
// k = k0 (1 + t/t0)^(-1/(C2-1)), eps = eps0 (1 + t/t0)^(-C2/(C2-1)), t0 = k0 / ((C2 - 1) eps0).
// The midpoint rule's global error is O((dt/t0)^2) ~ 1e-4 at dt = t0/50; over 4 t0 we allow 1e-3
// relative on both (a first-order scheme would miss by ~1e-2 and fail).
TYPED_TEST(LangevinTurbulence, DecayWithoutMeanFlowFollowsTheExactLaw) {
  m::TurbulenceParams p;
  p.nx = p.ny = p.nz = 6;
  p.h = 0.01;
  p.U0 = 0;
  p.k0 = 1.5;
  p.eps0 = 2.0;
  const double t0 = p.k0 / ((p.C2 - 1) * p.eps0);
  p.dt = t0 / 50;
  p.steps = 200;
  p.sampling = m::Sampling::domain;
  p.pressure_iterations = 1;  // nothing to project: the velocity stays zero
  const auto r = m::run_turbulence(this->backend, p, std::vector<uint8_t>(216, 0));
  ASSERT_EQ(r.k.size(), 200u);
  double worst = 0;
  for (size_t n = 0; n < r.k.size(); ++n) {
    const double s = 1 + r.time[n] / t0;
    const double k = p.k0 * std::pow(s, -1 / (p.C2 - 1)), e = p.eps0 * std::pow(s, -p.C2 / (p.C2 - 1));
    worst = std::max({worst, std::abs(r.k[n] / k - 1), std::abs(r.eps[n] / e - 1)});
    EXPECT_NEAR(r.chi[n], r.eps[n] / r.k[n], 1e-12 * r.chi[n]);
  }
  EXPECT_LT(worst, 1e-3);
}

// Flow past a block: after the projection the divergence left by the Jacobi sweeps is small
// (|div u| h / U0 < 0.05 with 60 sweeps on this 24 x 12 x 12 grid), the flow goes round the body
// (the speed in front of it drops below U0/2), and the body's wake produces turbulence (G > 0):
// the shell sample's k stays above the no-production decay law.
TYPED_TEST(LangevinTurbulence, FlowPastABlockProducesTurbulence) {
  m::TurbulenceParams p;
  p.nx = 24;
  p.ny = 12;
  p.nz = 12;
  p.h = 0.01;
  p.U0 = 0.5;
  p.dt = 0.01;
  p.steps = 40;
  std::vector<uint8_t> solid(size_t(p.nx) * p.ny * p.nz, 0);
  for (int k = 4; k < 8; ++k)
    for (int j = 4; j < 8; ++j)
      for (int i = 8; i < 10; ++i) solid[i + p.nx * (j + p.ny * k)] = 1;
  const auto r = m::run_turbulence(this->backend, p, solid);
  EXPECT_LT(r.max_divergence, 0.05);
  EXPECT_LT(r.speed[7 + p.nx * (6 + p.ny * 6)], 0.5 * p.U0);
  EXPECT_GT(r.sampled_cells, 0);
  const double k0 = 1.5 * p.U0 * p.U0, eps0 = std::pow(p.C_mu, 0.75) * std::pow(k0, 1.5) / p.h;
  const double t0 = k0 / ((p.C2 - 1) * eps0), t = r.time.back();
  EXPECT_GT(r.k.back(), k0 * std::pow(1 + t / t0, -1 / (p.C2 - 1)));
}

// Serial and OpenMP give the same series, bit for bit: every kernel is per cell and the sums are
// added in a fixed order (ordered_sum), whatever the thread count.
TEST(LangevinTurbulenceBackends, SerialAndOpenMPAgree) {
  m::TurbulenceParams p;
  p.nx = 16;
  p.ny = 8;
  p.nz = 8;
  p.h = 0.01;
  p.U0 = 0.5;
  p.dt = 0.01;
  p.steps = 15;
  std::vector<uint8_t> solid(size_t(p.nx) * p.ny * p.nz, 0);
  for (int k = 3; k < 5; ++k)
    for (int j = 3; j < 5; ++j) solid[6 + p.nx * (j + p.ny * k)] = 1;
  const auto a = m::run_turbulence(immerse::Backend::serial, p, solid);
#if defined(IMMERSE_ENABLE_OPENMP)
  const auto b = m::run_turbulence(immerse::Backend::openmp, p, solid);
  for (size_t n = 0; n < a.k.size(); ++n) {
    EXPECT_EQ(a.k[n], b.k[n]);
    EXPECT_EQ(a.eps[n], b.eps[n]);
  }
#endif
}
