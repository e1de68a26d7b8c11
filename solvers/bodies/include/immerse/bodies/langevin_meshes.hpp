#pragma once
// The Langevin-rigid paper's bodies as closed triangle meshes (cm or any unit, axes = body axes):
// thin bodies are an open mid-surface thickened into a closed shell (top, bottom, rim), so the
// added-mass panel method and the mass properties see a closed body with the sheet's thickness.
#include <optional>

#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/choices.hpp"

namespace immerse::bodies {

// Closes an open, consistently oriented surface into a shell of the given thickness: vertices moved
// +-thickness/2 along the area-weighted vertex normals, the bottom faces reversed, each boundary edge
// closed by a quad. Faces: 2 F + 2 (boundary edges). The quads, like the generators' grids below,
// are split so that the mesh keeps the mirror symmetries of its vertices about the coordinate
// planes (the added mass solves a symmetric mesh in blocks); no rim of two triangles per quad is
// symmetric top to bottom, so a shell never keeps the mid-plane's mirror.
// Throws InputError on non-manifold input.
TriMesh langevin_thicken(const TriMesh& surface, double thickness);

// Elliptic plate in the x-y plane: semi-axes a (x) and b (y), polar grid of `sectors` x `rings`,
// thickness t along z. Faces: 4 sectors rings (32 x 8 -> 1024, the paper's leaf).
TriMesh langevin_elliptic_plate(double a, double b, double thickness, int sectors = 32, int rings = 8);

// A dart paper airplane folded from a square sheet of side `sheet` (cm): the sheet folded along its
// diagonal gives a triangle of chord `sheet` (nose at +x) and span `sheet` at the trailing edge; the
// middle fifth of the span is folded down into a V keel of depth keel_depth at the trailing edge
// (keel_depth x sheet; zero at the nose); the wings rise at `dihedral_deg`. chord_cells x span_cells (span even) grid;
// 6 x 10 -> 304 faces (the paper: 288).
TriMesh langevin_paper_airplane(double sheet, double thickness, int chord_cells = 6, int span_cells = 10,
                                double keel_depth = 0.1, double dihedral_deg = 10.0);

// The paper's shapes: ellipsoid (semi-axes a, b, c; faces 80/320/1280/5120), sphere (radius a),
// elliptic_plate (semi-axes a, b, thickness), paper_airplane (sheet side a, thickness).
enum class LangevinShape { ellipsoid, sphere, elliptic_plate, paper_airplane };
inline const Choices<LangevinShape>& langevin_shape_choices() {
  static const Choices<LangevinShape> c = {{"ellipsoid", LangevinShape::ellipsoid},
                                           {"sphere", LangevinShape::sphere},
                                           {"elliptic_plate", LangevinShape::elliptic_plate},
                                           {"paper_airplane", LangevinShape::paper_airplane}};
  return c;
}
inline bool is_thin(LangevinShape s) {
  return s == LangevinShape::elliptic_plate || s == LangevinShape::paper_airplane;
}

// faces picks the resolution where a shape allows (approximate for thin bodies).
TriMesh langevin_body_mesh(LangevinShape shape, double a, double b, double c, double thickness, int faces);

// The same ellipsoid or sphere with one icosahedron subdivision fewer (faces / 4, vertices on the
// surface), for Richardson extrapolation of the added mass in the face count; nullopt for the
// other shapes (no smooth nested family) and at 20 faces.
std::optional<TriMesh> langevin_coarser_mesh(LangevinShape shape, double a, double b, double c, int faces);

}  // namespace immerse::bodies
