#pragma once
// Added-mass (Kirchhoff) tensor of a rigid body in unbounded ideal fluid at rest at infinity, by a
// boundary-element method on the body's flat faces (the Langevin-rigid paper, sec. 3.2.1, and
// Weissmann & Pinkall 2012): the normal velocity of the six unit rigid motions, dphi/dn =
// n.(v + omega x p), imposed at the face centres; the 6x6 matrix from the fluid's kinetic energy
// T = -rho/2 * sum_faces phi dphi/dn A (n outward from the body). A mesh with mirror symmetries
// about its centroid (mesh_mirrors.hpp: the canned ellipsoids, plate and airplane) is solved in
// one dense block per symmetry class of the six motions, over the faces' orbits; any other mesh
// as a whole, the six right-hand sides together (BiCGSTAB run on the six columns in lockstep, one
// pass over the dense matrix per product for all six; dense LU for thin sheets, where it does not
// converge in 40 iterations).
// Three discretisations:
//  - green (default): Green's third identity for the potential itself, constant on each face
//    (the "direct" method of Hess-Smith's successors, e.g. WAMIT's low order). Its discrete double
//    layer keeps Gauss's identity exactly (the faces' solid angles seen from a centre sum to -2 pi
//    on any closed mesh), and it converges at second order in the face size: the error is the flat
//    faces' own (about 0.6 of the inscribed mesh's volume deficit for the sphere's translation).
//  - panels: a uniform source density on each flat face (Hess & Smith 1964). First order: a flat
//    face's self-influence misses the curved surface's pi r kappa sigma (r the face's radius,
//    kappa the curvature), relative error ~ r kappa / 2 (2.8% at 1280 faces on the unit sphere;
//    measured about 3%).
//  - point_sources: the paper's, a point source per face offset inside the surface. Accurate for
//    thick bodies; for thin sheets the offset (0.2 x thickness) is far below the panel size and the
//    field between collocation points is wrong (the 4 x 1 cm plate: 0.3% of the analytic normal
//    added mass), so it is kept for comparison only.
// Panels and green use the exact flat-triangle integrals (solid angle + edge logarithms) near a face.
#include <optional>

#include "immerse/bodies/eigen.hpp"

#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/choices.hpp"

namespace immerse::bodies {

using Matrix6d = Eigen::Matrix<double, 6, 6>;

enum class SourceModel { green, panels, point_sources };
inline const Choices<SourceModel>& source_model_choices() {
  static const Choices<SourceModel> c = {
      {"green", SourceModel::green}, {"panels", SourceModel::panels}, {"point_sources", SourceModel::point_sources}};
  return c;
}

struct AddedMassOptions {
  double fluid_density = 1.0;
  SourceModel model = SourceModel::green;
  // point_sources only: source depth below face i: offset_factor * sqrt(area_i), capped at thin_offset * thickness for
  // thin bodies (thickness > 0), as the paper prescribes 0.2 x thickness there.
  double offset_factor = 1.0;
  double thickness = 0.0;
  double thin_offset = 0.2;
  // panels and green: exact integrals within far_ratio panel diameters, the centroid point form beyond.
  double far_ratio = 2.0;
  // BiCGSTAB (relative residual 1e-12) instead of a dense LU: same matrix to ~1e-10, O(n^2) not O(n^3).
  bool iterative = true;
  // Added mass about this point (body frame origin); the mesh centroid when not given.
  bool about_centroid = true;
  // Split the system by the mesh's mirror symmetries about that point (mesh_mirrors.hpp): one
  // dense system per symmetry class of the six motions, in the orbits' representatives, so a
  // mesh with |G| symmetry elements assembles |G| times fewer rows and factorises blocks |G|
  // times smaller (the ellipsoids: |G| = 8, the plate and the airplane: 4 and 2). The same
  // matrix as the whole system to rounding; false solves the whole system.
  bool use_mirrors = true;
};

struct AddedMassResult {
  Matrix6d matrix = Matrix6d::Zero();  // rows/cols: translation x, y, z, then rotation x, y, z
  double raw_asymmetry = 0;            // max |K - K^T| / max |K| of the energy quadrature before symmetrising
  double volume = 0;
  double bc_residual = 0;  // max normalised residual of the collocation solve
  double solve_ms = 0;     // assembly + factorisation + energy integral
  double assemble_ms = 0;  // of which the influence matrices
  int faces = 0;
  int iterations = 0;    // BiCGSTAB iterations (largest of the six); -1: it fell back to the LU
  int mirror_order = 1;  // the mirror symmetries the solve used (1: none, the whole system)
};

// Throws InputError for an empty mesh or non-positive density.
AddedMassResult langevin_added_mass(const TriMesh& mesh, const AddedMassOptions& opt = {});

// Richardson extrapolation in the face count for the green model (second order: error ~ h^2 ~
// 1/faces): K = (r K_fine - K_coarse) / (r - 1), r = faces_fine / faces_coarse.
inline Matrix6d richardson_extrapolate(const Matrix6d& fine, const Matrix6d& coarse, double face_ratio) {
  return (face_ratio * fine - coarse) / (face_ratio - 1);
}
// The two solves and the extrapolation. coarse: the same surface with fewer faces, vertices on it
// (the icosphere family: one subdivision fewer, r = 4). Times and iterations are the two solves'
// sum and maximum. Throws InputError for another model or a coarse mesh that is not coarser.
AddedMassResult langevin_added_mass_richardson(const TriMesh& fine, const TriMesh& coarse,
                                               const AddedMassOptions& opt = {});

// The added mass the cases use: Richardson-extrapolated with `coarse` when one is given and the
// model is green, else of `mesh` alone.
AddedMassResult langevin_added_mass(const TriMesh& mesh, const std::optional<TriMesh>& coarse,
                                    const AddedMassOptions& opt);

// Lamb's (Hydrodynamics, secs. 114-115) added mass of the ellipsoid with semi-axes a, b, c along
// x, y, z, about its centre: translation diag alpha0/(2 - alpha0) rho V, ...; rotation about x
// (1/5) rho V (b^2 - c^2)^2 (gamma0 - beta0) / (2 (b^2 - c^2) + (b^2 + c^2)(beta0 - gamma0)), ...
// alpha0 = abc int_0^inf dl / ((a^2 + l) Delta) by quadrature. An independent reference.
Matrix6d lamb_ellipsoid_added_mass(double a, double b, double c, double fluid_density);

}  // namespace immerse::bodies
