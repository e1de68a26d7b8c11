#pragma once
// The body velocity on the covered part of a grid face, integrated over the body's own triangles (the
// FEM's velocity is linear in each), for the boundary map's face constraints. The projection balances
// each cut cell with the covered parts of its faces moving at one velocity per face; that velocity
// must be the body's mean over the covered part for the balance to equal the flux through the
// outline (the divergence theorem over the body's part of the cell). A crossing's velocity instead
// (one end of the covered part) is off by the velocity's change along it: on a turning body, omega
// times the covered length, which leaks in proportion to the rotation rate.
#include <array>
#include <vector>

#include "immerse/bodies/fem_body.hpp"

namespace immerse::coupling {

using bodies::Vec2;

class BmapCover {
 public:
  // Copies the body's state and buckets its triangles by the grid cells (size h) their bounding boxes
  // meet.
  void build(const bodies::FemBody& body, double h);
  // Mean body velocity over the part of the axis-aligned segment p0 -> p1 inside the body; false when
  // no triangle covers any of it. A piece lying on an edge two triangles share counts in both, with
  // the same velocity (the field is continuous), so the mean is unchanged. Reads only: threads may
  // ask at once.
  bool mean_velocity(const Vec2& p0, const Vec2& p1, Vec2& mean) const;

 private:
  // A triangle as a query uses it: its three edge functions E(p) = a x + b y + c (counter-clockwise:
  // >= 0 inside), and the velocity, linear over it, as v(p) = v0 + vx x + vy y (the barycentric
  // weights are E / twice the area). Made once per build, so that a query reads one record per
  // triangle instead of its nodes through the mesh.
  struct Piece {
    double a[3], b[3], c[3];
    double v0[2], vx[2], vy[2];
    bool flat;  // collapsed (no area): carries no velocity
  };
  double h_ = 1;
  std::vector<Piece> pieces_;
  int i0_ = 0, j0_ = 0, ni_ = 0, nj_ = 0;  // bucket grid: cells [i0, i0 + ni) x [j0, j0 + nj)
  std::vector<int> start_, items_;         // triangles per bucket cell (compressed rows)
  // Per triangle, the bucket cells its bounding box meets: i from [0] to [1], j from [2] to [3]. A
  // query takes a triangle in the first of its cells (row by row) that the query visits.
  std::vector<std::array<int, 4>> cells_;
};

}  // namespace immerse::coupling
