#pragma once
// What the patent displays besides the height field: dyes (advected colour fields, blended for
// display) and streaklines (particles released from fixed points and carried by the flow), plus
// the rasterisation of internal obstacles (posts, islands, boats) onto the cell grid.
#include <Kokkos_Core.hpp>

#include "immerse/mac2d/penalty_kernels.hpp"

namespace immerse::mac2d {

// Velocity at a point from the staggered faces by bilinear interpolation (clamped to the grid).
template <class Device>
struct StaggeredSampler {
  Grid2<Device> g;
  Kokkos::View<const double*, Device> u, v;

  KOKKOS_INLINE_FUNCTION static double lerp2(const Kokkos::View<const double*, Device>& f, const Grid2<Device>& g,
                                             double fi, double fj) {
    fi = fi < 0 ? 0 : (fi > g.nx + 1 - 1e-9 ? g.nx + 1 - 1e-9 : fi);
    fj = fj < 0 ? 0 : (fj > g.ny + 1 - 1e-9 ? g.ny + 1 - 1e-9 : fj);
    const int i = static_cast<int>(fi), j = static_cast<int>(fj);
    const int i1 = i + 1 > g.nx + 1 ? i : i + 1, j1 = j + 1 > g.ny + 1 ? j : j + 1;
    const double a = fi - i, b = fj - j;
    return (1 - a) * (1 - b) * f(g.at(i, j)) + a * (1 - b) * f(g.at(i1, j)) + (1 - a) * b * f(g.at(i, j1)) +
           a * b * f(g.at(i1, j1));
  }
  // u(i,j) sits at x = i dx, y = (j - 1/2) dy; v(i,j) at x = (i - 1/2) dx, y = j dy.
  KOKKOS_INLINE_FUNCTION void operator()(double x, double y, double& ux, double& vy) const {
    ux = lerp2(u, g, x / g.dx, y / g.dy + 0.5);
    vy = lerp2(v, g, x / g.dx + 0.5, y / g.dy);
  }
};

// Semi-Lagrangian step of one dye field at cell centres; source discs held at 1, solid cells 0.
template <class Device>
struct AdvectDye {
  StaggeredSampler<Device> vel;
  Kokkos::View<const double*, Device> c;
  Kokkos::View<double*, Device> cn;
  Kokkos::View<const unsigned char*, Device> solid;
  double dt, sx, sy, sr;  // source centre and radius
  bool has_obstacles;

  KOKKOS_INLINE_FUNCTION void operator()(int n) const {
    const auto& g = vel.g;
    const int i = n % g.nx + 1, j = n / g.nx + 1, k = g.at(i, j);
    const double x = (i - 0.5) * g.dx, y = (j - 0.5) * g.dy;
    if ((x - sx) * (x - sx) + (y - sy) * (y - sy) <= sr * sr) {
      cn(k) = 1.0;
      return;
    }
    if (has_obstacles && solid(k)) {
      cn(k) = 0.0;
      return;
    }
    double ux, vy;
    vel(x, y, ux, vy);
    // Back-trace, then sample the dye (cell-centred: fractional index x/dx + 1/2).
    const double xb = x - dt * ux, yb = y - dt * vy;
    cn(k) = StaggeredSampler<Device>::lerp2(c, g, xb / g.dx + 0.5, yb / g.dy + 0.5);
  }
};

// Marks a free particle slot or one that left the domain (kept out of the NaN detector's way).
constexpr double kDeadParticle = 1e300;

// RK2 (midpoint) advection of streakline particles; particles that leave the domain stop.
template <class Device>
struct AdvectParticles {
  StaggeredSampler<Device> vel;
  Kokkos::View<double* [2], Device> pos;
  double dt;

  KOKKOS_INLINE_FUNCTION void operator()(int n) const {
    double x = pos(n, 0), y = pos(n, 1);
    if (x >= kDeadParticle) return;
    double u1, v1, u2, v2;
    vel(x, y, u1, v1);
    vel(x + 0.5 * dt * u1, y + 0.5 * dt * v1, u2, v2);
    x += dt * u2;
    y += dt * v2;
    const auto& g = vel.g;
    const bool out = x < 0 || y < 0 || x > g.nx * g.dx || y > g.ny * g.dy;
    pos(n, 0) = out ? kDeadParticle : x;
    pos(n, 1) = out ? kDeadParticle : y;
  }
};

// Puts a new particle at each seed, in consecutive ring-buffer slots starting at `first`.
template <class Device>
struct ReleaseParticles {
  Kokkos::View<double* [2], Device> pos;
  Kokkos::View<const double* [2], Device> seeds;
  int first, capacity;
  KOKKOS_INLINE_FUNCTION void operator()(int s) const {
    const int slot = (first + s) % capacity;
    pos(slot, 0) = seeds(s, 0);
    pos(slot, 1) = seeds(s, 1);
  }
};

// Obstacle shapes at the current time (centre, size, rotation, velocity), rasterised by cell centre.
struct ObstacleState {
  ObstacleShape shape;
  double cx, cy, a, b, cos_t, sin_t, vx, vy;
};

// One team per row of cells, ghosts included. A row is cleared, then each shape in turn marks the
// cells it covers (a later shape wins where two overlap), testing only the columns of its bounding
// square and only on rows that cross it: on the river's 82 x 22 cells, a test of every shape at
// every cell was as much work as the flow step itself.
template <class Device>
struct RasteriseObstacles {
  using member = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  Grid2<Device> g;
  Kokkos::View<const ObstacleState*, Device> shapes;
  Kokkos::View<unsigned char*, Device> solid;
  Kokkos::View<double*, Device> su, sv;

