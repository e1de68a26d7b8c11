#include "immerse/coupling/bmap_boundary_map.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "immerse/core/host_for.hpp"

namespace immerse::coupling {

bool BmapAxis::inside(int m, double s) const {
  if (m < 0 || m >= lines) return false;
  const auto b = entries.begin() + start[m], e = entries.begin() + start[m + 1];
  const auto it = std::lower_bound(b, e, s, [](const BmapEntry& x, double v) { return x.s < v; });
  return (it - b) % 2 == 1;
}

double BmapAxis::inside_length(int m, double s0, double s1) const {
  if (m < 0 || m >= lines) return 0;
  double len = 0;
  // Runs [entries[2k], entries[2k+1]] are inside.
  for (int k = start[m]; k + 1 < start[m + 1]; k += 2) {
    const double a = std::max(s0, entries[k].s), b = std::min(s1, entries[k + 1].s);
    if (b > a) len += b - a;
  }
  return len;
}

const BmapEntry* BmapAxis::first_between(int m, double s0, double s1) const {
  if (m < 0 || m >= lines) return nullptr;
  const BmapEntry* best = nullptr;
  for (int k = start[m]; k < start[m + 1]; ++k) {
    const double s = entries[k].s;
    if ((s - s0) * (s - s1) < 0 && (!best || std::abs(s - s0) < std::abs(best->s - s0))) best = &entries[k];
  }
  return best;
}

Vec2 BmapAxis::velocity_inside(int m, double s) const {
  for (int k = start[m]; k + 1 < start[m + 1]; k += 2) {
    const BmapEntry &a = entries[k], &b = entries[k + 1];
    if (s >= a.s && s <= b.s) {
      const double w = b.s > a.s ? (s - a.s) / (b.s - a.s) : 0.5;
      return {(1 - w) * a.vel[0] + w * b.vel[0], (1 - w) * a.vel[1] + w * b.vel[1]};
    }
  }
  return {0, 0};
}

namespace {

// Algorithm 1 for one axis: `along` = 0 fills rows (lines y = m h/2, crossings in x), 1 columns.
void build_axis(BmapAxis& axis, const bodies::FemBody& body, int lines, double h, int along) {
  const int across = 1 - along;  // the line coordinate
  const double q = 0.5 * h;
  axis.lines = lines;
  std::vector<std::pair<int, BmapEntry>> raw;
  const auto& edges = body.boundary();
  for (size_t e = 0; e < edges.size(); ++e) {
    const Vec2 &a = body.x[edges[e].a], &b = body.x[edges[e].b];
    const double ya = a[across], yb = b[across];
    if (ya == yb) continue;  // parallel to the lines: its end points' edges carry the crossings
    // Lines m with min(ya, yb) <= m q < max(ya, yb): half-open, so a vertex shared by two edges is
    // counted once and the parity stays right.
    const double lo = std::min(ya, yb), hi = std::max(ya, yb);
    const int m0 = std::max(0, static_cast<int>(std::ceil(lo / q))),
              m1 = std::min(lines - 1, static_cast<int>(std::ceil(hi / q)) - 1);
    for (int m = m0; m <= m1; ++m) {
      const double t = (m * q - ya) / (yb - ya);  // getNearX: where the edge meets the line
      BmapEntry en;
      en.s = a[along] + t * (b[along] - a[along]);
      en.edge = static_cast<int>(e);
      en.t = t;
      const Vec2 &va = body.v[edges[e].a], &vb = body.v[edges[e].b];
      en.vel = {(1 - t) * va[0] + t * vb[0], (1 - t) * va[1] + t * vb[1]};
      raw.push_back({m, en});
    }
  }
  std::sort(raw.begin(), raw.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second.s < y.second.s;
  });
  axis.entries.resize(raw.size());
  axis.start.assign(lines + 1, 0);
  for (size_t k = 0; k < raw.size(); ++k) axis.entries[k] = raw[k].second, axis.start[raw[k].first + 1]++;
  for (int m = 0; m < lines; ++m) axis.start[m + 1] += axis.start[m];
}

}  // namespace

void bmap_build(BoundaryMap& map, const bodies::FemBody& body, int nx, int ny, double h) {
  map.h = h;
  build_axis(map.rows, body, 2 * ny + 1, h, 0);
  build_axis(map.cols, body, 2 * nx + 1, h, 1);
  map.cover.build(body, h);
}

