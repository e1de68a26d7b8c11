#pragma once
// A small lattice for the kernel tests (test_line_kernel.cpp, test_aa_pattern.cpp): its size, one
// border kind per face, an optional body force, two boxes of body cells (one on the x_min face and
// cut by the y seam), C3 marks as JellyGroups sets them, random near-equilibrium populations and
// random body velocities; and the comparison of two population buffers both tests make. Host spaces
// only (the views are filled in place).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "immerse/lbm3d/lbm_kernels.hpp"

namespace immerse::lbm3d::kernel_test {

struct LatticeSetup {
  int nx, ny, nz;
  int border[6];  // x_min, x_max, y_min, y_max, z_min, z_max (kPeriodic, kOutflow, kBounceBack, kVelocity)
  bool forced;
  bool bodies = true;  // false: no body cells (make_groups leaves every cell plain water)
};

// Groups: two boxes of body cells (surface ring, inner core), one of them cut by the y seam and
// touching x_min; water next to a body (without wrapping, as JellyGroups marks it) is C3. Without
// bodies (s.bodies false) every cell is plain water.
inline std::vector<unsigned char> make_groups(const LatticeSetup& s) {
  const long n = static_cast<long>(s.nx) * s.ny * s.nz;
  std::vector<unsigned char> g(n, kWater);
  if (!s.bodies) return g;
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

// The state `src` (unswapped), the groups, body velocities, and the pull kernel's lattice and
// relaxation constants in `k` (k.src = src; k.dst unset).
template <class Real, class Exec>
struct TestLattice {
  using Device = typename Exec::device_type;
  long n = 0, stride = 0;
  Kokkos::View<Real*, Device> src;
  Kokkos::View<unsigned char*, Device> group;
  Kokkos::View<Real*, Device> ub;
  std::vector<unsigned char> groups;
  CollideStream<Real, Exec> k;
};

template <class Real, class Exec>
TestLattice<Real, Exec> make_test_lattice(const LatticeSetup& s) {
  using Device = typename Exec::device_type;
  TestLattice<Real, Exec> t;
  const long n = static_cast<long>(s.nx) * s.ny * s.nz, stride = population_stride<Real>(n);
  t.n = n;
  t.stride = stride;
  t.src = Kokkos::View<Real*, Device>("src", 15 * stride);
  t.group = Kokkos::View<unsigned char*, Device>("group", n);
  t.ub = Kokkos::View<Real*, Device>("ub", 3 * n);
  t.groups = make_groups(s);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.05, 0.05), noise(-0.002, 0.002);
  for (long c = 0; c < n; ++c) {
    t.group(c) = t.groups[c];
    const double vx = u(rng), vy = u(rng), vz = u(rng);
    for (int q = 0; q < 15; ++q)
      t.src(q * stride + c) = static_cast<Real>(D3Q15::feq<double>(q, 1.0, vx, vy, vz) + noise(rng) / 9);
    for (int a = 0; a < 3; ++a) t.ub(a * n + c) = is_body(t.groups[c]) ? static_cast<Real>(u(rng)) : Real(0);
  }
  auto& lat = t.k.lat;
  lat.nx = s.nx;
  lat.ny = s.ny;
  lat.nz = s.nz;
  lat.n = n;
  lat.stride = stride;
  lat.rho0 = 1;
  for (int f = 0; f < 6; ++f) lat.border[f] = s.border[f];
  for (int q = 0; q < 15; ++q) {
    lat.rest_feq[q] = static_cast<Real>(D3Q15::w(q));
    lat.inlet_feq[q] = D3Q15::feq<Real>(q, 1, 0.04, -0.01, 0.02);
    lat.offset[q] = D3Q15::cx(q) + static_cast<long>(s.nx) * (D3Q15::cy(q) + static_cast<long>(s.ny) * D3Q15::cz(q));
  }
  lat.group = t.group;
  lat.ub = t.ub;
  t.k.src = t.src;
  t.k.omega = Real(1 / 0.7);
  t.k.force_pref = Real(1 - 0.5 / 0.7);
  t.k.forced = s.forced;
  if (s.forced) {
    t.k.force[0] = Real(1e-4);
    t.k.force[1] = Real(-2e-5);
    t.k.force[2] = Real(5e-5);
  }
  return t;
}

// Populations of a and b (every slot of every cell) further apart than tol; the first five are
// reported as failures naming the cell and slot, under the label `what`.
template <class View>
long count_differences(const View& a, const View& b, const LatticeSetup& s, long stride, double tol, const char* what) {
  const long n = static_cast<long>(s.nx) * s.ny * s.nz;
  long bad = 0;
  for (long c = 0; c < n; ++c)
    for (int q = 0; q < 15; ++q) {
      const double x = a(q * stride + c), y = b(q * stride + c);
      if (!(std::abs(x - y) <= tol) && bad++ < 5)
        ADD_FAILURE() << what << ": cell (" << c % s.nx << ", " << (c / s.nx) % s.ny << ", " << c / s.nx / s.ny
                      << ") slot " << q << ": " << x << " against " << y;
    }
  return bad;
}

// The setups both kernel tests run: every border kind with and without a body force; lines longer
// than one SIMD run (kRun = 64) so that they split into several; periodic seams cut by a body; and
// lines of 8 and 12 cells, whose whole-line vectors (lbm_line_run.hpp: 8 or 16 cells) hold both
// ends in one vector, or end in a partial one, with the x wrap read inside the line's own vectors.
inline std::vector<LatticeSetup> border_setups() {
  return {
      {8, 7, 5, {kPeriodic, kPeriodic, kPeriodic, kPeriodic, kPeriodic, kPeriodic}, true},
      {12, 7, 6, {kPeriodic, kPeriodic, kBounceBack, kVelocity, kPeriodic, kPeriodic}, false},
      {70, 9, 8, {kVelocity, kOutflow, kPeriodic, kPeriodic, kBounceBack, kBounceBack}, false},
      {70, 9, 8, {kVelocity, kOutflow, kPeriodic, kPeriodic, kBounceBack, kBounceBack}, true},
      {19, 11, 10, {kPeriodic, kPeriodic, kOutflow, kVelocity, kPeriodic, kPeriodic}, true},
      {23, 8, 9, {kBounceBack, kBounceBack, kBounceBack, kOutflow, kVelocity, kPeriodic}, false},
      {131, 7, 7, {kOutflow, kOutflow, kOutflow, kOutflow, kOutflow, kOutflow}, false},
  };
}

}  // namespace immerse::lbm3d::kernel_test
