#include "immerse/bodies/float_shapes.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::bodies {
namespace {
constexpr double kPi = 3.14159265358979323846;

// Makes every face point out: a closed mesh with negative signed volume is inside out.
void orient_outwards(TriMesh& m) {
  if (mass_properties(m).volume < 0)
    for (auto& f : m.faces) std::swap(f[1], f[2]);
}
}  // namespace

TriMesh float_sphere(double radius) { return make_icosphere(radius, 1); }

TriMesh float_complex_object(double R, double r) {
  const int nu = 20, nv = 13;
  TriMesh m;
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const double u = 2 * kPi * i / nu, v = 2 * kPi * j / nv;
      m.vertices.emplace_back((R + r * std::cos(v)) * std::cos(u), (R + r * std::cos(v)) * std::sin(u),
                              r * std::sin(v));
    }
  auto at = [&](int i, int j) { return ((i + nu) % nu) * nv + (j + nv) % nv; };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      m.faces.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m.faces.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  orient_outwards(m);
  return m;
}

TriMesh float_hull(const HullSpec& s) {
  TriMesh m;
  const int ns = s.stations, np = s.section_points;
  const double half = 0.5 * s.beam;
  for (int k = 0; k <= ns; ++k) {
    const double x = -0.5 * s.length + s.length * k / ns;
    // Half-beam: the transom's width at the stern, full amidships, tapering (quarter ellipse) to the stem.
    const double from_bow = (0.5 * s.length - x) / (s.bow_fraction * s.length);
    const double from_stern = (x + 0.5 * s.length) / (0.15 * s.length);
    double b = half;
    if (from_bow < 1) b = half * (s.bow_width + (1 - s.bow_width) * std::sqrt(1 - (1 - from_bow) * (1 - from_bow)));
    if (from_stern < 1) b = std::min(b, half * (s.stern_width + (1 - s.stern_width) * from_stern));
    // The keel rises a little towards the stem (a bow that cuts the water).
    const double keel = from_bow < 1 ? 0.3 * s.depth * (1 - from_bow) * (1 - from_bow) : 0.0;
    for (int q = 0; q < np; ++q) {
      // Superellipse section from the starboard deck edge (phi = 0) under the keel to the port one (phi = pi).
      const double phi = kPi * q / (np - 1), c = std::cos(phi), sn = std::sin(phi);
      const double e = 2.0 / s.fullness;
      const double y = -b * (c < 0 ? -1 : 1) * std::pow(std::abs(c), e);
      const double z = keel + (s.depth - keel) * (1 - std::pow(std::abs(sn), e));
      m.vertices.emplace_back(x, y, z);
    }
  }
  auto at = [&](int k, int q) { return k * np + q; };
  // Sides and bottom between stations; the deck closes each section (segment np-1 -> 0).
  for (int k = 0; k < ns; ++k)
    for (int q = 0; q < np; ++q) {
      const int q1 = (q + 1) % np;
      m.faces.push_back({at(k, q), at(k + 1, q), at(k + 1, q1)});
      m.faces.push_back({at(k, q), at(k + 1, q1), at(k, q1)});
    }
  // End caps: a fan around each end section's centre.
  for (int end : {0, ns}) {
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int q = 0; q < np; ++q) c += m.vertices[at(end, q)];
    m.vertices.push_back(c / np);
    const int centre = m.vertex_count() - 1;
    for (int q = 0; q < np; ++q) {
      const int q1 = (q + 1) % np;
      if (end == 0)
        m.faces.push_back({centre, at(end, q), at(end, q1)});
      else
        m.faces.push_back({centre, at(end, q1), at(end, q)});
    }
  }
  orient_outwards(m);
  return m;
}

HullSpec float_rowing_boat_spec() { return {}; }

HullSpec float_motorboat_spec() {
  HullSpec s;
  s.length = 12.7;
  s.depth = 2.4;
  s.beam = 3.85;
  s.stations = 18;
  s.section_points = 12;
  return s;
}

TriMesh float_sailboat(double mast_height) {
  HullSpec s;
  s.length = 19;
  s.depth = 2.30;
  s.beam = 4.60;
  s.stations = 24;
  s.section_points = 16;
  s.fullness = 3;
  TriMesh hull = float_hull(s);
  TriMesh mast = make_box(Eigen::Vector3d(0.3, 0.3, mast_height), 1);
  mast.translate(Eigen::Vector3d(1.0, 0, s.depth + 0.5 * mast_height));
  float_append(hull, mast);
  return hull;
}

void float_append(TriMesh& a, const TriMesh& b) {
  const int off = a.vertex_count();
  a.vertices.insert(a.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (auto f : b.faces) a.faces.push_back({f[0] + off, f[1] + off, f[2] + off});
}

}  // namespace immerse::bodies
