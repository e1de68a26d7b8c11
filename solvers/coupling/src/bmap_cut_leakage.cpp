// Leakage through the body outline from the fluxes through the faces of the cells the outline cuts
// (bmap_boundary_map.hpp). No velocity is interpolated: the faces' own values, the map's open
// fractions and the body's edges.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "immerse/coupling/bmap_boundary_map.hpp"

namespace immerse::coupling {
namespace {

// The body velocity's flux out of the body through each cell the outline passes through: every edge
// split where it crosses the grid lines x = i h and y = j h, each piece's flux (velocity linear along
// the edge, outward normal times length (dy, -dx)) added to the cell holding the piece's midpoint.
// Returns (cell key j (nx + 2) + i, flux) pairs, one per cell, sorted by key.
std::vector<std::pair<long, double>> outline_flux_per_cell(const std::vector<bodies::FemEdge>& edges,
                                                           const std::vector<Vec2>& x, const std::vector<Vec2>& v,
                                                           int nx, double h) {
  std::vector<std::pair<long, double>> pieces;
  std::vector<double> ts;
  for (const auto& e : edges) {
    const Vec2 &a = x[e.a], &b = x[e.b];
    ts.assign({0.0, 1.0});
    for (int axis = 0; axis < 2; ++axis) {
      const double lo = std::min(a[axis], b[axis]), hi = std::max(a[axis], b[axis]);
      if (hi == lo) continue;
      for (long k = static_cast<long>(std::floor(lo / h)) + 1; k * h < hi; ++k)
        ts.push_back((k * h - a[axis]) / (b[axis] - a[axis]));
    }
    std::sort(ts.begin(), ts.end());
    const double nxl = b[1] - a[1], nyl = -(b[0] - a[0]);
    for (size_t k = 0; k + 1 < ts.size(); ++k) {
      const double t0 = ts[k], t1 = ts[k + 1];
      if (t1 - t0 <= 1e-14) continue;
      const double tm = 0.5 * (t0 + t1);
      const double mx = a[0] + tm * (b[0] - a[0]), my = a[1] + tm * (b[1] - a[1]);
      const double vx = (1 - tm) * v[e.a][0] + tm * v[e.b][0], vy = (1 - tm) * v[e.a][1] + tm * v[e.b][1];
      const long i = static_cast<long>(std::floor(mx / h)) + 1, j = static_cast<long>(std::floor(my / h)) + 1;
      pieces.push_back({j * (nx + 2) + i, (t1 - t0) * (vx * nxl + vy * nyl)});
    }
  }
  std::sort(pieces.begin(), pieces.end());
  std::vector<std::pair<long, double>> cells;
  for (const auto& p : pieces) {
    if (!cells.empty() && cells.back().first == p.first)
      cells.back().second += p.second;
    else
      cells.push_back(p);
  }
  return cells;
}

}  // namespace

Leakage bmap_cut_leakage(const BoundaryMap& map, const std::vector<bodies::FemEdge>& edges, const std::vector<Vec2>& x,
                         const std::vector<Vec2>& v, const mac2d::StableFlow& flow, int nx, int ny) {
  const double h = map.h;
  const auto cells = outline_flux_per_cell(edges, x, v, nx, h);
  // Per cell: east and west u faces, north and south v faces (HostFields' numbering), their points
  // and open fractions along the face (u faces on lattice column 2i, v faces on row 2j).
  std::vector<std::array<double, 2>> pts;
  std::vector<double> open;
  std::vector<size_t> kept;
  for (size_t c = 0; c < cells.size(); ++c) {
    const long i = cells[c].first % (nx + 2), j = cells[c].first / (nx + 2);
    if (i < 1 || i > nx || j < 1 || j > ny) continue;
    kept.push_back(c);
    const double x0 = (i - 1) * h, x1 = i * h, y0 = (j - 1) * h, y1 = j * h;
    pts.push_back({x1, y0 + 0.5 * h});
    open.push_back(1 - map.cols.inside_length(static_cast<int>(2 * i), y0, y1) / h);
    pts.push_back({x0, y0 + 0.5 * h});
    open.push_back(1 - map.cols.inside_length(static_cast<int>(2 * i - 2), y0, y1) / h);
    pts.push_back({x0 + 0.5 * h, y1});
    open.push_back(1 - map.rows.inside_length(static_cast<int>(2 * j), x0, x1) / h);
    pts.push_back({x0 + 0.5 * h, y0});
    open.push_back(1 - map.rows.inside_length(static_cast<int>(2 * j - 2), x0, x1) / h);
  }
  Leakage l;
  if (pts.empty()) return l;
  // Sampling a component at its own face point returns the stored face value.
  const auto u = flow.sample(pts, mac2d::SampleField::current);
  for (size_t k = 0; k < kept.size(); ++k) {
    const size_t f = 4 * k;
    const double fluid_out =
        h * (open[f] * u[f][0] - open[f + 1] * u[f + 1][0] + open[f + 2] * u[f + 2][1] - open[f + 3] * u[f + 3][1]);
    // The fluid's outflow through the open faces equals its flux out of the body across the outline
    // piece (the cell's fluid part is divergence-free); minus the body's own outward flux there.
    const double leak = fluid_out - cells[kept[k]].second;
    l.absolute += std::abs(leak);
    l.net += leak;
  }
  return l;
}

}  // namespace immerse::coupling
