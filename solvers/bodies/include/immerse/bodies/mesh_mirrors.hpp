#pragma once
// The symmetries of a triangle mesh among the sign flips of the coordinates about a centre: the
// three mirror planes x = cx, y = cy, z = cz, the half turns about the three axes and the
// inversion (the group (Z2)^3 acting on the mesh's own axes). An element is kept only if it maps
// every vertex onto a vertex (to rel_tol of the mesh's size) and every face onto a face: a
// triangulation that is not itself symmetric breaks the symmetry of the shape it approximates.
// Used by the added mass, which splits its boundary-element system into one block per
// symmetry class of the six rigid motions.
#include <vector>

#include "immerse/bodies/trimesh.hpp"

namespace immerse::bodies {

struct MeshMirrors {
  // Element g flips the coordinates whose bits are set in flips[g] (bit a: axis a); flips[0] = 0.
  std::vector<int> flips;
  // face_image[g][i]: the face element g maps face i onto.
  std::vector<std::vector<int>> face_image;
  int order() const { return int(flips.size()); }
};

MeshMirrors mesh_mirrors(const TriMesh& mesh, const Eigen::Vector3d& centre, double rel_tol = 1e-9);

// The sign a flip element gives a rigid motion's normal velocity n.(v + omega x p) at mapped
// points: motion 0-2 translation along x, y, z (a vector), 3-5 rotation about x, y, z (a
// pseudovector: the determinant's sign times the vector's).
inline int mirror_sign(int flips, int motion) {
  const int axis = motion % 3;
  const int vector_sign = (flips >> axis) & 1 ? -1 : 1;
  if (motion < 3) return vector_sign;
  const int det = ((flips & 1) + ((flips >> 1) & 1) + ((flips >> 2) & 1)) % 2 ? -1 : 1;
  return det * vector_sign;
}

}  // namespace immerse::bodies
