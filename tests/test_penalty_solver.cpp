// The penalty solver's kernels on every enabled backend, against exact discrete solutions, plus a
// comparison of backends on one case with obstacles, dyes and streaklines.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "immerse/mac2d/penalty_flow.hpp"
#include "immerse/mac2d/stability.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::mac2d;

namespace {

PenaltyParams channel(int nx, int ny) {
  PenaltyParams p;
  p.nx = nx;
  p.ny = ny;
  p.dx = 1.0 / ny;
  p.dy = 1.0 / ny;
  p.Re = 10;
  p.eps = 0.01;
  p.dt = 0.5 * stability_limits(p, 1.0).dt_max();
  return p;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t k = 0; k < a.size(); ++k) m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

}  // namespace

template <class Exec>
class PenaltySolverTest : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(PenaltySolverTest, test::EnabledSpaces, test::SpaceName);

// Fluid at rest in a closed box stays exactly at rest (no spurious source anywhere), and a dye
// released in it does not move (the case prescribes no speed at all, the edge case for choosing the
// dye's sub-cycling).
TYPED_TEST(PenaltySolverTest, RestStaysAtRest) {
  PenaltyParams p = channel(12, 8);
  p.left = Side::noslip;
  p.right = Side::noslip;
  DyeSpec d;
  d.x = 0.75;
  d.y = 0.5;
  d.radius = 0.1;
  p.dyes = {d};
  auto flow = make_penalty_flow(this->backend, p);
  for (int n = 0; n < 50; ++n) flow->step();
  const HostFields f = flow->fields();
  for (size_t k = 0; k < f.u.size(); ++k) ASSERT_EQ(f.u[k], 0.0) << k;
  for (size_t k = 0; k < f.p.size(); ++k) ASSERT_EQ(f.p[k], 0.0) << k;
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) {
      const double x = (i - 0.5) * f.dx, y = (j - 0.5) * f.dy;
      const bool in_source = (x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) <= d.radius * d.radius;
      ASSERT_EQ(f.dyes[0][f.at(i, j)], in_source ? 1.0 : 0.0) << i << "," << j;
    }
}

// Plane Couette flow u = y (bottom wall at rest, top wall at speed 1) is an exact steady solution of
// the discrete equations: linear in y (zero Laplacian, exact ghost reflection), no x-variation, v = 0.
TYPED_TEST(PenaltySolverTest, CouetteFlowIsSteady) {
  PenaltyParams p = channel(16, 8);
  p.inflow_u = "y";
  p.initial_u = "y";
  p.top_wall_u = 1.0;
  auto flow = make_penalty_flow(this->backend, p);
  for (int n = 0; n < 200; ++n) flow->step();
  const HostFields f = flow->fields();
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 0; i <= f.nx; ++i) ASSERT_NEAR(f.u[f.at(i, j)], (j - 0.5) * f.dy, 1e-12) << i << "," << j;
  for (int j = 1; j < f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) ASSERT_NEAR(f.v[f.at(i, j)], 0.0, 1e-12);
}

// Viscous decay of u = sin(pi y): on the cell-centred grid with reflected ghosts sin(pi y_j) is an
// exact eigenvector of the discrete Laplacian with eigenvalue lambda_h = 4 sin^2(pi dy / 2) / dy^2,
// so explicit Euler multiplies it by (1 - dt lambda_h / Re) each step (the inflow face is fed the
// same discrete solution). Continuous reference exp(-pi^2 t / Re) differs by O(dy^2).
TYPED_TEST(PenaltySolverTest, ShearModeDecaysAtTheDiscreteRate) {
  PenaltyParams p = channel(8, 16);
  const double lambda_h = 4 * std::pow(std::sin(M_PI * p.dy / 2), 2) / (p.dy * p.dy);
  const double g = 1 - p.dt * lambda_h / p.Re;
  p.initial_u = "sin(pi * y)";
  std::ostringstream formula;  // 17 digits: the formula must carry g and dt exactly
  formula.precision(17);
  formula << "(" << g << ")^(t / " << p.dt << ") * sin(pi * y)";
  p.inflow_u = formula.str();
  auto flow = make_penalty_flow(this->backend, p);
  const int steps = 400;
  for (int n = 0; n < steps; ++n) flow->step();
  const HostFields f = flow->fields();
  const double amp = std::pow(g, steps), amp_exact = std::exp(-M_PI * M_PI * flow->time() / p.Re);
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) {
      const double s = std::sin(M_PI * (j - 0.5) * f.dy);
      // The formula's t / dt is not an exact integer in floating point: round-off only.
      ASSERT_NEAR(f.u[f.at(i, j)], amp * s, 1e-12) << i << "," << j;
    }
  // Against the continuous solution: relative rate error pi^2 dy^2 / 12 over the elapsed decay.
  const double rate_err = M_PI * M_PI * p.dy * p.dy / 12 * M_PI * M_PI * flow->time() / p.Re;
  EXPECT_NEAR(amp / amp_exact, 1.0, 2 * rate_err + 1e-6);
}

