#include "immerse/bodies/mesh_mirrors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <unordered_map>

namespace immerse::bodies {
namespace {

// Vertices binned on a grid of cell `q`: a point's match is searched in its cell and the 26 around.
class VertexLookup {
 public:
  VertexLookup(const std::vector<Eigen::Vector3d>& v, double q) : v_(v), q_(q) {
    for (int i = 0; i < int(v.size()); ++i) bins_[key(cell(v[i]))].push_back(i);
  }
  // The point's own cell first (an image lands there unless it is within rounding of a cell's side).
  std::optional<int> find(const Eigen::Vector3d& p) const {
    const std::array<long long, 3> c = cell(p);
    if (const auto hit = in_cell(c, p)) return hit;
    for (long long dx = -1; dx <= 1; ++dx)
      for (long long dy = -1; dy <= 1; ++dy)
        for (long long dz = -1; dz <= 1; ++dz)
          if (dx || dy || dz)
            if (const auto hit = in_cell({c[0] + dx, c[1] + dy, c[2] + dz}, p)) return hit;
    return std::nullopt;
  }

 private:
  std::optional<int> in_cell(const std::array<long long, 3>& c, const Eigen::Vector3d& p) const {
    const auto it = bins_.find(key(c));
    if (it != bins_.end())
      for (int i : it->second)
        if ((v_[i] - p).cwiseAbs().maxCoeff() <= q_) return i;
    return std::nullopt;
  }
  std::array<long long, 3> cell(const Eigen::Vector3d& p) const {
    return {std::llround(std::floor(p.x() / q_)), std::llround(std::floor(p.y() / q_)),
            std::llround(std::floor(p.z() / q_))};
  }
  static unsigned long long key(const std::array<long long, 3>& c) {
    return (static_cast<unsigned long long>(c[0]) * 73856093ull) ^
           (static_cast<unsigned long long>(c[1]) * 19349663ull) ^
           (static_cast<unsigned long long>(c[2]) * 83492791ull);
  }
  const std::vector<Eigen::Vector3d>& v_;
  double q_;
  std::unordered_map<unsigned long long, std::vector<int>> bins_;
};

std::array<int, 3> sorted(std::array<int, 3> f) {
  std::sort(f.begin(), f.end());
  return f;
}

struct TripleHash {
  size_t operator()(const std::array<int, 3>& t) const {
    size_t h = 0;
    for (int v : t) h = h * 1000003u ^ std::hash<int>()(v);
    return h;
  }
};

}  // namespace

MeshMirrors mesh_mirrors(const TriMesh& mesh, const Eigen::Vector3d& centre, double rel_tol) {
  MeshMirrors m;
  const int nf = mesh.face_count();
  m.flips.push_back(0);
  m.face_image.emplace_back(nf);
  for (int i = 0; i < nf; ++i) m.face_image[0][i] = i;
  const double size = nf ? mesh.bounds().diagonal().norm() : 0.0;
  if (!(size > 0 && std::isfinite(size))) return m;  // no faces, or a vertex that is not finite
  const double q = std::max(rel_tol * size, 1e-300);
  const VertexLookup lookup(mesh.vertices, q);
  std::unordered_map<std::array<int, 3>, int, TripleHash> face_of;  // sorted vertex triple -> face
  for (int i = 0; i < nf; ++i) face_of[sorted(mesh.faces[i])] = i;
  for (int flips = 1; flips < 8; ++flips) {
    Eigen::Vector3d s;
    for (int a = 0; a < 3; ++a) s[a] = (flips >> a) & 1 ? -1.0 : 1.0;
    std::vector<int> vimage(mesh.vertex_count());
    bool ok = true;
    for (int v = 0; v < mesh.vertex_count() && ok; ++v) {
      const auto hit = lookup.find(centre + s.cwiseProduct(mesh.vertices[v] - centre));
      if (hit) vimage[v] = *hit;
      ok = bool(hit);
    }
    // A permutation of the faces: a face given twice (on the same vertices) would map two faces
    // onto one, and the element is then not used.
    std::vector<int> fimage(nf);
    std::vector<char> taken(nf, 0);
    for (int i = 0; i < nf && ok; ++i) {
      const auto& f = mesh.faces[i];
      const auto it = face_of.find(sorted({vimage[f[0]], vimage[f[1]], vimage[f[2]]}));
      ok = it != face_of.end() && !taken[it->second];
      if (ok) taken[fimage[i] = it->second] = 1;
    }
    if (!ok) continue;
    m.flips.push_back(flips);
    m.face_image.push_back(std::move(fimage));
  }
  return m;
}

}  // namespace immerse::bodies
