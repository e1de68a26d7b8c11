// The advection's host vector rows (stable_backtrace.hpp with CellVector: a vector of faces along x,
// sampled by gathers) against its one-face form (OneCell, what every backend runs elsewhere), face
// by face on a swirling velocity field whose departure points cross cells, the clamp at the ghost
// layer included. The two compute the same expressions, so they agree to round-off: the compiler
// may fuse a multiply-add in one and not in the other. A vector lane off by a thousandth of a cell
// passes the solver's physical checks (Taylor-Green, Ghia) but not this one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stable_backtrace.hpp"

namespace immerse::mac2d {
namespace {

#if defined(IMMERSE_HOST_GATHER)
using view = Kokkos::View<double*, Kokkos::HostSpace>;

// A grid whose rows hold whole vectors and a remainder, and a velocity of up to 3 cells per step
// (c = 1): departure points land across the grid and past its edges.
struct Field {
  StableGrid g{37, 29, 39, 1.0 / 37};
  view u{"u", 39 * 31}, v{"v", 39 * 31}, q{"q", 39 * 31};
  Field() {
    for (int j = 0; j < 31; ++j)
      for (int i = 0; i < 39; ++i) {
        const int k = g.at(i, j);
        u(k) = 3 * std::sin(0.3 * i + 0.1) * std::cos(0.2 * j);
        v(k) = -2.5 * std::cos(0.25 * i) * std::sin(0.35 * j + 0.2);
        q(k) = std::sin(0.17 * i * j + 0.3 * i);
      }
  }
};

template <bool kU>
void check_rows(double c) {
  const Field f;
  constexpr int W = HostLanes<double>::width;
  const int i1 = kU ? f.g.nx : f.g.nx + 1, j1 = kU ? f.g.ny + 1 : f.g.ny;
  int compared = 0;
  for (int j = 1; j < j1; ++j)
    for (int i = 1; i + W <= i1; i += W) {
      const auto pv = kU ? stable_departure_u<CellVector>(f.u, f.v, f.g, i, j, c)
                         : stable_departure_v<CellVector>(f.u, f.v, f.g, i, j, c);
      const HostLanes<double> sv = stable_interp_index(f.q, f.g, pv.i, pv.j);
      for (int l = 0; l < W; ++l) {
        const StableIndex p =
            kU ? stable_departure_u(f.u, f.v, f.g, i + l, j, c) : stable_departure_v(f.u, f.v, f.g, i + l, j, c);
        const double s = stable_interp_index(f.q, f.g, p.i, p.j);
        ASSERT_NEAR(pv.i.x[l], p.i, 1e-12) << "face " << i + l << "," << j;
        ASSERT_NEAR(pv.j.x[l], p.j, 1e-12) << "face " << i + l << "," << j;
        ASSERT_NEAR(sv.x[l], s, 1e-12) << "face " << i + l << "," << j;
        ++compared;
      }
    }
  EXPECT_GT(compared, 500);
}

TEST(BacktraceVectors, UFacesAsOneFaceAtATime) {
  check_rows<true>(1.0);
  check_rows<true>(4.0);  // departure points well past every edge: the clamp
}
TEST(BacktraceVectors, VFacesAsOneFaceAtATime) {
  check_rows<false>(1.0);
  check_rows<false>(4.0);
}
TEST(BacktraceVectors, ForwardTracesAsOneFaceAtATime) {  // MacCormack's backward step: c < 0
  check_rows<true>(-0.7);
  check_rows<false>(-0.7);
}
#else
TEST(BacktraceVectors, NoHostGathersInThisBuild) { GTEST_SKIP() << "the host has neither AVX-512F nor AVX2"; }
#endif

}  // namespace
}  // namespace immerse::mac2d
