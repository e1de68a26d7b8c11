// The shallow-water LBM's kernels on every enabled backend: still water is an exact fixed point,
// the depth sum is conserved by streaming, bounce-back and collision, serial and openmp agree, and
// bad parameters are rejected up front or detected at run time.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/swlbm/stability.hpp"
#include "immerse/swlbm/sw_flow.hpp"
#include "immerse/swlbm/sw_lattice.hpp"
#include "immerse/swlbm/sw_solver.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::swlbm;

namespace {

SwParams pond(int nx, int ny) {
  SwParams p;
  p.nx = nx;
  p.ny = ny;
  p.dx = 0.5;  // v = 10 m/s, h = 1 m: ratio 0.08
  p.dt = 0.05;
  p.tau = 0.6;
  p.initial_h = "1";
  return p;
}

}  // namespace

// The equilibria of eq. 2 have the moments the shallow-water equations need (Zhou 2004, eq. 2.80):
// sum f = h, sum v_a f = h u, sum v_a v_a f = g h^2 / 2 I + h u u. An independent check of the
// transcription of the paper's velocity order and weights.
TEST(SwLattice, EquilibriumMoments) {
  const double h = 1.7, ux = 0.3, uy = -0.45, g = 9.81, v = 12.0;
  double m0 = 0, mx = 0, my = 0, pxx = 0, pxy = 0, pyy = 0;
  for (int a = 0; a < 9; ++a) {
    const double f = sw_equilibrium(a, h, ux, uy, g, v), ex = v * lattice_cx(a), ey = v * lattice_cy(a);
    m0 += f;
    mx += ex * f;
    my += ey * f;
    pxx += ex * ex * f;
    pxy += ex * ey * f;
    pyy += ey * ey * f;
    EXPECT_EQ(lattice_cx(lattice_opposite(a)), -lattice_cx(a));
    EXPECT_EQ(lattice_cy(lattice_opposite(a)), -lattice_cy(a));
  }
  // Tolerances: round-off of 9-term sums of O(v^2 h) terms.
  EXPECT_NEAR(m0, h, 1e-13);
  EXPECT_NEAR(mx, h * ux, 1e-12);
  EXPECT_NEAR(my, h * uy, 1e-12);
  EXPECT_NEAR(pxx, 0.5 * g * h * h + h * ux * ux, 1e-11);
  EXPECT_NEAR(pxy, h * ux * uy, 1e-11);
  EXPECT_NEAR(pyy, 0.5 * g * h * h + h * uy * uy, 1e-11);
  // The paper's order: 2 is (v, -v), 8 is (v, v).
  EXPECT_EQ(lattice_cx(2), 1);
  EXPECT_EQ(lattice_cy(2), -1);
  EXPECT_EQ(lattice_cy(7), 1);
}

template <class Exec>
class SwWater : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(SwWater, test::EnabledSpaces, test::SpaceName);

// Still water is a fixed point of streaming + collision with every border kind: the rest
// equilibrium streams into itself, bounce-back returns it, inflow/wave borders at rest supply it.
TYPED_TEST(SwWater, StillWaterStaysStill) {
  for (Border side : {Border::wall, Border::periodic, Border::outflow, Border::inflow}) {
    SwParams p = pond(20, 12);
    p.left = p.right = side;
    p.bottom = p.top = side == Border::periodic ? Border::periodic : Border::wall;
    p.inflow_h = "1";
    auto flow = make_sw_flow(this->backend, p);
    for (int n = 0; n < 200; ++n) flow->step();
    const HostFields f = flow->fields();
    for (size_t c = 0; c < f.h.size(); ++c) {
      // Round-off of the 9-term moment sums only: 1e-14 m of depth, 1e-13 m/s of velocity (v = 10 m/s).
      ASSERT_NEAR(f.h[c], 1.0, 1e-14) << "border kind " << static_cast<int>(side) << " cell " << c;
      ASSERT_NEAR(f.u[c], 0.0, 1e-13) << c;
      ASSERT_NEAR(f.v[c], 0.0, 1e-13) << c;
    }
  }
}

// Without sources (walls or periodic borders, no force) streaming moves populations and the
// collision conserves their sum (sum f^eq = h, sum of the force term = 0): the volume changes by
// round-off only while a hump of water sloshes around.
TYPED_TEST(SwWater, VolumeConserved) {
  for (Border side : {Border::wall, Border::periodic}) {
    SwParams p = pond(40, 30);
    p.left = p.right = p.bottom = p.top = side;
    p.initial_h = "1 + 0.3 * exp(-((x - 8)^2 + (y - 6)^2) / 4)";
    p.initial_u = "0.2";
    auto flow = make_sw_flow(this->backend, p);
    const double v0 = flow->volume();
    for (int n = 0; n < 400; ++n) flow->step();
    // 1200 cells summed in double each step: relative round-off ~1e-13 after 400 steps.
    EXPECT_NEAR(flow->volume() / v0, 1.0, 1e-12) << "border kind " << static_cast<int>(side);
    const FieldStatus s = flow->status();
    EXPECT_TRUE(s.healthy);
    EXPECT_GT(s.max_speed, 0.01);  // the hump did move: the test is not vacuous
  }
}

