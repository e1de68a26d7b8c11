// The boundary map's cut-cell leakage (coupling::bmap_cut_leakage) against exact fluxes: a tilted
// rectangle carried by a uniform flow lets nothing through its outline, and one held still in it
// passes the flow's flux through its frontal width twice (in at the front, out at the back), for any
// position on the grid. A turning bar in still water: the projection with the map's constraints lets
// nothing through the outline when the covered face parts move at the body's mean velocity over them,
// and leaks in proportion to the rotation with a crossing's velocity instead.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/bodies/fem_body.hpp"
#include "immerse/coupling/bmap_boundary_map.hpp"
#include "support/backends.hpp"

namespace immerse::coupling {
namespace {

constexpr double kU = 0.3, kV = -0.1;  // the uniform flow, m/s
constexpr double kWidth = 0.06, kLength = 0.3, kAngle = 0.5;

// A 1 m box of n^2 cells holding the uniform flow (kU, kV) as its initial field (never stepped).
std::unique_ptr<mac2d::StableFlow> uniform_flow(int n) {
  mac2d::StableParams p;
  p.nx = p.ny = n;
  p.h = 1.0 / n;
  for (auto& w : p.walls) w.type = mac2d::WallType::slip;
  p.initial_u = std::to_string(kU);
  p.initial_v = std::to_string(kV);
  return mac2d::make_stable_flow(default_backend(), p);
}

// The bar mesh turned by kAngle about its lower-left corner, placed at (x0, y0), moving at `vel`.
bodies::FemBody tilted_bar(double x0, double y0, Vec2 vel) {
  bodies::FemBody b(bodies::fem_bar(0, 0, kWidth, kLength, 2, 10, false), bodies::FemMaterial{});
  const double c = std::cos(kAngle), s = std::sin(kAngle);
  for (size_t n = 0; n < b.x.size(); ++n) {
    const Vec2 p = b.mesh().nodes[n];
    b.x[n] = {x0 + c * p[0] - s * p[1], y0 + s * p[0] + c * p[1]};
    b.v[n] = vel;
  }
  return b;
}

TEST(BmapCutLeakage, NothingLeaksThroughABodyCarriedByTheFlow) {
  const int n = 64;
  const auto flow = uniform_flow(n);
  for (const double shift : {0.0, 0.3, 0.71}) {  // fractions of a cell: the grid cuts the outline anywhere
    const bodies::FemBody b = tilted_bar(0.4 + shift / n, 0.3 + 0.5 * shift / n, {kU, kV});
    BoundaryMap map;
    bmap_build(map, b, n, n, 1.0 / n);
    const Leakage l = bmap_cut_leakage(map, b.boundary(), b.x, b.v, *flow, n, n);
    EXPECT_LT(l.absolute, 1e-12) << "shift " << shift;
  }
}

TEST(BmapCutLeakage, ABodyAtRestPassesTheFlowThroughItsFrontalWidth) {
  const int n = 64;
  const double h = 1.0 / n;
  const auto flow = uniform_flow(n);
  // Width of the tilted rectangle across the flow direction, times the flow's speed: the flux in at
  // the front and out at the back.
  const double speed = std::hypot(kU, kV), ex = kU / speed, ey = kV / speed;
  const double c = std::cos(kAngle), s = std::sin(kAngle);
  const Vec2 along_w = {c * kWidth, s * kWidth}, along_l = {-s * kLength, c * kLength};
  const double frontal = std::abs(along_w[0] * ey - along_w[1] * ex) + std::abs(along_l[0] * ey - along_l[1] * ex);
  for (const double shift : {0.0, 0.3, 0.71}) {
    const bodies::FemBody b = tilted_bar(0.4 + shift * h, 0.3 + 0.5 * shift * h, {0, 0});
    BoundaryMap map;
    bmap_build(map, b, n, n, h);
    const Leakage l = bmap_cut_leakage(map, b.boundary(), b.x, b.v, *flow, n, n);
    EXPECT_NEAR(l.net, 0, 1e-12);
    // In and out partly cancel inside the two cells holding the corners where u . n changes sign:
    // at most the flux through one cell's width each.
    EXPECT_NEAR(l.absolute, 2 * speed * frontal, 2 * speed * h) << "shift " << shift;
    EXPECT_LE(l.absolute, 2 * speed * frontal + 1e-12);
  }
}

// The bar turning rigidly at kOmega about its middle in a closed box of still water; one fluid step with
// the map's constraints; the cut-cell leakage relative to the body's own flux scale omega L^2 / 4.
constexpr double kOmega = 1.0;
double turning_bar_leak(bool mean_on_covered_parts) {
  const int n = 64;
  const double h = 1.0 / n;
  mac2d::StableParams p;
  p.nx = p.ny = n;
  p.h = h;
  p.dt = 0.01;
  p.pressure_tol = 1e-8;
  for (auto& w : p.walls) w.type = mac2d::WallType::slip;
  const auto flow = mac2d::make_stable_flow(default_backend(), p);
  bodies::FemBody b = tilted_bar(0.43, 0.31, {0, 0});
  const Vec2 c = {0.5 * (b.x.front()[0] + b.x.back()[0]), 0.5 * (b.x.front()[1] + b.x.back()[1])};
  for (size_t k = 0; k < b.x.size(); ++k) b.v[k] = {-kOmega * (b.x[k][1] - c[1]), kOmega * (b.x[k][0] - c[0])};
  BoundaryMap map;
  bmap_build(map, b, n, n, h);
  if (!mean_on_covered_parts) map.cover = BmapCover{};  // the nearest crossing's velocity
  std::vector<mac2d::FaceConstraint> faces;
  bmap_constraints(map, CouplingMode::boundary_map, n, n, faces);
  flow->set_constraints(faces);
  flow->predict();
  flow->project();
  return bmap_cut_leakage(map, b.boundary(), b.x, b.v, *flow, n, n).absolute / (kOmega * kLength * kLength / 4);
}

// Measured 1.0e-9: what the projection leaves at pressure_tol 1e-8 (1/s) over the cut cells.
TEST(BmapCutLeakage, NothingLeaksAroundATurningBody) { EXPECT_LT(turning_bar_leak(true), 1e-8); }

// Counterexample: a face's covered part at the velocity of the crossing nearest it. Measured 0.036:
// omega times half a covered length, over some hundred cut faces.
TEST(BmapCutLeakage, TheCrossingVelocityLeaksAroundATurningBody) { EXPECT_GT(turning_bar_leak(false), 0.01); }

// The faces worked out on the host threads (an openmp run) are a serial run's, bit for bit and in
// the same order, for both couplings: each face by itself, the cover's queries reading only.
TEST(BmapConstraints, EveryBackendGivesTheSameFaces) {
  const int n = 96;
  const double h = 1.0 / n;
  bodies::FemBody b = tilted_bar(0.41, 0.27, {0, 0});
  for (size_t k = 0; k < b.x.size(); ++k) b.v[k] = {0.2 - 0.7 * b.x[k][1], 0.1 + 0.9 * b.x[k][0]};
  BoundaryMap map;
  bmap_build(map, b, n, n, h);
  for (const CouplingMode mode : {CouplingMode::boundary_map, CouplingMode::staircase}) {
    std::vector<mac2d::FaceConstraint> serial;
    bmap_constraints(map, mode, n, n, serial, Backend::serial);
    ASSERT_GT(serial.size(), 100u);
    for (const Backend backend : enabled_backends()) {
      std::vector<mac2d::FaceConstraint> faces;
      bmap_constraints(map, mode, n, n, faces, backend);
      ASSERT_EQ(faces.size(), serial.size()) << to_string(backend);
      for (size_t k = 0; k < faces.size(); ++k) {
        const mac2d::FaceConstraint &a = faces[k], &e = serial[k];
        ASSERT_TRUE(a.c == e.c && a.i == e.i && a.j == e.j && a.fixed == e.fixed)
            << to_string(backend) << " face " << k;
        EXPECT_EQ(a.weight, e.weight);
        EXPECT_EQ(a.ub, e.ub);
        for (int d = 0; d < 4; ++d) {
          EXPECT_EQ(a.cut[d], e.cut[d]);
          EXPECT_EQ(a.cut_ub[d], e.cut_ub[d]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace immerse::coupling
