// Added mass by the panel method against analytic potential flow: the sphere (1/2 rho V, no
// rotational part), Lamb's ellipsoid coefficients (prolate spheroid and the paper's 1 x 2 x 4
// ellipsoid), the elliptic disc, with tolerances that tighten with mesh refinement; symmetry.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/bodies/langevin_meshes.hpp"

namespace b = immerse::bodies;

namespace {
// Largest relative error of the six diagonal entries (entries where the reference is ~0 skipped).
double diagonal_error(const b::Matrix6d& ours, const b::Matrix6d& ref) {
  double err = 0;
  for (int k = 0; k < 6; ++k)
    if (ref(k, k) > 1e-9 * ref.diagonal().maxCoeff()) err = std::max(err, std::abs(ours(k, k) / ref(k, k) - 1));
  return err;
}
double off_diagonal(const b::Matrix6d& m) {
  b::Matrix6d o = m;
  o.diagonal().setZero();
  return o.cwiseAbs().maxCoeff();
}
}  // namespace

// Lamb's quadrature (the reference itself) against closed forms: the sphere's alpha0 = 2/3 gives
// exactly 1/2 rho V; the prolate spheroid's alpha0 = 2 (1 - e^2)/e^3 (atanh e - e) (Lamb sec. 373).
// Simpson on 20000 intervals of a smooth integrand: 1e-8 relative is far above its error.
TEST(LangevinAddedMass, LambReferenceMatchesClosedForms) {
  const double rho = 1000, V = 4.0 / 3.0 * M_PI;
  const b::Matrix6d s = b::lamb_ellipsoid_added_mass(1, 1, 1, rho);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(s(k, k), 0.5 * rho * V, 1e-8 * rho * V);
  for (int k = 3; k < 6; ++k) EXPECT_EQ(s(k, k), 0.0);
  const double a = 4, c = 1, e = std::sqrt(1 - c * c / (a * a));
  const double alpha0 = 2 * (1 - e * e) / (e * e * e) * (std::atanh(e) - e);
  const b::Matrix6d p = b::lamb_ellipsoid_added_mass(a, c, c, rho);
  EXPECT_NEAR(p(0, 0) / (rho * V * a * c * c), alpha0 / (2 - alpha0), 1e-8);
}

// Sphere: 1/2 rho V on the translational diagonal and nothing else (no rotational added mass, no
// coupling). The flat-faceted mesh and centroid collocation give an O(h)-ish error: measured +3.7%
// at 320 faces and +2.7% at 1280, so 5% and 3.5%, and the error must shrink with refinement.
// Off-diagonals vanish by the icosphere's symmetry up to rounding (1e-3 of the diagonal is loose).
TEST(LangevinAddedMass, SphereIsHalfTheDisplacedMassAndConverges) {
  const double rho = 1.2, R = 0.5, V = 4.0 / 3.0 * M_PI * R * R * R;
  double prev = 1;
  for (auto [sub, tol] : {std::pair{2, 0.05}, std::pair{3, 0.035}}) {
    const auto r = b::langevin_added_mass(b::make_icosphere(R, sub), {rho});
    double err = 0;
    for (int k = 0; k < 3; ++k) err = std::max(err, std::abs(r.matrix(k, k) / (0.5 * rho * V) - 1));
    EXPECT_LT(err, tol) << r.faces << " faces";
    EXPECT_LT(err, prev) << "no convergence at " << r.faces << " faces";
    prev = err;
    EXPECT_LT((r.matrix.bottomRightCorner<3, 3>().cwiseAbs().maxCoeff()), 1e-3 * 0.5 * rho * V);
    EXPECT_LT(off_diagonal(r.matrix), 1e-3 * 0.5 * rho * V);
  }
}

// Prolate spheroid 4 x 1 x 1 and the paper's rubber ellipsoid 1 x 2 x 4 against Lamb: every
// diagonal entry (translations, the rotations about the transverse axes, zero about the symmetry
// axis) within 5% at 320 faces and 3.5% at 1280 (measured 3.9% and 2.7%), error shrinking.
TEST(LangevinAddedMass, EllipsoidsMatchLambAndConverge) {
  for (auto abc : {std::array<double, 3>{4, 1, 1}, std::array<double, 3>{1, 2, 4}}) {
    const b::Matrix6d ref = b::lamb_ellipsoid_added_mass(abc[0], abc[1], abc[2], 1000);
    double prev = 1;
    for (auto [sub, tol] : {std::pair{2, 0.05}, std::pair{3, 0.035}}) {
      const auto r = b::langevin_added_mass(b::make_ellipsoid(abc[0], abc[1], abc[2], sub), {1000});
      const double err = diagonal_error(r.matrix, ref);
      EXPECT_LT(err, tol) << abc[0] << "x" << abc[1] << "x" << abc[2] << " at " << r.faces << " faces";
      EXPECT_LT(err, prev);
      prev = err;
      // No translation-rotation coupling for a centred ellipsoid (three symmetry planes).
      EXPECT_LT(off_diagonal(r.matrix), 2e-3 * ref.diagonal().maxCoeff());
    }
    if (abc[1] == abc[2]) {  // axisymmetric: no fluid moves when it spins about its axis
      const auto r = b::langevin_added_mass(b::make_ellipsoid(abc[0], abc[1], abc[2], 2), {1000});
      EXPECT_LT(r.matrix(3, 3), 1e-3 * ref(4, 4));
    }
  }
}

