// Added mass by boundary elements against analytic potential flow: the sphere (1/2 rho V, no
// rotational part), Lamb's ellipsoid coefficients (prolate spheroid and the paper's 1 x 2 x 4
// ellipsoid) with the observed convergence order and the Richardson extrapolation, the elliptic
// disc; symmetry. The first-order source panels kept as the counterexample.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/bodies/langevin_meshes.hpp"
#include "immerse/bodies/mesh_mirrors.hpp"
#include "immerse/core/error.hpp"

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
// coupling), by the default green model on the mesh alone. Its error is the flat faces' (about 0.6
// of the inscribed mesh's volume deficit, 3.4% and 0.86%): measured -1.9% at 320 faces and -0.36%
// at 1280, so 2.5% and 0.5%. Off-diagonals vanish by the icosphere's symmetry up to rounding.
TEST(LangevinAddedMass, SphereIsHalfTheDisplacedMassAndConverges) {
  const double rho = 1.2, R = 0.5, V = 4.0 / 3.0 * M_PI * R * R * R;
  double prev = 1;
  for (auto [sub, tol] : {std::pair{2, 0.025}, std::pair{3, 0.005}}) {
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

// The prolate spheroid 4 x 1 x 1 and the paper's rubber ellipsoid 1 x 2 x 4 against Lamb (every
// diagonal entry: translations, the rotations about the transverse axes, zero about the symmetry
// axis). The green model converges at second order: measured errors 4.96% / 1.36% (4x1x1) and
// 5.14% / 1.41% (1x2x4) at 320 / 1280 faces, observed order log2(ratio) 1.87 and 1.86; an order
// above 1.6 fails for a first-order method (source panels: 0.6). Richardson from 320 to 1280 faces
// (what the cases use) leaves 0.17% and 0.30% (the point-form far field's residual): within 0.4%,
// the target 0.5% less a margin, the same check the sphere (0.16%) meets.
TEST(LangevinAddedMass, GreenConvergesAtSecondOrderAndExtrapolatesToLamb) {
  for (auto abc : {std::array<double, 3>{1, 1, 1}, std::array<double, 3>{4, 1, 1}, std::array<double, 3>{1, 2, 4}}) {
    const b::Matrix6d ref = b::lamb_ellipsoid_added_mass(abc[0], abc[1], abc[2], 1000);
    const auto coarse = b::langevin_added_mass(b::make_ellipsoid(abc[0], abc[1], abc[2], 2), {1000});
    const auto fine = b::langevin_added_mass(b::make_ellipsoid(abc[0], abc[1], abc[2], 3), {1000});
    const double e_coarse = diagonal_error(coarse.matrix, ref), e_fine = diagonal_error(fine.matrix, ref);
    const std::string name = fmt::format("{}x{}x{}", abc[0], abc[1], abc[2]);
    EXPECT_GT(std::log2(e_coarse / e_fine), 1.6) << name << ": " << e_coarse << " -> " << e_fine;
    const b::Matrix6d extrapolated = b::richardson_extrapolate(fine.matrix, coarse.matrix, 4.0);
    EXPECT_LT(diagonal_error(extrapolated, ref), 0.004) << name;
    // No translation-rotation coupling for a centred ellipsoid (three symmetry planes).
    EXPECT_LT(off_diagonal(extrapolated), 2e-3 * ref.diagonal().maxCoeff()) << name;
    if (abc[1] == abc[2] && abc[0] != abc[1])  // axisymmetric: no fluid moves when it spins about its axis
      EXPECT_LT(extrapolated(3, 3), 1e-3 * ref(4, 4)) << name;
  }
}

// The library's Richardson entry point is the extrapolation of its own two solves, and it refuses
// a model whose order is not two.
TEST(LangevinAddedMass, RichardsonNeedsGreenAndACoarserMesh) {
  const b::TriMesh fine = b::make_ellipsoid(1, 2, 4, 2), coarse = b::make_ellipsoid(1, 2, 4, 1);
  const auto r = b::langevin_added_mass_richardson(fine, coarse, {1000});
  const b::Matrix6d expect = b::richardson_extrapolate(b::langevin_added_mass(fine, {1000}).matrix,
                                                       b::langevin_added_mass(coarse, {1000}).matrix, 4.0);
  EXPECT_LT((r.matrix - expect).cwiseAbs().maxCoeff(), 1e-12 * expect.cwiseAbs().maxCoeff());
  b::AddedMassOptions panels;
  panels.model = b::SourceModel::panels;
  EXPECT_THROW(b::langevin_added_mass_richardson(fine, coarse, panels), immerse::InputError);
  EXPECT_THROW(b::langevin_added_mass_richardson(coarse, fine, {1000}), immerse::InputError);
}

// Counterexample: the earlier first-order method (uniform source panels) fails the 0.4% check at
// 1280 faces on the 1 x 2 x 4 ellipsoid (measured 2.6%: a flat face's self-influence misses the
// curved surface's pi r kappa sigma), and its error shrinks at under first order from 320 faces
// (3.7% -> 2.6%, order 0.54).
TEST(LangevinAddedMass, SourcePanelsFailTheSecondOrderChecks) {
  const b::Matrix6d ref = b::lamb_ellipsoid_added_mass(1, 2, 4, 1000);
  b::AddedMassOptions opt;
  opt.fluid_density = 1000;
  opt.model = b::SourceModel::panels;
  const double e_coarse = diagonal_error(b::langevin_added_mass(b::make_ellipsoid(1, 2, 4, 2), opt).matrix, ref);
  const double e_fine = diagonal_error(b::langevin_added_mass(b::make_ellipsoid(1, 2, 4, 3), opt).matrix, ref);
  EXPECT_GT(e_fine, 0.004);
  EXPECT_LT(std::log2(e_coarse / e_fine), 1.6);
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
  it.use_mirrors = lu.use_mirrors = false;  // the whole system (the mirror blocks are always LU)
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
// (green) +7.0% at 256 faces and +3.8% at 1024 (source panels: +6.9%, +3.7%; the rim's edge
// singularity, not the curvature, sets the error, so both are first order here; plus the finite
// thickness, O(t/b) = 1%): 9% and 6%.
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
// body (the paper airplane, 304 faces, sharp folds) is symmetric to 5% (measured 3.0% with green,
// 5.9% with source panels; Green's reciprocity holds for the exact potentials; the collocation breaks
// it only at the discretisation level). Positive definite: the kinetic energy of every motion is positive.
TEST(LangevinAddedMass, MatrixIsSymmetricPositiveDefinite) {
  const b::TriMesh plane = b::langevin_paper_airplane(8.3, 0.02);
  b::check_closed(plane, "airplane");
  b::AddedMassOptions opt;
  opt.thickness = 0.02;
  const auto r = b::langevin_added_mass(plane, opt);
  EXPECT_EQ((r.matrix - r.matrix.transpose()).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LT(r.raw_asymmetry, 0.05);
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

// The mirror symmetries each canned body's mesh keeps about its centroid (mesh_mirrors): the
// icosphere ellipsoid all eight sign flips; the thickened plate its two in-plane mirrors and the
// half turn (the rim's diagonals break the mid-plane); the airplane its span mirror. One vertex
// moved by 5e-7 of the size (500 times the matching tolerance) breaks every mirror that moves it
// elsewhere; a face given twice, all.
TEST(LangevinMeshes, MirrorSymmetriesOfTheCannedBodies) {
  auto order = [](const b::TriMesh& m) { return b::mesh_mirrors(m, b::mass_properties(m).centroid).order(); };
  EXPECT_EQ(order(b::make_ellipsoid(1, 2, 4, 2)), 8);
  const b::TriMesh plate = b::langevin_elliptic_plate(4, 1, 0.01);
  const b::MeshMirrors pm = b::mesh_mirrors(plate, b::mass_properties(plate).centroid);
  EXPECT_EQ(pm.flips, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(order(b::langevin_paper_airplane(8.3, 0.02)), 2);
  b::TriMesh bent = plate;
  bent.vertices[5].x() += 4e-6;
  EXPECT_EQ(b::mesh_mirrors(bent, Eigen::Vector3d::Zero()).order(), 1);
  // A face given twice: no element maps the faces one to one.
  b::TriMesh doubled = b::make_ellipsoid(1, 2, 4, 1);
  doubled.faces.push_back(doubled.faces[7]);
  EXPECT_EQ(b::mesh_mirrors(doubled, Eigen::Vector3d::Zero()).order(), 1);
}

// The block solve by mirror classes against the whole system, every model, on the three symmetric
// canned bodies: the same matrix to 1e-9 of its largest entry (both are exact solves of the same
// equations; the blocks only sum the symmetric images' columns): measured at most 4e-14.
TEST(LangevinAddedMass, MirrorBlocksMatchTheWholeSystem) {
  struct Body {
    const char* name;
    b::TriMesh mesh;
    double thickness;
  };
  const Body bodies[] = {{"ellipsoid", b::make_ellipsoid(1, 2, 4, 2), 0},
                         {"plate", b::langevin_elliptic_plate(4, 1, 0.01, 16, 4), 0.01},
                         {"airplane", b::langevin_paper_airplane(8.3, 0.02), 0.02}};
  for (const Body& body : bodies)
    for (b::SourceModel model : {b::SourceModel::green, b::SourceModel::panels, b::SourceModel::point_sources}) {
      b::AddedMassOptions opt;
      opt.fluid_density = 1000;
      opt.thickness = body.thickness;
      opt.model = model;
      opt.iterative = false;
      const auto blocks = b::langevin_added_mass(body.mesh, opt);
      opt.use_mirrors = false;
      const auto whole = b::langevin_added_mass(body.mesh, opt);
      const std::string what = fmt::format("{} {}", body.name, b::source_model_choices().name(model));
      EXPECT_GT(blocks.mirror_order, 1) << what;
      EXPECT_EQ(whole.mirror_order, 1) << what;
      EXPECT_LT((blocks.matrix - whole.matrix).cwiseAbs().maxCoeff(), 1e-12 * whole.matrix.cwiseAbs().maxCoeff())
          << what;
      EXPECT_LT(blocks.bc_residual, 1e-10) << what;
    }
}
