#include "immerse/bodies/langevin_meshes.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "immerse/core/error.hpp"

namespace immerse::bodies {
namespace {

// An order of points that every sign flip of the coordinates keeps: |x|, then |y|, then |z|
// (magnitudes within 1e-9 of the points' size count as equal).
bool flip_invariant_less(const Eigen::Vector3d& p, const Eigen::Vector3d& q) {
  const double tol = 1e-9 * (p.norm() + q.norm());
  for (int a = 0; a < 3; ++a) {
    const double u = std::abs(p[a]), v = std::abs(q[a]);
    if (std::abs(u - v) > tol) return u < v;
  }
  return false;
}

// The quad p0 p1 p2 p3 (counter-clockwise) as two triangles, split along the diagonal through its
// greatest corner in that order. A mirror image of the quad is then split along the mirror image
// of the diagonal, so the triangulation keeps the vertices' mirror symmetries (one diagonal
// direction everywhere makes a symmetric grid chiral, and the added mass cannot use them).
void add_quad(TriMesh& s, int p0, int p1, int p2, int p3) {
  const int q[4] = {p0, p1, p2, p3};
  int top = 0;
  for (int c = 1; c < 4; ++c)
    if (flip_invariant_less(s.vertices[q[top]], s.vertices[q[c]])) top = c;
  if (top % 2 == 0) {
    s.faces.push_back({p0, p1, p2});
    s.faces.push_back({p0, p2, p3});
  } else {
    s.faces.push_back({p0, p1, p3});
    s.faces.push_back({p1, p2, p3});
  }
}

}  // namespace

TriMesh langevin_thicken(const TriMesh& s, double t) {
  if (!(t > 0)) throw InputError(fmt::format("thicken: thickness {} must be > 0", t));
  const int nv = s.vertex_count();
  std::vector<Eigen::Vector3d> vn(nv, Eigen::Vector3d::Zero());
  for (int f = 0; f < s.face_count(); ++f)
    for (int k = 0; k < 3; ++k) vn[s.faces[f][k]] += s.face_area_vector(f);
  TriMesh m;
  m.vertices.resize(2 * nv);
  for (int v = 0; v < nv; ++v) {
    const Eigen::Vector3d n = vn[v].normalized();
    m.vertices[v] = s.vertices[v] + 0.5 * t * n;
    m.vertices[nv + v] = s.vertices[v] - 0.5 * t * n;
  }
  std::map<std::pair<int, int>, int> edges;  // directed edge -> count
  for (const auto& f : s.faces) {
    m.faces.push_back(f);
    m.faces.push_back({nv + f[0], nv + f[2], nv + f[1]});
    for (int k = 0; k < 3; ++k) ++edges[{f[k], f[(k + 1) % 3]}];
  }
  for (const auto& [e, count] : edges) {
    if (count != 1) throw InputError("thicken: the surface has a repeated directed edge (not manifold/oriented)");
    if (edges.count({e.second, e.first})) continue;  // interior edge
    const int a = e.first, b = e.second;             // boundary edge a -> b of the top surface
    // The quad b a a' b' split along the diagonal from the greater of a, b on top (flip_invariant_less:
    // the rim keeps the surface's mirror symmetries).
    if (flip_invariant_less(s.vertices[a], s.vertices[b])) {
      m.faces.push_back({b, a, nv + a});
      m.faces.push_back({b, nv + a, nv + b});
    } else {
      m.faces.push_back({b, a, nv + b});
      m.faces.push_back({a, nv + a, nv + b});
    }
  }
  return m;
}

TriMesh langevin_elliptic_plate(double a, double b, double t, int sectors, int rings) {
  if (!(a > 0 && b > 0) || sectors < 3 || rings < 1)
    throw InputError(fmt::format("elliptic plate: semi-axes {}, {} must be > 0, sectors {} >= 3, rings {} >= 1", a, b,
                                 sectors, rings));
  TriMesh s;
  s.vertices.push_back({0, 0, 0});
  for (int r = 1; r <= rings; ++r)
    for (int k = 0; k < sectors; ++k) {
      const double th = 2 * M_PI * k / sectors, rr = double(r) / rings;
      s.vertices.push_back({a * rr * std::cos(th), b * rr * std::sin(th), 0});
    }
  auto id = [&](int r, int k) { return r == 0 ? 0 : 1 + (r - 1) * sectors + (k % sectors); };
  for (int k = 0; k < sectors; ++k) s.faces.push_back({0, id(1, k), id(1, k + 1)});
  for (int r = 1; r < rings; ++r)
    for (int k = 0; k < sectors; ++k) add_quad(s, id(r, k), id(r + 1, k), id(r + 1, k + 1), id(r, k + 1));
  return langevin_thicken(s, t);
}

TriMesh langevin_paper_airplane(double sheet, double t, int nu, int ns, double keel, double dihedral_deg) {
  if (!(sheet > 0) || nu < 1 || ns < 4 || ns % 2)
    throw InputError(fmt::format(
        "paper airplane: sheet {} must be > 0, chord cells {} >= 1, span cells {} even and >= 4", sheet, nu, ns));
  TriMesh s;
  const double L = sheet, nose = 0.02 * sheet, tand = std::tan(dihedral_deg * M_PI / 180), sk = 0.2;
  for (int i = 0; i <= nu; ++i)
    for (int j = 0; j <= ns; ++j) {
      const double u = double(i) / nu, sv = -1 + 2.0 * j / ns;
      const double half = 0.5 * L * (1 - u) + nose;  // half-span; the nose keeps a small width
      const double y = sv * half, as = std::abs(sv);
      const double z = as < sk ? -keel * L * (1 - u) * (1 - as / sk) : (as - sk) * half * tand;
      s.vertices.push_back({-0.5 * L + u * L, y, z});
    }
  auto id = [&](int i, int j) { return i * (ns + 1) + j; };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < ns; ++j)  // counter-clockwise seen from +z (upper side)
      add_quad(s, id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
  return langevin_thicken(s, t);
}

TriMesh langevin_body_mesh(LangevinShape shape, double a, double b, double c, double t, int faces) {
  auto subdivisions = [&] {
    for (int sd = 0; sd <= 5; ++sd)
      if (20 * (1 << (2 * sd)) == faces) return sd;
    throw InputError(fmt::format("faces {} for a {}: allowed 20, 80, 320, 1280, 5120, 20480", faces,
                                 langevin_shape_choices().name(shape)));
  };
  switch (shape) {
    case LangevinShape::ellipsoid:
      return make_ellipsoid(a, b, c, subdivisions());
    case LangevinShape::sphere:
      return make_icosphere(a, subdivisions());
    case LangevinShape::elliptic_plate: {
      const int rings = std::max(1, int(std::lround(std::sqrt(faces / 16.0))));  // sectors = 4 rings
      return langevin_elliptic_plate(a, b, t, 4 * rings, rings);
    }
    case LangevinShape::paper_airplane: {
      const int nu = std::max(1, int(std::lround(std::sqrt(faces / 8.5))));
      return langevin_paper_airplane(a, t, nu, 2 * std::max(2, int(std::lround(nu * 0.85))));
    }
  }
  throw Error("langevin_body_mesh: shape out of range", kExitInternal);
}

std::optional<TriMesh> langevin_coarser_mesh(LangevinShape shape, double a, double b, double c, int faces) {
  if (!(shape == LangevinShape::ellipsoid || shape == LangevinShape::sphere) || faces <= 20) return std::nullopt;
  return langevin_body_mesh(shape, a, b, c, 0, faces / 4);
}

}  // namespace immerse::bodies