void bmap_constraints(const BoundaryMap& map, CouplingMode mode, int nx, int ny,
                      std::vector<mac2d::FaceConstraint>& out, Backend backend) {
  const double h = map.h;
  // Candidate faces: those within one cell of a crossing, and the inside runs. Marked per cell (bit
  // 0: its u face, bit 1: its v face, bit 2: a crossing's cell, whose neighbourhood is marked once)
  // in a dense mask kept between calls, then listed row by row over the marks' box, and reset.
  // Reusing the mask and the lists, and the caller's out, matters: allocating some thousand faces
  // afresh every step costs page faults in every step. The order of the list does not matter: each
  // face is worked out by itself, and a face appears once.
  static thread_local std::vector<unsigned char> mark;
  static thread_local std::vector<size_t> used;
  const size_t plane = static_cast<size_t>(nx + 2) * (ny + 2);
  if (mark.size() != plane) mark.assign(plane, 0);
  used.clear();
  out.clear();
  if (mode == CouplingMode::one_way) return;
  // The marks' box: the crossings' cells and one cell more each way, two beyond (the inside runs lie
  // between crossings). Worked out first: a box grown at every mark chained each mark to the last.
  auto cell_of = [h](double x) { return static_cast<int>(std::floor(x / h)); };
  int i_lo = nx + 1, i_hi = 0, j_lo = ny + 1, j_hi = 0;
  auto grow = [&](double x, double y) {
    const int ci = cell_of(x), cj = cell_of(y);
    i_lo = std::min(i_lo, ci - 1), i_hi = std::max(i_hi, ci + 2), j_lo = std::min(j_lo, cj - 1),
    j_hi = std::max(j_hi, cj + 2);
  };
  for (int m = 0; m < map.rows.lines; ++m)
    for (int k = map.rows.start[m]; k < map.rows.start[m + 1]; ++k) grow(map.rows.entries[k].s, m * 0.5 * h);
  for (int m = 0; m < map.cols.lines; ++m)
    for (int k = map.cols.start[m]; k < map.cols.start[m + 1]; ++k) grow(m * 0.5 * h, map.cols.entries[k].s);
  i_lo = std::max(i_lo, 0), i_hi = std::min(i_hi, nx + 1), j_lo = std::max(j_lo, 0), j_hi = std::min(j_hi, ny + 1);
  // Through a plain pointer: the thread_local's address would be looked up again at every access.
  unsigned char* const mk = mark.data();
  auto set = [mk, nx, ny](unsigned char bits, int i, int j) {
    if (i < 0 || j < 0 || i > nx + 1 || j > ny + 1) return;
    mk[static_cast<size_t>(j) * (nx + 2) + i] |= bits;
  };
  auto around = [&](double x, double y) {
    const int ci = cell_of(x), cj = cell_of(y);
    if (ci >= 0 && cj >= 0 && ci <= nx + 1 && cj <= ny + 1 && (mk[static_cast<size_t>(cj) * (nx + 2) + ci] & 4)) return;
    set(4, ci, cj);
    for (int dj = -1; dj <= 2; ++dj)
      for (int di = -1; di <= 2; ++di) set(3, ci + di, cj + dj);
  };
  for (int m = 0; m < map.rows.lines; ++m) {
    for (int k = map.rows.start[m]; k < map.rows.start[m + 1]; ++k) around(map.rows.entries[k].s, m * 0.5 * h);
    // Inside runs: every u face (rows 2j - 1) and v face (rows 2j) between two crossings.
    for (int k = map.rows.start[m]; k + 1 < map.rows.start[m + 1]; k += 2) {
      const double a = map.rows.entries[k].s, b = map.rows.entries[k + 1].s;
      if (m % 2 == 1)  // u faces (i h, (j - 1/2) h) lie on rows 2j - 1
        for (int i = std::max(0, static_cast<int>(std::ceil(a / h))); i * h <= b && i <= nx; ++i)
          set(1, i, (m + 1) / 2);
      else  // v faces ((i - 1/2) h, j h) on rows 2j
        for (int i = std::max(0, static_cast<int>(std::ceil(a / h + 0.5))); (i - 0.5) * h <= b && i <= nx; ++i)
          set(2, i, m / 2);
    }
  }
  for (int m = 0; m < map.cols.lines; ++m)
    for (int k = map.cols.start[m]; k < map.cols.start[m + 1]; ++k) around(m * 0.5 * h, map.cols.entries[k].s);
  // Interior faces only: u faces 1 <= i <= nx - 1, 1 <= j <= ny; v faces 1 <= i <= nx, 1 <= j <= ny - 1.
  auto key = [&](int c, int i, int j) { return c * plane + static_cast<size_t>(j) * (nx + 2) + i; };
  for (int j = j_lo; j <= j_hi; ++j) {
    unsigned char* const row = mk + static_cast<size_t>(j) * (nx + 2);
    for (int i = i_lo; i <= i_hi; ++i) {
      const unsigned char m = row[i];
      if (!m) continue;
      if ((m & 1) && i >= 1 && i <= nx - 1 && j >= 1 && j <= ny) used.push_back(key(0, i, j));
      if ((m & 2) && i >= 1 && i <= nx && j >= 1 && j <= ny - 1) used.push_back(key(1, i, j));
      row[i] = 0;
    }
  }

  // Each candidate face by itself (in parallel on a threaded backend), then the kept ones in the
  // list's order. The loops reach the storage through pointers: a thread_local named in the
  // parallel one would be the worker thread's own, and in a serial one its address is looked up
  // at every access.
  static thread_local std::vector<mac2d::FaceConstraint> slot;
  static thread_local std::vector<unsigned char> keep;
  slot.resize(used.size());
  keep.assign(used.size(), 0);
  const size_t* const faces = used.data();
  mac2d::FaceConstraint* const slots = slot.data();
  unsigned char* const kept = keep.data();
  host_for(backend, static_cast<long>(used.size()), [&](long n) {
    const size_t k = faces[n];
    mac2d::FaceConstraint& f = slots[n];
    f = mac2d::FaceConstraint();
    f.c = static_cast<int>(k / plane);
    f.i = static_cast<int>(k % plane % (nx + 2));
    f.j = static_cast<int>(k % plane / (nx + 2));
    // Face point on the half-cell lattice: u (2i, 2j - 1), v (2i - 1, 2j).
    const int mx = f.c == 0 ? 2 * f.i : 2 * f.i - 1, my = f.c == 0 ? 2 * f.j - 1 : 2 * f.j;
    const double x = 0.5 * h * mx, y = 0.5 * h * my;
    const bool in = map.rows.inside(my, x);
    if (mode == CouplingMode::staircase) {
      // Cells on both sides of the face, by their centres (odd, odd lattice points).
      const bool a = f.c == 0 ? map.rows.inside(my, x - 0.5 * h) : map.rows.inside(my - 1, x);
      const bool b = f.c == 0 ? map.rows.inside(my, x + 0.5 * h) : map.rows.inside(my + 1, x);
      if (!a && !b) return;
      f.weight = 0;
      f.fixed = true;
      const Vec2 vb =
          in  ? map.rows.velocity_inside(my, x)
          : a ? (f.c == 0 ? map.rows.velocity_inside(my, x - 0.5 * h) : map.rows.velocity_inside(my - 1, x))
              : (f.c == 0 ? map.rows.velocity_inside(my, x + 0.5 * h) : map.rows.velocity_inside(my + 1, x));
      f.ub = vb[f.c];
      kept[n] = 1;
      return;
    }
    // Fluid fraction of the face segment: u faces lie on column 2i from y - h/2 to y + h/2, v faces on
    // row 2j from x - h/2 to x + h/2.
    const double inside_len = f.c == 0 ? map.cols.inside_length(mx, y - 0.5 * h, y + 0.5 * h)
                                       : map.rows.inside_length(my, x - 0.5 * h, x + 0.5 * h);
    f.weight = 1 - inside_len / h;
    f.fixed = in;
    const Vec2 p0 = f.c == 0 ? Vec2{x, y - 0.5 * h} : Vec2{x - 0.5 * h, y},
               p1 = f.c == 0 ? Vec2{x, y + 0.5 * h} : Vec2{x + 0.5 * h, y};
    Vec2 mean{0, 0};
    const bool covered = f.weight < 1 && map.cover.mean_velocity(p0, p1, mean);
    bool any = in || f.weight < 1;
    // Neighbours at distance h along x (row my) and y (column mx): the boundary between them.
    const BmapEntry* e[4] = {nullptr, nullptr, nullptr, nullptr};
    if (!in) {
      e[0] = map.rows.first_between(my, x, x - h), e[1] = map.rows.first_between(my, x, x + h);
      e[2] = map.cols.first_between(mx, y, y - h), e[3] = map.cols.first_between(mx, y, y + h);
      const double from[4] = {x, x, y, y};
      for (int d = 0; d < 4; ++d)
        if (e[d]) {
          f.cut[d] = std::abs(e[d]->s - from[d]) / h;
          f.cut_ub[d] = e[d]->vel[f.c];
          any = true;
        }
    }
    // The covered part moves at the body's mean velocity over it (bmap_cover.hpp). Where the cover
    // finds no piece of the body (round-off at a sliver): inside, the row's interpolation between its
    // crossings; partly covered, the crossing nearest along the face's own line.
    if (covered) {
      f.ub = mean[f.c];
    } else if (in) {
      f.ub = map.rows.velocity_inside(my, x)[f.c];
    } else if (f.weight < 1) {
      const BmapEntry* near = f.c == 0 ? (e[2] ? e[2] : e[3]) : (e[0] ? e[0] : e[1]);
      if (near) f.ub = near->vel[f.c];
    }
    kept[n] = any;
  });
  const long candidates = static_cast<long>(used.size());
  for (long n = 0; n < candidates; ++n)
    if (kept[n]) out.push_back(slots[n]);
}

