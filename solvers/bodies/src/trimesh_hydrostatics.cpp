// Hydrostatics of a closed triangle mesh from its geometry alone: the volume below a horizontal
// plane, its centroid (the centre of buoyancy), and the plane that displaces a given volume. A
// code path of its own (the floating bodies' buoyancy integrates pressure per wetted triangle in
// coupling/float_forces.cpp), so the references the floating cases are checked against do not come
// from the code under test.
#include <Eigen/Dense>
#include <algorithm>
#include <vector>

#include "immerse/bodies/trimesh.hpp"

namespace immerse::bodies {

SubmergedPart submerged_part(const TriMesh& mesh, double level) {
  // Divergence theorem on the solid below the plane, with fields that vanish on the plane (so the
  // waterplane adds nothing), f = z - level: V = sum f n_z dA; int x dV = sum f x n_z dA (likewise y);
  // int f dV = sum f^2 / 2 n_z dA. Over a flat triangle, int g h dA = A/12 (sum g_i h_i + sum g sum h)
  // for linear g, h, and n_z A is the z component of its area vector.
  double volume = 0, mx = 0, my = 0, mf = 0;
  for (const auto& face : mesh.faces) {
    // Clip the triangle to z <= level (one plane of Sutherland-Hodgman): at most a quadrilateral.
    std::vector<Eigen::Vector3d> poly;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d& p = mesh.vertices[face[k]];
      const Eigen::Vector3d& q = mesh.vertices[face[(k + 1) % 3]];
      const bool p_in = p.z() <= level, q_in = q.z() <= level;
      if (p_in) poly.push_back(p);
      if (p_in != q_in) poly.push_back(p + (q - p) * ((level - p.z()) / (q.z() - p.z())));
    }
    for (size_t k = 1; k + 1 < poly.size(); ++k) {
      const Eigen::Vector3d* v[3] = {&poly[0], &poly[k], &poly[k + 1]};
      const double area_z = 0.5 * (*v[1] - *v[0]).cross(*v[2] - *v[0]).z();
      double f[3], sf = 0, sx = 0, sy = 0, fx = 0, fy = 0, ff = 0;
      for (int i = 0; i < 3; ++i) {
        f[i] = v[i]->z() - level;
        sf += f[i];
        sx += v[i]->x();
        sy += v[i]->y();
        fx += f[i] * v[i]->x();
        fy += f[i] * v[i]->y();
        ff += f[i] * f[i];
      }
      volume += area_z * sf / 3;
      mx += area_z * (fx + sf * sx) / 12;
      my += area_z * (fy + sf * sy) / 12;
      mf += area_z * (ff + sf * sf) / 24;
    }
  }
  SubmergedPart out;
  out.volume = volume;
  if (volume > 0) out.centroid = {mx / volume, my / volume, level + mf / volume};
  return out;
}

double submerged_volume(const TriMesh& mesh, double level) { return submerged_part(mesh, level).volume; }

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
