#include "immerse/coupling/float_forces.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::coupling {
namespace {

struct Bilinear {
  int i0, j0, i1, j1;
  double fx, fy;
};

template <class T>
Bilinear weights(const FloatWaterOf<T>& w, double x, double y) {
  // Cell centres at (i + 1/2) dx.
  const double gx = float_sample_coord(x, w.dx, w.nx), gy = float_sample_coord(y, w.dx, w.ny);
  Bilinear b;
  b.i0 = std::min(static_cast<int>(gx), w.nx - 1);
  b.j0 = std::min(static_cast<int>(gy), w.ny - 1);
  b.i1 = std::min(b.i0 + 1, w.nx - 1);
  b.j1 = std::min(b.j0 + 1, w.ny - 1);
  b.fx = gx - b.i0;
  b.fy = gy - b.j0;
  return b;
}

template <class T>
double sample(const FloatWaterOf<T>& w, const T* f, const Bilinear& b) {
  auto at = [&](int i, int j) { return f[static_cast<size_t>(j - w.row0) * w.nx + i]; };
  return (1 - b.fy) * ((1 - b.fx) * at(b.i0, b.j0) + b.fx * at(b.i1, b.j0)) +
         b.fy * ((1 - b.fx) * at(b.i0, b.j1) + b.fx * at(b.i1, b.j1));
}

}  // namespace

template <class T>
double FloatWaterOf<T>::depth(double x, double y) const {
  return sample(*this, h, weights(*this, x, y));
}

template <class T>
Eigen::Vector2d FloatWaterOf<T>::velocity(double x, double y) const {
  const Bilinear b = weights(*this, x, y);
  return {sample(*this, u, b), sample(*this, v, b)};
}

Wetness float_cut_triangle(const std::array<Eigen::Vector3d, 3>& p, double level,
                           std::array<std::array<Eigen::Vector3d, 3>, 2>& out, int& count) {
  int below = 0;
  for (const auto& q : p) below += q.z() < level;
  if (below == 0) {
    count = 0;
    return Wetness::dry;
  }
  if (below == 3) {
    out[0] = p;
    count = 1;
    return Wetness::submerged;
  }
  // Rotate so that p[r] is the odd vertex out (alone on its side); orientation is kept.
  int r = 0;
  for (int k = 0; k < 3; ++k) {
    const bool kb = p[k].z() < level;
    if ((below == 1 && kb) || (below == 2 && !kb)) r = k;
  }
  const Eigen::Vector3d& a = p[r];
  const Eigen::Vector3d& b = p[(r + 1) % 3];
  const Eigen::Vector3d& c = p[(r + 2) % 3];
  auto cross = [&](const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
    const double t = (level - from.z()) / (to.z() - from.z());
    return Eigen::Vector3d(from + t * (to - from));
  };
  const Eigen::Vector3d ab = cross(a, b), ac = cross(a, c);
  if (below == 1) {
    out[0] = {a, ab, ac};  // the tip under water: a triangle
    count = 1;
  } else {
    // The tip is dry: the wetted part is the quad ab, b, c, ac, split along its diagonal ab-c.
    out[0] = {ab, b, c};
    out[1] = {ab, c, ac};
    count = 2;
  }
  return Wetness::partial;
}

template <class T>
FloatLoads float_body_loads(const bodies::TriMesh& local, const bodies::FloatBodyState& s, const FloatWaterOf<T>& w,
                            const FloatForceCoefficients& k, std::vector<FloatFootprintTriangle>* footprint,
                            std::vector<double>* pressure) {
  FloatLoads L;
  const Eigen::Matrix3d R = s.rotation();
  std::vector<Eigen::Vector3d> world(local.vertices.size());
  for (size_t q = 0; q < world.size(); ++q) world[q] = R * local.vertices[q] + s.position;
  if (pressure) pressure->assign(local.faces.size(), 0.0);
  std::array<std::array<Eigen::Vector3d, 3>, 2> pieces;
  for (size_t f = 0; f < local.faces.size(); ++f) {
    const std::array<Eigen::Vector3d, 3> p = {world[local.faces[f][0]], world[local.faces[f][1]],
                                              world[local.faces[f][2]]};
    const Eigen::Vector3d centroid = (p[0] + p[1] + p[2]) / 3.0;
    // Water height and velocity under the centroid (one bilinear stencil for all three).
    const Bilinear wb = weights(w, centroid.x(), centroid.y());
    const double level = sample(w, w.h, wb);
    int count = 0;
    const Wetness wet = float_cut_triangle(p, level, pieces, count);
    if (wet == Wetness::dry) {
      ++L.dry;
      continue;
    }
    ++(wet == Wetness::submerged ? L.submerged : L.partial);
    const Eigen::Vector3d area_vec = (p[1] - p[0]).cross(p[2] - p[0]);
    const double anorm = area_vec.norm();
    if (anorm <= 0) continue;
    const Eigen::Vector3d n = area_vec / anorm;
    if (pressure) (*pressure)[f] = k.rho * k.g * std::max(0.0, level - centroid.z());
    // The water's velocity under the triangle (pieces of one triangle share it: they are smaller
    // than a cell for the meshes used here).
    const Eigen::Vector3d water(sample(w, w.u, wb), sample(w, w.v, wb), 0);
    for (int q = 0; q < count; ++q) {
      const auto& t = pieces[q];
      const double A = 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).norm();
      if (A <= 0) continue;
      const Eigen::Vector3d c = (t[0] + t[1] + t[2]) / 3.0;
      const double hi = std::max(0.0, level - c.z());
      const Eigen::Vector3d Fb = -k.buoyancy * k.rho * k.g * hi * A * n;
      Eigen::Vector3d F = Fb;
      L.buoyancy += Fb;
      // Velocity of the piece relative to the water under it.
      const Eigen::Vector3d V = s.velocity + s.angular_velocity.cross(c - s.position) - water;
      const double speed = V.norm(), nv = n.dot(V);
      if (speed > 0 && nv > 0) {
        const double Ae = (k.alpha * nv / speed + (1 - k.alpha)) * A;
        F += -0.5 * k.rho * k.drag * Ae * speed * V;
        const Eigen::Vector3d nxV = n.cross(V);
        const double m = nxV.norm();
        if (m > 1e-12 * speed) F += -0.5 * k.rho * k.lift * Ae * speed * V.cross(nxV) / m;
      }
      L.force += F;
      L.torque += (c - s.position).cross(k.buoyancy_torque ? F : Eigen::Vector3d(F - Fb));
      L.wetted_area += A;
      if (footprint && n.z() < 0) footprint->push_back({t[0].x(), t[0].y(), t[1].x(), t[1].y(), t[2].x(), t[2].y()});
    }
  }
  return L;
}

template struct FloatWaterOf<double>;
template struct FloatWaterOf<float>;
template FloatLoads float_body_loads(const bodies::TriMesh&, const bodies::FloatBodyState&, const FloatWaterOf<double>&,
                                     const FloatForceCoefficients&, std::vector<FloatFootprintTriangle>*,
                                     std::vector<double>*);
template FloatLoads float_body_loads(const bodies::TriMesh&, const bodies::FloatBodyState&, const FloatWaterOf<float>&,
                                     const FloatForceCoefficients&, std::vector<FloatFootprintTriangle>*,
                                     std::vector<double>*);

}  // namespace immerse::coupling
