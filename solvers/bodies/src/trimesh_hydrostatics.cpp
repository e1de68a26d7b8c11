// Hydrostatics of a closed triangle mesh from its geometry alone: the volume below a horizontal
// plane and the plane that displaces a given volume. A code path of its own (the floating bodies'
// buoyancy integrates pressure per wetted triangle in coupling/float_forces.cpp), so the drafts the
// floating cases are checked against do not come from the code under test.
#include <Eigen/Dense>
#include <algorithm>
#include <vector>

#include "immerse/bodies/trimesh.hpp"

namespace immerse::bodies {

double submerged_volume(const TriMesh& mesh, double level) {
  // Divergence theorem with F = (0, 0, z - level): the solid below the plane has volume
  // sum over the hull's wet part of (z - level) n_z dA; the waterplane itself adds nothing (F = 0).
  double volume = 0;
  for (const auto& f : mesh.faces) {
    // Clip the triangle to z <= level (one plane of Sutherland-Hodgman): at most a quadrilateral.
    std::vector<Eigen::Vector3d> poly;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d& p = mesh.vertices[f[k]];
      const Eigen::Vector3d& q = mesh.vertices[f[(k + 1) % 3]];
      const bool p_in = p.z() <= level, q_in = q.z() <= level;
      if (p_in) poly.push_back(p);
      if (p_in != q_in) poly.push_back(p + (q - p) * ((level - p.z()) / (q.z() - p.z())));
    }
    for (size_t k = 1; k + 1 < poly.size(); ++k) {
      const Eigen::Vector3d& a = poly[0];
      const Eigen::Vector3d& b = poly[k];
      const Eigen::Vector3d& c = poly[k + 1];
      const double area_z = 0.5 * (b - a).cross(c - a).z();  // outward area vector's z component
      volume += ((a.z() + b.z() + c.z()) / 3 - level) * area_z;
    }
  }
  return volume;
}

double level_displacing(const TriMesh& mesh, double volume) {
  const Eigen::AlignedBox3d box = mesh.bounds();
  double lo = box.min().z(), hi = box.max().z();
  for (int it = 0; it < 200 && hi - lo > 1e-14 * std::max(1.0, std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (submerged_volume(mesh, mid) < volume ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace immerse::bodies
