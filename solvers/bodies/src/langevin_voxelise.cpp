#include "immerse/bodies/langevin_voxelise.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::bodies {

std::vector<uint8_t> langevin_voxelise(const TriMesh& mesh, int nx, int ny, int nz, double h,
                                       const Eigen::Vector3d& o) {
  std::vector<uint8_t> solid(size_t(nx) * ny * nz, 0);
  auto mark = [&](const Eigen::Vector3d& p) {
    const int i = int(std::floor((p.x() - o.x()) / h)), j = int(std::floor((p.y() - o.y()) / h)),
              k = int(std::floor((p.z() - o.z()) / h));
    if (i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz) solid[i + size_t(nx) * (j + size_t(ny) * k)] = 1;
  };
  // Interior: a ray along +x from each row's start; crossings sorted, cells between pairs are inside.
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j) {
      const double y = o.y() + (j + 0.5) * h, z = o.z() + (k + 0.5) * h;
      std::vector<double> xs;
      for (const auto& f : mesh.faces) {
        const Eigen::Vector3d &a = mesh.vertices[f[0]], &b = mesh.vertices[f[1]], &c = mesh.vertices[f[2]];
        // barycentric coordinates of (y, z) in the face's y-z projection
        const double d = (b.y() - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (b.z() - a.z());
        if (std::abs(d) < 1e-300) continue;
        const double s = ((y - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (z - a.z())) / d;
        const double t = ((b.y() - a.y()) * (z - a.z()) - (y - a.y()) * (b.z() - a.z())) / d;
        if (s < 0 || t < 0 || s + t > 1) continue;
        xs.push_back(a.x() + s * (b.x() - a.x()) + t * (c.x() - a.x()));
      }
      std::sort(xs.begin(), xs.end());
      for (size_t q = 0; q + 1 < xs.size(); q += 2)
        for (int i = 0; i < nx; ++i) {
          const double x = o.x() + (i + 0.5) * h;
          if (x > xs[q] && x < xs[q + 1]) solid[i + size_t(nx) * (j + size_t(ny) * k)] = 1;
        }
    }
  // Surface: sample each face finely enough to touch every cell it crosses.
  for (const auto& f : mesh.faces) {
    const Eigen::Vector3d &a = mesh.vertices[f[0]], &b = mesh.vertices[f[1]], &c = mesh.vertices[f[2]];
    const double len = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const int n = std::max(1, int(std::ceil(4 * len / h)));
    for (int p = 0; p <= n; ++p)
      for (int q = 0; q <= n - p; ++q) mark(a + (b - a) * (double(p) / n) + (c - a) * (double(q) / n));
  }
  return solid;
}

}  // namespace immerse::bodies
