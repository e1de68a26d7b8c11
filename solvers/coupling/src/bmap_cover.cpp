#include "immerse/coupling/bmap_cover.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::coupling {

void BmapCover::build(const bodies::FemBody& body, double h) {
  h_ = h;
  const auto& x = body.x;
  const auto& v = body.v;
  const auto& tris = body.mesh().tris;
  cells_.resize(tris.size());
  pieces_.resize(tris.size());
  if (tris.empty()) return;
  for (size_t t = 0; t < tris.size(); ++t) {
    Piece& P = pieces_[t];
    // Edge e runs from node e to node e + 1: E_e(p) = cross(q_e, q_e+1, p).
    for (int e = 0; e < 3; ++e) {
      const Vec2 &q = x[tris[t][e]], &r = x[tris[t][(e + 1) % 3]];
      P.a[e] = -(r[1] - q[1]);
      P.b[e] = r[0] - q[0];
      P.c[e] = (r[1] - q[1]) * q[0] - (r[0] - q[0]) * q[1];
    }
    // Twice the area, E_1 at node 0; node e's barycentric weight is E_(e+1) / area2.
    const Vec2& q0 = x[tris[t][0]];
    const double area2 = P.a[1] * q0[0] + P.b[1] * q0[1] + P.c[1];
    P.flat = !(area2 > 0);
    for (int k = 0; k < 2; ++k) {
      P.v0[k] = P.vx[k] = P.vy[k] = 0;
      if (P.flat) continue;
      for (int e = 0; e < 3; ++e) {
        const int f = (e + 1) % 3;
        const double w = v[tris[t][e]][k] / area2;
        P.v0[k] += w * P.c[f];
        P.vx[k] += w * P.a[f];
        P.vy[k] += w * P.b[f];
      }
    }
  }
  // The bucket grid spans the body's bounding box in whole cells.
  double lo[2] = {x[0][0], x[0][1]}, hi[2] = {lo[0], lo[1]};
  for (const Vec2& p : x)
    for (int a = 0; a < 2; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  i0_ = static_cast<int>(std::floor(lo[0] / h));
  j0_ = static_cast<int>(std::floor(lo[1] / h));
  ni_ = static_cast<int>(std::floor(hi[0] / h)) - i0_ + 1;
  nj_ = static_cast<int>(std::floor(hi[1] / h)) - j0_ + 1;
  // Two passes: count per cell, then fill (compressed rows).
  start_.assign(static_cast<size_t>(ni_) * nj_ + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill;
    if (pass == 1) {
      for (size_t c = 0; c + 1 < start_.size(); ++c) start_[c + 1] += start_[c];
      items_.assign(start_.back(), 0);
      fill.assign(start_.begin(), start_.end() - 1);
    }
    for (size_t t = 0; t < tris.size(); ++t) {
      const Vec2 &a = x[tris[t][0]], &b = x[tris[t][1]], &c = x[tris[t][2]];
      const int ia = static_cast<int>(std::floor(std::min({a[0], b[0], c[0]}) / h)) - i0_,
                ib = static_cast<int>(std::floor(std::max({a[0], b[0], c[0]}) / h)) - i0_,
                ja = static_cast<int>(std::floor(std::min({a[1], b[1], c[1]}) / h)) - j0_,
                jb = static_cast<int>(std::floor(std::max({a[1], b[1], c[1]}) / h)) - j0_;
      cells_[t] = {ia, ib, ja, jb};
      for (int j = ja; j <= jb; ++j)
        for (int i = ia; i <= ib; ++i) {
          const size_t cell = static_cast<size_t>(j) * ni_ + i;
          if (pass == 0)
            ++start_[cell + 1];
          else
            items_[fill[cell]++] = static_cast<int>(t);
        }
    }
  }
}

bool BmapCover::mean_velocity(const Vec2& p0, const Vec2& p1, Vec2& mean) const {
  if (pieces_.empty()) return false;
  const Vec2 d = {p1[0] - p0[0], p1[1] - p0[1]};
  const double seg = std::hypot(d[0], d[1]);
  double len = 0, vx = 0, vy = 0;
  // The segment lies on a grid line: the cells on both sides of it, along its length.
  const double eps = 1e-9 * h_;
  const int ia = static_cast<int>(std::floor((std::min(p0[0], p1[0]) - eps) / h_)) - i0_,
            ib = static_cast<int>(std::floor((std::max(p0[0], p1[0]) + eps) / h_)) - i0_,
            ja = static_cast<int>(std::floor((std::min(p0[1], p1[1]) - eps) / h_)) - j0_,
            jb = static_cast<int>(std::floor((std::max(p0[1], p1[1]) + eps) / h_)) - j0_;
  const int i_first = std::max(ia, 0), j_first = std::max(ja, 0);
  for (int j = j_first; j <= std::min(jb, nj_ - 1); ++j)
    for (int i = i_first; i <= std::min(ib, ni_ - 1); ++i) {
      const size_t cell = static_cast<size_t>(j) * ni_ + i;
      for (int k = start_[cell]; k < start_[cell + 1]; ++k) {
        const int t = items_[k];
        // Once per query, in the first visited cell the triangle's box meets (the same order as
        // marking each triangle visited, without the marks).
        if (j != std::max(j_first, cells_[t][2]) || i != std::max(i_first, cells_[t][0])) continue;
        const Piece& P = pieces_[t];
        if (P.flat) continue;  // a collapsed element carries no area
        // Inside where every edge function is >= 0; each is linear along the segment, so the inside
        // part is one interval [t0, t1].
        double t0 = 0, t1 = 1;
        for (int e = 0; e < 3 && t0 < t1; ++e) {
          const double f0 = P.a[e] * p0[0] + P.b[e] * p0[1] + P.c[e], f1 = P.a[e] * p1[0] + P.b[e] * p1[1] + P.c[e];
          if (f0 < 0 && f1 < 0)
            t1 = t0;  // wholly outside this edge
          else if (f0 < 0)
            t0 = std::max(t0, f0 / (f0 - f1));
          else if (f1 < 0)
            t1 = std::min(t1, f0 / (f0 - f1));
        }
        if (t1 <= t0) continue;
        // The velocity is linear along the piece: its midpoint value times its length.
        const double tm = 0.5 * (t0 + t1);
        const Vec2 p = {p0[0] + tm * d[0], p0[1] + tm * d[1]};
        const double l = (t1 - t0) * seg;
        vx += l * (P.v0[0] + P.vx[0] * p[0] + P.vy[0] * p[1]);
        vy += l * (P.v0[1] + P.vx[1] * p[0] + P.vy[1] * p[1]);
        len += l;
      }
    }
  if (len <= 0) return false;
  mean = {vx / len, vy / len};
  return true;
}

}  // namespace immerse::coupling
