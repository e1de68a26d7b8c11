#pragma once
// Water -> body for the floating-bodies paper (the paper's sec. 2.2), per surface triangle on the host:
// classification (submerged / dry / partly submerged), the cut of a partly submerged triangle at
// the water height under its centroid (a triangle, or a quad split in two), and per wetted piece
//   buoyancy  F_b = -rho g h_i A_i n_i                           (eq. 3, h_i depth of its centroid)
//   drag      F_d = -1/2 rho C_d A_e |V| V                        (eq. 4)
//   lift      F_l = -1/2 rho C_l A_e |V| V x (n x V) / |n x V|    (eq. 5)
// with V the piece's velocity relative to the water (sampled under the triangle's centroid) and, since the printed eq.
// 6 is garbled, the effective area of Yuksel et al. 2007 as docs/floating.md corrects it:
//   A_e = (alpha (n . V / |V|) + (1 - alpha)) A  for pieces facing the flow (n . V > 0), else 0.
#include "immerse/bodies/eigen.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "immerse/bodies/float_rigid.hpp"
#include "immerse/bodies/trimesh.hpp"

namespace immerse::coupling {

// Where a bilinear sample at coordinate c lies along an axis of n cells of size dx, in cells from
// the first cell centre (centres at (i + 1/2) dx), clamped to the outermost centres: it reads cells
// floor of it and the next. FloatWaterOf samples through it, and whoever gathers the rows a sample
// will read (a split lattice) must ask it too.
inline double float_sample_coord(double c, double dx, int n) { return std::clamp(c / dx - 0.5, 0.0, n - 1.0); }

// The water surface as the body sees it: depth and velocity sampled bilinearly between cell
// centres (clamped at the borders); the bottom is flat at z = 0, so the surface is at z = h. The
// fields are T (the water's: double, or float for the reduced storages); sampling is in double.
template <class T>
struct FloatWaterOf {
  int nx = 0, ny = 0;  // the whole grid (sampling clamps at its borders)
  double dx = 1;
  const T* h = nullptr;
  const T* u = nullptr;
  const T* v = nullptr;
  // The grid's row that h[0], u[0], v[0] start: the fields may hold a band of rows only, which
  // must contain every row sampled (a body's rows and one more on each side).
  int row0 = 0;
  double depth(double x, double y) const;
  Eigen::Vector2d velocity(double x, double y) const;
};
using FloatWater = FloatWaterOf<double>;

struct FloatForceCoefficients {
  double rho = 1000, g = 9.81;
  double drag = 1.0, lift = 0.5, alpha = 0.5;  // C_d, C_l, alpha of eq. 4-6
  double buoyancy = 1.0;  // scale of eq. 3's pressure force: 1 is the model; others break it on purpose
  // Eq. 3's pressure acts at each wetted piece (the model), or, false, at the centre of mass: no
  // righting moment, to break the model on purpose.
  bool buoyancy_torque = true;
};

enum class Wetness { dry, submerged, partial };

// The part of triangle p below the plane z = level, as `count` (0, 1 or 2) triangles in `out`
// with p's orientation; returns the classification.
Wetness float_cut_triangle(const std::array<Eigen::Vector3d, 3>& p, double level,
                           std::array<std::array<Eigen::Vector3d, 3>, 2>& out, int& count);

struct FloatLoads {
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), torque = Eigen::Vector3d::Zero();  // about the CoM
  Eigen::Vector3d buoyancy = Eigen::Vector3d::Zero();
  double wetted_area = 0;
  int submerged = 0, partial = 0, dry = 0;
};

// A wetted piece projected on the water plane (x0, y0, x1, y1, x2, y2) for the body -> water mask.
using FloatFootprintTriangle = std::array<double, 6>;

// Loads of the water on one body. `local` is the mesh in the body frame (CoM at the origin);
// downward-facing wetted pieces are appended to `footprint` when given. `pressure` (optional, one
// per face) receives rho g h at the face centroid, 0 when dry (the hull-pressure display).
// T: double or float.
template <class T>
FloatLoads float_body_loads(const bodies::TriMesh& local, const bodies::FloatBodyState& s, const FloatWaterOf<T>& w,
                            const FloatForceCoefficients& k, std::vector<FloatFootprintTriangle>* footprint,
                            std::vector<double>* pressure = nullptr);

}  // namespace immerse::coupling
