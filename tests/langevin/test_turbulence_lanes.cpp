// The turbulence precompute's host vectors (turbulence_kernels.hpp with XLanes) against its
// one-element form (OneSample, what devices run and the host runs at a row's end), element by
// element on random fields with a body: the two do the same operations in the same order, and this
// file, like turbulence.cpp, is compiled without fused multiply-adds, so they agree bit for bit.
// A lane that reads its neighbour's sample, a clamp that misses a lane, or a blend the wrong way
// round all show up here; the physical tests (test_langevin_turbulence.cpp) would pass most of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "turbulence_kernels.hpp"

#if defined(IMMERSE_HOST_GATHER)
namespace {

using namespace immerse::mac3d::detail;

// A grid of nx x ny x nz cells whose x rows are not a whole number of vectors.
struct RandomGrid {
  int nx = 21, ny = 6, nz = 5;
  std::vector<double> u, v, w, k, eps, p, inv_count, rhs;
  std::vector<std::uint8_t> solid, open;
  MacFields m;
  RandomGrid() {
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> speed(-2.0, 2.0), positive(0.1, 3.0);
    auto fill = [&](std::vector<double>& f, std::size_t n, auto& dist) {
      f.resize(n);
      for (double& x : f) x = dist(gen);
    };
    const std::size_t cells = std::size_t(nx) * ny * nz;
    fill(u, std::size_t(nx + 1) * ny * nz, speed);  // up to 2 cells per step at c = 1: backtraces clamp
    fill(v, std::size_t(nx) * (ny + 1) * nz, speed);
    fill(w, std::size_t(nx) * ny * (nz + 1), speed);
    fill(k, cells, positive);
    fill(eps, cells, positive);
    fill(p, std::size_t(nx + 2) * (ny + 2) * (nz + 2), speed);
    fill(inv_count, cells, positive);
    fill(rhs, cells, speed);
    std::bernoulli_distribution body(0.2);
    solid.resize(cells);
    for (auto& s : solid) s = body(gen);
    open.resize(6 * cells);
    for (auto& o : open) o = body(gen) ? 0 : 1;
    m = {{u.data(), nx + 1, ny, nz}, {v.data(), nx, ny + 1, nz}, {w.data(), nx, ny, nz + 1},
         {k.data(), nx, ny, nz},     {eps.data(), nx, ny, nz},   solid.data()};
  }
};

// Every element of every vector-wide run of a row [lo, hi) (first at i0), vector against one by one.
template <class Vector, class One>
void expect_same(int lo, int hi, const Vector& vector, const One& one, const char* what, int j, int k) {
  for (int i0 = lo; i0 + XLanes::width <= hi; ++i0) {
    const XLanes::T x = vector(i0);
    for (int l = 0; l < XLanes::width; ++l)
      ASSERT_EQ(x.x[l], one(i0 + l)) << what << " at (" << i0 + l << ", " << j << ", " << k << "), lane " << l;
  }
}

TEST(TurbulenceLanes, AdvectionVectorsEqualTheOneElementForm) {
  RandomGrid g;
  const double c = 1.0;  // cells per m/s
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j) {
      expect_same(
          1, g.nx, [&](int i) { return advect_u<XLanes>(g.m, i, j, k, c); },
          [&](int i) { return advect_u<OneSample>(g.m, i, j, k, c); }, "u", j, k);
      if (j > 0)
        expect_same(
            0, g.nx, [&](int i) { return advect_v<XLanes>(g.m, i, j, k, c); },
            [&](int i) { return advect_v<OneSample>(g.m, i, j, k, c); }, "v", j, k);
      if (k > 0)
        expect_same(
            0, g.nx, [&](int i) { return advect_w<XLanes>(g.m, i, j, k, c); },
            [&](int i) { return advect_w<OneSample>(g.m, i, j, k, c); }, "w", j, k);
      for (int which = 0; which < 2; ++which)
        expect_same(
            0, g.nx,
            [&](int i) {
              XLanes::T kn, en;
              advect_cell<XLanes>(g.m, i, j, k, c, 0.25, 0.5, kn, en);
              return which == 0 ? kn : en;
            },
            [&](int i) {
              double kn, en;
              advect_cell<OneSample>(g.m, i, j, k, c, 0.25, 0.5, kn, en);
              return which == 0 ? kn : en;
            },
            which == 0 ? "advected k" : "advected eps", j, k);
    }
}

TEST(TurbulenceLanes, PressureAndKEpsilonVectorsEqualTheOneElementForm) {
  RandomGrid g;
  const KEpsilon e{g.nx, g.ny, g.nz, 0.01, 100.0, 1e-3, 0.09, 1.44, 1.92, 1.92 / 1.44, 1e-12};
  const long cells = long(g.nx) * g.ny * g.nz, s1 = g.nx + 2, s2 = s1 * (g.ny + 2);
  JacobiStencil s{{}, g.inv_count.data(), g.rhs.data(), s1, s2};
  for (int d = 0; d < 6; ++d) s.open[d] = g.open.data() + d * cells;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j) {
      for (int which = 0; which < 2; ++which)
        expect_same(
            0, g.nx,
            [&](int i) {
              XLanes::T kn, en;
              k_epsilon_cell<XLanes>(g.m, e, i, j, k, kn, en);
              return which == 0 ? kn : en;
            },
            [&](int i) {
              double kn, en;
              k_epsilon_cell<OneSample>(g.m, e, i, j, k, kn, en);
              return which == 0 ? kn : en;
            },
            which == 0 ? "k-epsilon k" : "k-epsilon eps", j, k);
      const long q = 1 + s1 * (j + 1) + s2 * (k + 1), c0 = g.nx * (j + long(g.ny) * k);
      expect_same(
          0, g.nx, [&](int i) { return jacobi_cell<XLanes>(s, g.p.data(), q + i, c0 + i); },
          [&](int i) { return jacobi_cell<OneSample>(s, g.p.data(), q + i, c0 + i); }, "jacobi", j, k);
      expect_same(
          0, g.nx, [&](int i) { return divergence_cell<XLanes>(g.m, i, j, k, 0.01, 1e-3); },
          [&](int i) { return divergence_cell<OneSample>(g.m, i, j, k, 0.01, 1e-3); }, "divergence", j, k);
      const double dt_h = 0.3;
      for (int axis = 0; axis < 3; ++axis) {
        if ((axis == 1 && j == 0) || (axis == 2 && k == 0)) continue;  // the walls' faces: none
        expect_same(
            axis == 0 ? 1 : 0, g.nx,
            [&](int i) { return project_face<XLanes>(g.m, axis, s, g.p.data(), i, j, k, dt_h); },
            [&](int i) { return project_face<OneSample>(g.m, axis, s, g.p.data(), i, j, k, dt_h); },
            axis == 0   ? "projected u"
            : axis == 1 ? "projected v"
                        : "projected w",
            j, k);
      }
    }
}

}  // namespace
#endif