void bmap_apply_force(const BoundaryMap& map, const mac2d::StableFlow& flow, bodies::FemBody& body, double alpha,
                      double rho, double dt) {
  const double q = 0.5 * map.h;
  std::vector<std::array<double, 2>> pts;
  std::vector<const BmapEntry*> which;
  for (int axis = 0; axis < 2; ++axis) {
    const BmapAxis& ax = axis == 0 ? map.rows : map.cols;
    for (int m = 0; m < ax.lines; ++m)
      for (int k = ax.start[m]; k < ax.start[m + 1]; ++k) {
        // P is the lattice point of the boundary cell just outside the crossing (even crossings enter
        // the body going up the line, odd ones leave it), its velocity the predicted one.
        const double s = ax.entries[k].s;
        const bool entering = (k - ax.start[m]) % 2 == 0;
        const double sp = entering ? std::floor(s / q) * q : std::ceil(s / q) * q;
        pts.push_back(axis == 0 ? std::array<double, 2>{sp, m * q} : std::array<double, 2>{m * q, sp});
        which.push_back(&ax.entries[k]);
      }
  }
  if (pts.empty()) return;
  const auto uP = flow.sample(pts, mac2d::SampleField::predicted);
  const double c = alpha * rho * q * q / dt;
  for (size_t k = 0; k < pts.size(); ++k) {
    const BmapEntry& e = *which[k];
    const bodies::FemEdge& edge = body.boundary()[e.edge];
    const double fx = c * (uP[k][0] - e.vel[0]), fy = c * (uP[k][1] - e.vel[1]);
    body.f_ext[edge.a][0] += (1 - e.t) * fx;
    body.f_ext[edge.a][1] += (1 - e.t) * fy;
    body.f_ext[edge.b][0] += e.t * fx;
    body.f_ext[edge.b][1] += e.t * fy;
  }
}

