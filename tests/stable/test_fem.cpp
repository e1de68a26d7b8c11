// Explicit FEM against elasticity: rigid motion gives zero Green strain; an undamped free body keeps
// its energy; a cantilever under a small end load deflects as beam theory predicts; the windmill's
// hub turns as a rigid body about its pin; the paper's meshes have their element counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "immerse/bodies/fem_body.hpp"
#include "immerse/core/error.hpp"

namespace immerse::bodies {
namespace {

TEST(Fem, PaperMeshesHaveThePaperElementCounts) {
  EXPECT_EQ(fem_bar(0, 0, 0.08, 0.5, 2, 48, true).tris.size(), 194u);  // Table 1, Fig. 6
  std::vector<int> hub;
  EXPECT_EQ(fem_windmill(0, 0, 0.02, 0.2, 19, hub).tris.size(), 160u);  // Table 1, Fig. 7
  EXPECT_EQ(hub.size(), 9u);
}

TEST(Fem, RigidMotionProducesNoStrain) {
  FemBody body(fem_bar(0, 0, 0.1, 0.5, 2, 10, false), FemMaterial{});
  // Rotate by 0.7 rad and translate: F is a rotation, so F^T F = I exactly (round-off).
  const double c = std::cos(0.7), s = std::sin(0.7);
  for (auto& p : body.x) p = {c * p[0] - s * p[1] + 3, s * p[0] + c * p[1] - 1};
  EXPECT_LE(body.max_green_strain(), 1e-14);
  EXPECT_LE(body.strain_energy(), 1e-20);
  // Rigid rotation rate (v = w x r) makes no dashpot stress: the element forces vanish, so a free
  // body spinning undamped keeps its shape.
  FemMaterial m;
  m.lambda_d = m.mu_d = 5;
  FemBody spin(fem_bar(0, 0, 0.1, 0.5, 2, 10, false), m);
  for (size_t k = 0; k < spin.x.size(); ++k) spin.v[k] = {-2 * spin.x[k][1], 2 * spin.x[k][0]};
  spin.advance(1e-4, 1);
  EXPECT_LE(spin.max_green_strain(), 1e-7);  // symplectic Euler: the rotation's chord stretches O((w h)^2) = 4e-8
}

TEST(Fem, UndampedFreeBodyConservesEnergy) {
  FemMaterial m;
  m.lambda = 2e3;
  m.mu = 1e3;
  m.density = 1;
  FemBody body(fem_bar(0, 0, 0.1, 0.5, 2, 10, false), m);
  for (auto& p : body.x) p[1] *= 1.02;  // stretched 2 % and released
  const double e0 = body.strain_energy() + body.kinetic_energy();
  // Wave speed sqrt((lambda + 2 mu)/rho) = 63 m/s over the shortest edge 0.05 m: dt = 1e-5 is 1/80 of
  // the CFL limit. Symplectic Euler conserves a shadow energy; the true energy oscillates with
  // relative amplitude O(omega dt) ~ 1e-3 for the fastest mode excited here, never drifts.
  double worst = 0;
  for (int k = 0; k < 200; ++k) {
    body.advance(1e-3, 100);
    worst = std::max(worst, std::abs(body.strain_energy() + body.kinetic_energy() - e0) / e0);
  }
  EXPECT_LE(worst, 5e-3);
}

TEST(Fem, CantileverEndLoadMatchesBeamTheory) {
  // Cantilever L = 1, H = 0.1, clamped at x = 0, end load P at x = L (shared by the end nodes),
  // plane strain with lambda = 0 (Poisson 0): E = 2 mu, I = H^3/12. Timoshenko: delta = P L^3/(3 E I)
  // + P L/(k G A), k = 5/6. Small load (delta/L = 0.5 %) so the Green-strain geometry is linear.
  // Linear triangles lock in bending: with 6 layers across the depth the tip deflection is known to
  // come out several percent stiff (Cook et al., Concepts and Applications of FEA, 4th ed., sec. 3.x
  // cantilever benchmark); tolerance 8 %.
  const double L = 1, H = 0.1, mu = 1e4, E = 2 * mu, I = H * H * H / 12, G = mu;
  const int nw = 6, nl = 60;
  FemMaterial m;
  m.lambda = 0;
  m.mu = mu;
  m.density = 1;
  m.mass_damping = 30;  // quasi-static relaxation
  // Transpose the generator's vertical bar: build it along y and rotate to lie along x.
  FemMesh mesh = fem_bar(0, 0, H, L, nw, nl, false);
  for (auto& p : mesh.nodes) p = {p[1], p[0]};
  FemBody body(mesh, m);
  const double P = -0.005 * 3 * E * I / (L * L * L);
  int tip_nodes = 0;
  for (size_t k = 0; k < body.x.size(); ++k) {
    if (body.x[k][0] < 1e-12) body.fix(static_cast<int>(k));
    if (body.x[k][0] > L - 1e-12) ++tip_nodes;
  }
  for (size_t k = 0; k < body.x.size(); ++k)
    if (body.x[k][0] > L - 1e-12) body.f_ext[k] = {0, P / tip_nodes};
  // sqrt(mu/rho) = 100 m/s over h = 1/60: dt = 4e-5 is 0.24 of the CFL limit. Fundamental
  // omega = 3.516 sqrt(E I / (rho H L^4)) = 14.4 rad/s; damping 30/s is about critical: 4 s relaxes it.
  for (int k = 0; k < 100; ++k) body.advance(0.04, 1000);
  double tip = 0;
  for (size_t k = 0; k < body.x.size(); ++k)
    if (mesh.nodes[k][0] > L - 1e-12) tip += (body.x[k][1] - mesh.nodes[k][1]) / tip_nodes;
  const double theory = P * L * L * L / (3 * E * I) + P * L / (5.0 / 6 * G * H);
  EXPECT_NEAR(tip / theory, 1.0, 0.08) << "tip " << tip << " theory " << theory;
  EXPECT_LE(body.kinetic_energy(), 1e-9 * std::abs(P * theory));
}

TEST(Fem, HubTurnsRigidlyAboutThePin) {
  std::vector<int> hub;
  FemMaterial m;
  m.lambda = 1e3;
  m.mu = 1e3;
  FemBody mill(fem_windmill(0.5, 0.5, 0.02, 0.2, 19, hub), m);
  mill.set_hub(hub, {0.5, 0.5});
  // A tangential push at every blade tip (counter-clockwise about the pin): the mill spins up
  // counter-clockwise, the hub's nodes keep their distances to the pin.
  for (size_t k = 9; k < mill.x.size(); ++k) {
    const double rx = mill.x[k][0] - 0.5, ry = mill.x[k][1] - 0.5, r = std::hypot(rx, ry);
    if (r > 0.2) mill.f_ext[k] = {-1e-3 * ry / r, 1e-3 * rx / r};
  }
  // Wave speed sqrt(3e3) = 55 m/s over the 0.0105 m blade cells: sub-step 5e-5 s is 1/4 of the CFL limit.
  for (int k = 0; k < 20; ++k) mill.advance(0.01, 200);
  EXPECT_GT(mill.hub_omega(), 0);
  EXPECT_GT(mill.hub_angle(), 0);
  for (int k : hub)
    EXPECT_NEAR(std::hypot(mill.x[k][0] - 0.5, mill.x[k][1] - 0.5),
                std::hypot(mill.mesh().nodes[k][0] - 0.5, mill.mesh().nodes[k][1] - 0.5), 1e-12);
}

TEST(Fem, ImportsAUserMesh) {
  const std::string path = ::testing::TempDir() + "fem_square.txt";
  {
    std::ofstream out(path);
    out << "nodes 4 triangles 2\n0 0\n1 0\n1 1\n0 1\n0 2 1\n0 3 2\n";  // clockwise on purpose
  }
  FemBody body(fem_read_mesh(path), FemMaterial{});
  EXPECT_NEAR(body.area(), 1.0, 1e-15);  // reoriented counter-clockwise: positive area
  EXPECT_EQ(body.boundary().size(), 4u);
  EXPECT_THROW(fem_read_mesh(path + ".missing"), immerse::InputError);  // the program's exit 2
}

}  // namespace
}  // namespace immerse::bodies