// Rejected up front, naming the limit and the keys: dt so large that the rest population
// 1 - 5 g h / (6 v^2) is negative; dt that keeps it positive but lets waves outrun the lattice.
TEST(SwStability, RejectsNegativeRestEquilibrium) {
  SwParams p = pond(8, 8);
  p.dt = 0.5;  // v = 1 m/s, 5 g h / (6 v^2) = 8.2
  try {
    make_sw_flow(default_backend(), p);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rest equilibrium"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("time.dt"), std::string::npos) << e.what();
  }
}

TEST(SwStability, RejectsFlowSupercriticalForTheLattice) {
  SwParams p = pond(8, 8);
  p.dt = 0.125;  // v = 4 m/s: 5 g h / (6 v^2) = 0.51 < 1, but sqrt(g h) + |u| = 3.13 + 2 > 4
  p.initial_u = "2";
  const LatticeLimits l = lattice_limits(p, flow_scales(p));
  EXPECT_LT(l.rest_ratio, 1.0);
  EXPECT_GT(l.lattice_courant, 1.0);
  try {
    make_sw_flow(default_backend(), p);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("supercritical"), std::string::npos) << e.what();
  }
  p.dt = 0.9 * l.dt_max_courant;  // the reported limit is the real one
  EXPECT_NO_THROW(make_sw_flow(default_backend(), p));
}

TEST(SwStability, RejectsUnpairedPeriodicAndDryStart) {
  Schema s = sw_schema();
  json doc = {{"boundaries", {{"left", "periodic"}}}};
  EXPECT_THROW(sw_params_from_json(s.resolve(doc, "t.json"), "t.json"), InputError);
  json tau = {{"physics", {{"tau", 0.5}}}};
  EXPECT_THROW(s.resolve(tau, "t.json"), InputError);  // tau must exceed 1/2 (positive viscosity)
  SwParams p = pond(8, 8);
  p.initial_h = "-1";
  EXPECT_THROW(make_sw_flow(default_backend(), p), InputError);
}

// Run-time detection: forced past the up-front check (the solver built directly), the scheme
// blows up and status() names the field and cell instead of carrying NaN on.
TYPED_TEST(SwWater, DetectsBlowUp) {
  SwParams p = pond(16, 16);
  p.dt = 0.25;  // v = 2 m/s: 5 g h / (6 v^2) = 2 (rest population negative)
  p.initial_h = "1 + 0.5 * exp(-((x - 4)^2 + (y - 4)^2))";
  SwSolver<TypeParam> flow(p);
  bool caught = false;
  for (int n = 0; n < 2000 && !caught; ++n) {
    flow.step();
    const FieldStatus s = flow.status();
    if (!s.healthy) {
      caught = true;
      EXPECT_FALSE(s.field.empty());
      EXPECT_GE(s.i, 0);
      EXPECT_GE(s.j, 0);
    }
  }
  EXPECT_TRUE(caught);
}

// Serial and openmp run the same kernel: on a sloshing hump with an inflow border and a force
// field they agree to round-off (different vectorisation may contract differently).
TEST(SwBackends, SerialAndOpenmpAgree) {
  if (enabled_backends().size() < 2) GTEST_SKIP() << "one backend only";
  SwParams p = pond(33, 21);
  p.left = Border::inflow;
  p.right = Border::outflow;
  p.inflow_h = "1 + 0.1 * sin(t)";
  p.inflow_u = "0.3";
  p.initial_h = "1 + 0.2 * exp(-((x - 6)^2 + (y - 5)^2) / 3)";
  std::vector<HostFields> out;
  for (Backend b : enabled_backends()) {
    auto flow = make_sw_flow(b, p);
    for (int n = 0; n < 300; ++n) flow->step();
    out.push_back(flow->fields());
  }
  for (size_t k = 1; k < out.size(); ++k)
    for (size_t c = 0; c < out[0].h.size(); ++c) {
      ASSERT_NEAR(out[k].h[c], out[0].h[c], 1e-12) << c;
      ASSERT_NEAR(out[k].u[c], out[0].u[c], 1e-12) << c;
      ASSERT_NEAR(out[k].v[c], out[0].v[c], 1e-12) << c;
    }
}
