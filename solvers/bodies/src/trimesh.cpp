#include "immerse/bodies/trimesh.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "immerse/core/error.hpp"
#include "immerse/core/user_input.hpp"

namespace immerse::bodies {

Eigen::Vector3d TriMesh::face_area_vector(int f) const {
  const auto& t = faces[f];
  return (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
}
Eigen::Vector3d TriMesh::face_normal(int f) const { return face_area_vector(f).normalized(); }
double TriMesh::face_area(int f) const { return 0.5 * face_area_vector(f).norm(); }
Eigen::Vector3d TriMesh::face_centroid(int f) const {
  const auto& t = faces[f];
  return (vertices[t[0]] + vertices[t[1]] + vertices[t[2]]) / 3.0;
}
double TriMesh::surface_area() const {
  double a = 0;
  for (int f = 0; f < face_count(); ++f) a += face_area(f);
  return a;
}
Eigen::AlignedBox3d TriMesh::bounds() const {
  Eigen::AlignedBox3d box;
  for (const auto& v : vertices) box.extend(v);
  return box;
}
void TriMesh::translate(const Eigen::Vector3d& d) {
  for (auto& v : vertices) v += d;
}
void TriMesh::scale(const Eigen::Vector3d& s) {
  for (auto& v : vertices) v = v.cwiseProduct(s);
}
void TriMesh::transform(const Eigen::Matrix3d& rotation, const Eigen::Vector3d& translation) {
  for (auto& v : vertices) v = rotation * v + translation;
}

// Each face with the origin spans a signed tetrahedron; summing the tetrahedra's volume, first and
// second moments gives the solid's exactly (Tonon 2004's closed forms for a tetrahedron with one
// vertex at the origin).
MassProperties mass_properties(const TriMesh& mesh) {
  double volume = 0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();  // integral of x x^T over the solid
  for (const auto& t : mesh.faces) {
    const Eigen::Vector3d &a = mesh.vertices[t[0]], &b = mesh.vertices[t[1]], &c = mesh.vertices[t[2]];
    const double v = a.dot(b.cross(c)) / 6.0;
    volume += v;
    first += v * (a + b + c) / 4.0;
    // For a tetrahedron (0, a, b, c): integral x x^T = v/20 (sum_i p_i p_i^T + (sum p)(sum p)^T).
    const Eigen::Vector3d s = a + b + c;
    second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  MassProperties m;
  m.volume = volume;
  if (volume == 0) return m;
  m.centroid = first / volume;
  const Eigen::Matrix3d central = second - volume * m.centroid * m.centroid.transpose();
  m.inertia = central.trace() * Eigen::Matrix3d::Identity() - central;
  return m;
}

void check_closed(const TriMesh& mesh, const std::string& what) {
  if (mesh.faces.empty()) throw InputError(fmt::format("{}: the mesh has no faces", what));
  std::map<std::pair<int, int>, int> directed;  // directed edge -> count
  for (int f = 0; f < mesh.face_count(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int i = mesh.faces[f][k], j = mesh.faces[f][(k + 1) % 3];
      if (i < 0 || j < 0 || i >= mesh.vertex_count() || j >= mesh.vertex_count())
        throw InputError(fmt::format("{}: face {} refers to vertex {} of {}", what, f,
                                     i < 0 || i >= mesh.vertex_count() ? i : j, mesh.vertex_count()));
      ++directed[{i, j}];
    }
  for (const auto& [edge, count] : directed) {
    const auto twin = directed.find({edge.second, edge.first});
    if (count != 1 || twin == directed.end() || twin->second != 1)
      throw InputError(fmt::format(
          "{}: the mesh is not closed and consistently oriented at edge ({}, {}) (used {} times, reverse {} times)",
          what, edge.first, edge.second, count, twin == directed.end() ? 0 : twin->second));
  }
  const double volume = mass_properties(mesh).volume;
  if (!(volume > 0))
    throw InputError(fmt::format(
        "{}: enclosed volume {} is not positive (faces must be counter-clockwise seen from outside)", what, volume));
}

TriMesh make_icosphere(double radius, int subdivisions) {
  if (!(radius > 0) || subdivisions < 0 || subdivisions > 7)
    throw InputError(
        fmt::format("icosphere: radius {} must be > 0 and subdivisions {} in [0, 7]", radius, subdivisions));
  const double p = (1.0 + std::sqrt(5.0)) / 2.0;
  TriMesh m;
  m.vertices = {{-1, p, 0},  {1, p, 0},  {-1, -p, 0}, {1, -p, 0}, {0, -1, p},  {0, 1, p},
                {0, -1, -p}, {0, 1, -p}, {p, 0, -1},  {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
  m.faces = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
             {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
             {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (auto& v : m.vertices) v.normalize();
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<int, int>, int> midpoint;
    auto mid = [&](int i, int j) {
      const auto key = std::minmax(i, j);
      const auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      m.vertices.push_back((m.vertices[i] + m.vertices[j]).normalized());
      return midpoint[key] = m.vertex_count() - 1;
    };
    std::vector<std::array<int, 3>> next;
    next.reserve(4 * m.faces.size());
    for (const auto& t : m.faces) {
      const int a = mid(t[0], t[1]), b = mid(t[1], t[2]), c = mid(t[2], t[0]);
      next.push_back({t[0], a, c});
      next.push_back({t[1], b, a});
      next.push_back({t[2], c, b});
      next.push_back({a, b, c});
    }
    m.faces = std::move(next);
  }
  for (auto& v : m.vertices) v *= radius;
  return m;
}

TriMesh make_ellipsoid(double a, double b, double c, int subdivisions) {
  if (!(a > 0 && b > 0 && c > 0)) throw InputError(fmt::format("ellipsoid: semi-axes {}, {}, {} must be > 0", a, b, c));
  TriMesh m = make_icosphere(1.0, subdivisions);
  m.scale({a, b, c});
  return m;
}

TriMesh make_box(const Eigen::Vector3d& size, int n) {
  if (!(size.minCoeff() > 0) || n < 1) throw InputError(fmt::format("box: sizes must be > 0 and n {} >= 1", n));
  TriMesh m;
  // One face of the unit cube per (axis, side); grid points shared within a face only, then welded.
  std::map<std::array<long, 3>, int> index;
  auto vertex = [&](const Eigen::Vector3d& x) {
    const std::array<long, 3> key = {std::lround(x.x() * 2 * n), std::lround(x.y() * 2 * n),
                                     std::lround(x.z() * 2 * n)};
    const auto it = index.find(key);
    if (it != index.end()) return it->second;
    m.vertices.push_back(x);
    return index[key] = m.vertex_count() - 1;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side : {-1, 1}) {
      const int u = (axis + 1) % 3, w = (axis + 2) % 3;  // (u, w, axis) right-handed
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          auto point = [&](int di, int dj) {
            Eigen::Vector3d x;
            x[axis] = 0.5 * side;
            x[u] = -0.5 + double(i + di) / n;
            x[w] = -0.5 + double(j + dj) / n;
            return vertex(x);
          };
          const int p00 = point(0, 0), p10 = point(1, 0), p11 = point(1, 1), p01 = point(0, 1);
          if (side > 0) {  // u x w = axis: counter-clockwise seen from +axis
            m.faces.push_back({p00, p10, p11});
            m.faces.push_back({p00, p11, p01});
          } else {
            m.faces.push_back({p00, p11, p10});
            m.faces.push_back({p00, p01, p11});
          }
        }
    }
  m.scale(size);
  return m;
}

TriMesh read_obj(const std::string& path) {
  std::istringstream in(read_input_file(path, "OBJ mesh", kMaxMeshFileBytes));
  TriMesh m;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream s(line);
    std::string tag;
    if (!(s >> tag) || tag[0] == '#') continue;
    if (tag == "v") {
      Eigen::Vector3d v;
      if (!(s >> v.x() >> v.y() >> v.z()) || !v.allFinite())
        throw InputError(fmt::format("{}: line {}: a vertex needs three finite numbers", path, line_no));
      m.vertices.push_back(v);
    } else if (tag == "f") {
      std::vector<int> poly;
      std::string item;
      while (s >> item) {
        int idx = 0;
        try {
          idx = std::stoi(item.substr(0, item.find('/')));
        } catch (const std::exception&) {
          throw InputError(fmt::format("{}: line {}: bad face index '{}'", path, line_no, item));
        }
        idx = idx < 0 ? m.vertex_count() + idx : idx - 1;  // OBJ: 1-based, negative = relative
        if (idx < 0 || idx >= m.vertex_count())
          throw InputError(fmt::format("{}: line {}: face index '{}' outside the {} vertices read so far", path,
                                       line_no, item, m.vertex_count()));
        poly.push_back(idx);
      }
      if (poly.size() < 3)
        throw InputError(fmt::format("{}: line {}: a face needs at least 3 vertices", path, line_no));
      for (std::size_t k = 1; k + 1 < poly.size(); ++k) m.faces.push_back({poly[0], poly[k], poly[k + 1]});
    }
  }
  if (m.faces.empty()) throw InputError(fmt::format("{}: no faces ('f' records) in the OBJ file", path));
  return m;
}

void write_obj(const TriMesh& mesh, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw OutputError(fmt::format("{}: cannot write the OBJ file", path));
  out.precision(17);
  for (const auto& v : mesh.vertices) out << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
  for (const auto& f : mesh.faces) out << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << '\n';
  if (!out) throw OutputError(fmt::format("{}: writing the OBJ file failed", path));
}

}  // namespace immerse::bodies