  // Half the side of a square about the centre that holds the shape (the farthest any of its points
  // lies from the centre, or more).
  KOKKOS_INLINE_FUNCTION static double reach(const ObstacleState& o) {
    return o.shape == ObstacleShape::rectangle ? o.a + o.b : (o.a > o.b ? o.a : o.b);
  }
  // Whether the point (dx, dy) from the shape's centre lies in it.
  KOKKOS_INLINE_FUNCTION static bool covers(const ObstacleState& o, double dx, double dy) {
    const double lx = o.cos_t * dx + o.sin_t * dy, ly = -o.sin_t * dx + o.cos_t * dy;
    if (o.shape == ObstacleShape::rectangle) return lx <= o.a && -lx <= o.a && ly <= o.b && -ly <= o.b;
    return (lx * lx) / (o.a * o.a) + (ly * ly) / (o.b * o.b) <= 1.0;
  }
  // The last column whose cell centre (i - 0.5) dx is at or before x, clamped to [0, sx - 1] (0
  // for a NaN).
  KOKKOS_INLINE_FUNCTION int column(double x) const {
    const double i = x / g.dx + 0.5;
    return !(i > 0) ? 0 : i >= g.sx - 1 ? g.sx - 1 : static_cast<int>(i);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int j = team.league_rank(), base = j * g.sx;
    const double y = (j - 0.5) * g.dy;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, g.sx), [&](int i) {
      solid(base + i) = 0;
      su(base + i) = 0;
      sv(base + i) = 0;
    });
    for (int s = 0; s < static_cast<int>(shapes.extent(0)); ++s) {
      const ObstacleState& o = shapes(s);
      const double dy = y - o.cy, r = reach(o);
      if (dy > r || -dy > r) continue;
      // One column more on each side than the square's: the test below decides, this only bounds it.
      const int i0 = column(o.cx - r) - 1, i1 = column(o.cx + r) + 1;
      team.team_barrier();  // the cells of this row another thread cleared or an earlier shape marked
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, i0 < 0 ? 0 : i0, i1 < g.sx ? i1 + 1 : g.sx), [&](int i) {
        if (!covers(o, (i - 0.5) * g.dx - o.cx, dy)) return;
        solid(base + i) = 1;
        su(base + i) = o.vx;
        sv(base + i) = o.vy;
      });
    }
  }
};

// Finiteness and the largest face speed over the interior, for the NaN/instability detector.
template <class Device>
struct FieldStatusReduce {
  struct value_type {
    double max_speed;
    int first_bad;  // flat cell index * 3 + field (0 u, 1 v, 2 p); INT_MAX when all finite
  };
  Grid2<Device> g;
  Kokkos::View<const double*, Device> u, v, p;

  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s.max_speed = 0, s.first_bad = 2147483647; }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const {
    if (s.max_speed > d.max_speed) d.max_speed = s.max_speed;
    if (s.first_bad < d.first_bad) d.first_bad = s.first_bad;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    if (s.max_speed > d.max_speed) d.max_speed = s.max_speed;
    if (s.first_bad < d.first_bad) d.first_bad = s.first_bad;
  }
  KOKKOS_INLINE_FUNCTION void operator()(int n, value_type& s) const {
    const int i = n % g.nx + 1, j = n / g.nx + 1, k = g.at(i, j);
    const double vals[3] = {u(k), v(k), p(k)};
    for (int f = 0; f < 3; ++f) {
      const double a = vals[f];
      if (!(a - a == 0.0)) {  // NaN or Inf
        if (k * 3 + f < s.first_bad) s.first_bad = k * 3 + f;
      } else if (f < 2) {
        const double m = a < 0 ? -a : a;
        if (m > s.max_speed) s.max_speed = m;
      }
    }
  }
};

}  // namespace immerse::mac2d