// The iterative solve (BiCGSTAB on the six right-hand sides in lockstep, relative residual 1e-12)
// against an independent direct solve of the same collocation system (Eigen's partial-pivoting LU),
// on the 1 x 2 x 4 ellipsoid at 320 faces: the system is well conditioned (second kind), so a
// 1e-12 residual leaves the matrix within 1e-9 of the exact solve's (1000x margin over rounding
// and the residual), and it converges well inside the 40-iteration cap (no LU fallback).
TEST(LangevinAddedMass, IterativeSolveMatchesDirectLU) {
  const b::TriMesh mesh = b::make_ellipsoid(1, 2, 4, 2);
  b::AddedMassOptions it, lu;
  it.fluid_density = lu.fluid_density = 1000;
  lu.iterative = false;
  const auto a = b::langevin_added_mass(mesh, it), d = b::langevin_added_mass(mesh, lu);
  EXPECT_GT(a.iterations, 0);
  EXPECT_LT(a.iterations, 40);
  EXPECT_EQ(d.iterations, 0);
  EXPECT_LT(d.bc_residual, 1e-12);
  EXPECT_LT((a.matrix - d.matrix).cwiseAbs().maxCoeff(), 1e-9 * d.matrix.cwiseAbs().maxCoeff());
}

// The paper's leaf, a 4 x 1 cm elliptic plate 0.01 cm thick, moving normal to itself: the elliptic
// disc's exact added mass (4/3) pi rho a b^2 / E(e) (Lamb sec. 373, thickness -> 0). Measured
// +7.2% at 256 faces and +4.4% at 1024 (plus the finite thickness, O(t/b) = 1%): 9% and 6%.
TEST(LangevinAddedMass, ThinEllipticPlateMatchesTheEllipticDisc) {
  const double a = 4, bb = 1, t = 0.01, e = std::sqrt(1 - bb * bb / (a * a));
  const double exact = 4.0 / 3.0 * M_PI * a * bb * bb / std::comp_ellint_2(e);
  double prev = 1;
  for (auto [rings, tol] : {std::pair{4, 0.09}, std::pair{8, 0.06}}) {
    const b::TriMesh plate = b::langevin_elliptic_plate(a, bb, t, 4 * rings, rings);
    b::check_closed(plate, "plate");
    b::AddedMassOptions opt;
    opt.thickness = t;
    const auto r = b::langevin_added_mass(plate, opt);
    const double err = std::abs(r.matrix(2, 2) / exact - 1);
    EXPECT_LT(err, tol) << r.faces << " faces";
    EXPECT_LT(err, prev);
    prev = err;
    // In-plane motion moves almost no fluid: below 2% of the normal entry.
    EXPECT_LT(r.matrix(0, 0), 0.02 * r.matrix(2, 2));
  }
}

// The paper's offset point sources fail on thin sheets (the offset 0.2 t is 1/16 of a panel): kept
// as the documented reason the panel model is the default. Under 10% of the exact value.
TEST(LangevinAddedMass, PaperPointSourcesFailOnThinSheets) {
  const double a = 4, bb = 1, t = 0.01, e = std::sqrt(1 - bb * bb / (a * a));
  const double exact = 4.0 / 3.0 * M_PI * a * bb * bb / std::comp_ellint_2(e);
  b::AddedMassOptions opt;
  opt.thickness = t;
  opt.model = b::SourceModel::point_sources;
  const auto r = b::langevin_added_mass(b::langevin_elliptic_plate(a, bb, t, 16, 4), opt);
  EXPECT_LT(r.matrix(2, 2), 0.1 * exact);
}

// Symmetry: exact after symmetrisation; before it, the energy quadrature of an asymmetric folded
// body (the paper airplane, 304 faces, sharp folds) is symmetric to 10% (measured 5.9%; Green's reciprocity holds for
// the exact potentials; the collocation breaks it only at the discretisation level). Positive definite: the kinetic
// energy of every motion is positive.
TEST(LangevinAddedMass, MatrixIsSymmetricPositiveDefinite) {
  const b::TriMesh plane = b::langevin_paper_airplane(8.3, 0.02);
  b::check_closed(plane, "airplane");
  b::AddedMassOptions opt;
  opt.thickness = 0.02;
  const auto r = b::langevin_added_mass(plane, opt);
  EXPECT_EQ((r.matrix - r.matrix.transpose()).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LT(r.raw_asymmetry, 0.1);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<b::Matrix6d>(r.matrix).eigenvalues().minCoeff(), 0.0);
}

TEST(LangevinMeshes, FaceCountsAndClosure) {
  EXPECT_EQ(b::langevin_elliptic_plate(4, 1, 0.01).face_count(), 1024);
  EXPECT_EQ(b::langevin_paper_airplane(8.3, 0.02).face_count(), 304);
  const b::TriMesh plate = b::langevin_elliptic_plate(4, 1, 0.01);
  b::check_closed(plate, "plate");
  // Volume of the thickened disc: pi a b t (to the polygon's area, 32 sectors: sin(2pi/32)/(2pi/32)).
  const double poly = std::sin(2 * M_PI / 32) / (2 * M_PI / 32);
  EXPECT_NEAR(b::mass_properties(plate).volume, M_PI * 4 * 1 * 0.01 * poly, 1e-9);
}