// Obstacles mark exactly the cells whose centres lie inside them, ghost cells included, against a
// direct test of every cell centre against every shape here: a rotated rectangle over a circle, an
// ellipse reaching past the domain's corner, a circle smaller than a cell around one centre and one
// between centres, a moving square turned by 45 degrees. The rasteriser tests only the cells near
// each shape (its bounding square); a square too small for the turned square's corners (half side
// a, not a + b) fails this.
TYPED_TEST(PenaltySolverTest, ObstaclesCoverTheCellCentresInsideThem) {
  PenaltyParams p = channel(40, 20);
  p.obstacles = {{ObstacleShape::circle, "0.5", "0.5", 0.2, 0.2, 0, "post"},
                 {ObstacleShape::rectangle, "0.62", "0.41", 0.3, 0.08, 35, "plank"},
                 {ObstacleShape::ellipse, "0.04", "0.93", 0.26, 0.11, -20, "corner"},
                 {ObstacleShape::circle, "1.525", "0.475", 0.01, 0.01, 0, "around a centre"},
                 {ObstacleShape::circle, "1.75", "0.5", 0.01, 0.01, 0, "between centres"},
                 {ObstacleShape::rectangle, "1.5 + 0.2 * t", "0.25", 0.15, 0.15, 45, "moving"}};
  auto flow = make_penalty_flow(this->backend, p);
  flow->step();  // the moving one is rasterised at t = dt
  const HostFields f = flow->fields();
  int inside = 0, near_edge = 0;
  for (int j = 0; j <= f.ny + 1; ++j)
    for (int i = 0; i <= f.nx + 1; ++i) {
      const double x = (i - 0.5) * f.dx, y = (j - 0.5) * f.dy;
      // Signed distance-like measure per shape: < 0 inside, > 0 outside; a centre within 1e-9 of
      // an edge may round either way and is not checked.
      double margin = 1;
      bool expected = false;
      for (const auto& o : p.obstacles) {
        const double cx = o.name == "moving" ? 1.5 + 0.2 * flow->time() : std::stod(o.x), cy = std::stod(o.y);
        const double th = o.angle_deg * M_PI / 180, dx = x - cx, dy = y - cy;
        const double lx = std::cos(th) * dx + std::sin(th) * dy, ly = -std::sin(th) * dx + std::cos(th) * dy;
        const double m = o.shape == ObstacleShape::rectangle ? std::max(std::abs(lx) - o.a, std::abs(ly) - o.b)
                                                             : std::hypot(lx / o.a, ly / o.b) - 1;
        expected = expected || m < 0;
        margin = std::min(margin, std::abs(m));
      }
      if (margin < 1e-9) {
        ++near_edge;
        continue;
      }
      inside += expected;
      ASSERT_EQ(f.solid[f.at(i, j)], expected ? 1 : 0) << "cell " << i << "," << j;
    }
  EXPECT_GT(inside, 40);
  EXPECT_LT(near_edge, 5);
}

// The same scene with moving obstacles, dyes and streaklines on this backend and on serial: the step
// kernels do no reductions and every cell's arithmetic is the same, so CPU backends must agree
// bitwise; a GPU may contract multiply-adds (FMA), hence 1e-12 relative there.
TYPED_TEST(PenaltySolverTest, AgreesWithSerial) {
  PenaltyParams p = channel(48, 16);
  p.Re = 50;
  p.inflow_u = "4 * y * (1 - y)";
  p.obstacles = {{ObstacleShape::circle, "0.8", "0.5", 0.15, 0.15, 0, "post"},
                 {ObstacleShape::rectangle, "1.5 + 0.2 * sin(10 * t)", "0.3", 0.1, 0.05, 20, "boat"}};
  DyeSpec d;
  d.x = 0.1;
  d.y = 0.5;
  d.radius = 0.1;
  p.dyes = {d};
  p.streak_seeds = {{0.05, 0.3}, {0.05, 0.7}};
  p.streak_release_every = 5;
  p.dt = 0.5 * stability_limits(p, 1.0).dt_max();
  auto here = make_penalty_flow(this->backend, p), serial = make_penalty_flow(Backend::serial, p);
  for (int n = 0; n < 300; ++n) here->step(), serial->step();
  const HostFields a = here->fields(), b = serial->fields();
  const double tol = this->backend == Backend::cuda ? 1e-12 : 0.0;
  EXPECT_LE(max_abs_diff(a.u, b.u), tol);
  EXPECT_LE(max_abs_diff(a.v, b.v), tol);
  EXPECT_LE(max_abs_diff(a.p, b.p), tol * 1e3);
  EXPECT_LE(max_abs_diff(a.dyes[0], b.dyes[0]), tol);
  EXPECT_EQ(a.solid, b.solid);
  const auto sa = here->streaklines(), sb = serial->streaklines();
  ASSERT_EQ(sa.position.size(), sb.position.size());
  EXPECT_GT(sa.position.size(), 0u);
  // The flow actually moved: the scene is not trivially at rest.
  EXPECT_GT(here->status().max_speed, 0.5);
}

TEST(Stability, RejectsTimeStepAboveTheLimitNamingIt) {
  PenaltyParams p = channel(8, 8);
  p.dt = 2 * stability_limits(p, 1.0).dt_max();
  p.inflow_u = "1";
  try {
    make_penalty_flow(Backend::serial, p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("time.dt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stability limit"), std::string::npos) << e.what();
  }
}

TEST(Stability, PatentTableParametersAreInsideTheLimit) {
  // The patent's dt = 0.001 with dx = 1, eps = 0.005, Re = 300 ran stably; the limit must admit it.
  PenaltyParams p;
  p.nx = p.ny = 3;
  p.dx = p.dy = 1;
  p.eps = 0.005;
  p.Re = 300;
  p.dt = 0.001;
  EXPECT_LT(p.dt, stability_limits(p, 2.0).dt_max());
}