void bmap_apply_pressure(const mac2d::StableFlow& flow, bodies::FemBody& body, double h) {
  // Pressure at one cell outward from each edge midpoint (the cells the body cuts hold no fluid
  // pressure), traction -p n over the edge, half to each node.
  std::vector<std::array<double, 2>> pts;
  for (const auto& e : body.boundary()) {
    const Vec2 &a = body.x[e.a], &b = body.x[e.b];
    const double len = std::hypot(b[0] - a[0], b[1] - a[1]);
    const double nx = (b[1] - a[1]) / len, ny = -(b[0] - a[0]) / len;
    pts.push_back({0.5 * (a[0] + b[0]) + h * nx, 0.5 * (a[1] + b[1]) + h * ny});
  }
  const auto p = flow.sample(pts, mac2d::SampleField::pressure);
  for (size_t k = 0; k < pts.size(); ++k) {
    const auto& e = body.boundary()[k];
    const Vec2 &a = body.x[e.a], &b = body.x[e.b];
    // -p n |e| with n |e| = (dy, -dx).
    const double fx = -p[k][0] * (b[1] - a[1]), fy = -p[k][0] * (-(b[0] - a[0]));
    body.f_ext[e.a][0] += 0.5 * fx;
    body.f_ext[e.a][1] += 0.5 * fy;
    body.f_ext[e.b][0] += 0.5 * fx;
    body.f_ext[e.b][1] += 0.5 * fy;
  }
}

Leakage bmap_leakage(const bodies::FemBody& body, const mac2d::StableFlow& flow) {
  return bmap_leakage(body.boundary(), body.x, body.v, flow);
}

Leakage bmap_leakage(const std::vector<bodies::FemEdge>& edges, const std::vector<Vec2>& x, const std::vector<Vec2>& v,
                     const mac2d::StableFlow& flow) {
  std::vector<std::array<double, 2>> pts;
  for (const auto& e : edges) pts.push_back({0.5 * (x[e.a][0] + x[e.b][0]), 0.5 * (x[e.a][1] + x[e.b][1])});
  const auto u = flow.sample(pts, mac2d::SampleField::current);
  Leakage l;
  for (size_t k = 0; k < pts.size(); ++k) {
    const auto& e = edges[k];
    const Vec2 &a = x[e.a], &b = x[e.b];
    // Outward normal times length: the body is on the edge's left, so (dy, -dx).
    const double nx = b[1] - a[1], ny = -(b[0] - a[0]);
    const double vbx = 0.5 * (v[e.a][0] + v[e.b][0]), vby = 0.5 * (v[e.a][1] + v[e.b][1]);
    const double flux = (u[k][0] - vbx) * nx + (u[k][1] - vby) * ny;
    l.absolute += std::abs(flux);
    l.net += flux;
  }
  return l;
}

}  // namespace immerse::coupling
