// The host line kernel (lbm_line_kernel.hpp: per-line plans, SIMD runs of water cells) against the
// reference: the per-cell kernel CollideStream::cell that device spaces run, whose gather applies the
// border and body rules cell by cell. Same input state, same groups, every border kind on some face,
// bodies touching faces and periodic seams: the two must write the same populations, with the line
// kernel's ordinary stores and with its streaming stores (streaming_store.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/lbm3d/lbm_line_kernel.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

namespace {

struct LatticeSetup {
  int nx, ny, nz;
  int border[6];  // x_min, x_max, y_min, y_max, z_min, z_max (kPeriodic, kOutflow, kBounceBack, kVelocity)
  bool forced;
};

// Groups: two boxes of body cells (surface ring, inner core), one of them cut by the y seam and
// touching x_min; water next to a body (without wrapping, as JellyGroups marks it) is C3.
std::vector<unsigned char> make_groups(const LatticeSetup& s) {
  const long n = static_cast<long>(s.nx) * s.ny * s.nz;
  std::vector<unsigned char> g(n, kWater);
  auto at = [&](int i, int j, int k) { return i + static_cast<long>(s.nx) * (j + static_cast<long>(s.ny) * k); };
  auto box = [&](int i0, int i1, int j0, int j1, int k0, int k1) {
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
          const bool edge = i == i0 || i == i1 || j == j0 || j == j1 || k == k0 || k == k1;
          g[at(i, j, k)] = edge ? kSurface : kInner;
        }
  };
  box(s.nx / 3, s.nx / 3 + 5, s.ny / 3, s.ny / 3 + 4, s.nz / 2 - 2, s.nz / 2 + 2);
  box(0, 3, 0, 2, 1, 3);  // on the x_min face and the y_min seam
  for (int k = 0; k < s.nz; ++k)
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i) {
        if (g[at(i, j, k)] != kWater) continue;
        for (int q = 1; q < 15; ++q) {
          const int si = i + D3Q15::cx(q), sj = j + D3Q15::cy(q), sk = k + D3Q15::cz(q);
          if (si < 0 || sj < 0 || sk < 0 || si >= s.nx || sj >= s.ny || sk >= s.nz) continue;
          if (is_body(g[at(si, sj, sk)])) g[at(i, j, k)] = kNearBody;
        }
      }
  return g;
}

template <class Real, class Exec>
void compare_line_kernel_with_cell_kernel(const LatticeSetup& s, const bool streaming) {
  using Device = typename Exec::device_type;
  const long n = static_cast<long>(s.nx) * s.ny * s.nz, stride = population_stride<Real>(n);
  Kokkos::View<Real*, Device> src("src", 15 * stride), by_line("by_line", 15 * stride), by_cell("by_cell", 15 * stride);
  Kokkos::View<unsigned char*, Device> group("group", n);
  Kokkos::View<Real*, Device> ub("ub", 3 * n);
  const auto groups = make_groups(s);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.05, 0.05), noise(-0.002, 0.002);
  for (long c = 0; c < n; ++c) {
    group(c) = groups[c];
    const double vx = u(rng), vy = u(rng), vz = u(rng);
    for (int q = 0; q < 15; ++q) src(q * stride + c) = static_cast<Real>(D3Q15::feq<double>(q, 1.0, vx, vy, vz) + noise(rng) / 9);
    for (int a = 0; a < 3; ++a) ub(a * n + c) = is_body(groups[c]) ? static_cast<Real>(u(rng)) : Real(0);
  }
  CollideStream<Real, Exec> k;
  auto& lat = k.lat;
  lat.nx = s.nx, lat.ny = s.ny, lat.nz = s.nz, lat.n = n, lat.stride = stride, lat.rho0 = 1;
  for (int f = 0; f < 6; ++f) lat.border[f] = s.border[f];
  for (int q = 0; q < 15; ++q) {
    lat.rest_feq[q] = static_cast<Real>(D3Q15::w(q));
    lat.inlet_feq[q] = D3Q15::feq<Real>(q, 1, 0.04, -0.01, 0.02);
    lat.offset[q] = D3Q15::cx(q) + static_cast<long>(s.nx) * (D3Q15::cy(q) + static_cast<long>(s.ny) * D3Q15::cz(q));
  }
  lat.group = group, lat.ub = ub;
  k.src = src, k.omega = Real(1 / 0.7), k.force_pref = Real(1 - 0.5 / 0.7);
  k.forced = s.forced;
  if (s.forced) k.force[0] = Real(1e-4), k.force[1] = Real(-2e-5), k.force[2] = Real(5e-5);

  k.dst = by_cell;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), k);
  k.dst = by_line;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, s.ny * s.nz), CollideStreamLines<Real, Exec>{k, streaming});
  Exec().fence();

  // Both paths gather the same values and relax them with the same bgk_relax; only the compiler's
  // choice of fused multiply-adds may differ between the SIMD and the scalar code: a few units in the
  // last place of populations of order 0.1, so 1e-6 (FP32) / 1e-14 (FP64) absolute.
  const double tol = sizeof(Real) == 4 ? 1e-6 : 1e-14;
  long bad = 0;
  for (long c = 0; c < n; ++c)
    for (int q = 0; q < 15; ++q) {
      const double a = by_line(q * stride + c), b = by_cell(q * stride + c);
      if (!(std::abs(a - b) <= tol) && bad++ < 5)
        ADD_FAILURE() << "cell (" << c % s.nx << ", " << (c / s.nx) % s.ny << ", " << c / s.nx / s.ny << ") q " << q
                      << ": line kernel " << a << ", cell kernel " << b;
    }
  EXPECT_EQ(bad, 0);
}

}  // namespace

// Every border kind, with and without a body force, in both precisions, on each host backend (device
// spaces run the cell kernel itself); the x extent is longer than
// one SIMD run (kRun) so lines are split into several runs, and the y faces are a periodic seam cut
// by a body.
TEST(LatticeLineKernel, MatchesTheCellKernelOnEveryBorderKind) {
  const LatticeSetup setups[] = {
      {70, 9, 8, {kVelocity, kOutflow, kPeriodic, kPeriodic, kBounceBack, kBounceBack}, false},
      {70, 9, 8, {kVelocity, kOutflow, kPeriodic, kPeriodic, kBounceBack, kBounceBack}, true},
      {19, 11, 10, {kPeriodic, kPeriodic, kOutflow, kVelocity, kPeriodic, kPeriodic}, true},
      {23, 8, 9, {kBounceBack, kBounceBack, kBounceBack, kOutflow, kVelocity, kPeriodic}, false},
      {131, 7, 7, {kOutflow, kOutflow, kOutflow, kOutflow, kOutflow, kOutflow}, false},
  };
  for (const auto& s : setups) {
    SCOPED_TRACE(testing::Message() << s.nx << "x" << s.ny << "x" << s.nz << (s.forced ? " forced" : ""));
    for (const bool streaming : {false, true}) {
      SCOPED_TRACE(streaming ? "streaming stores" : "ordinary stores");
      compare_line_kernel_with_cell_kernel<float, Kokkos::Serial>(s, streaming);
      compare_line_kernel_with_cell_kernel<double, Kokkos::Serial>(s, streaming);
#if defined(KOKKOS_ENABLE_OPENMP)
      compare_line_kernel_with_cell_kernel<float, Kokkos::OpenMP>(s, streaming);
      compare_line_kernel_with_cell_kernel<double, Kokkos::OpenMP>(s, streaming);
#endif
    }
  }
}
