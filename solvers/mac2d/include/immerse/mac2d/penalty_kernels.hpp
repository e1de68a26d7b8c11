#pragma once
// Kernels of the patent's explicit penalty scheme, written once over Kokkos Views and instantiated
// per execution space. Flat storage: (nx+2) x (ny+2) with x fastest; see HostFields for the staggering.
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace immerse::mac2d {

template <class Device>
struct Grid2 {
  using view = Kokkos::View<double*, Device>;
  int nx, ny, sx;  // interior cells; row stride nx + 2
  double dx, dy;
  KOKKOS_INLINE_FUNCTION int at(int i, int j) const { return j * sx + i; }
};

// One fused pass per step: the new pressure of each interior cell from the old velocities
// (eq. 4 with the printed eq. 7's lost minus sign restored: p = -div(u)/eps), then the new u face
// to its right and v face above it from the old velocities and the NEW pressure, explicit Euler
// with each term times dt (the patent's code listing). A cell's neighbours' pressures are
// recomputed rather than read, so pressure and velocities need one pass over memory, not two.
template <class Device>
struct PenaltyStep {
  using view = Kokkos::View<double*, Device>;
  using cview = Kokkos::View<const double*, Device>;
  using member = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  Grid2<Device> g;
  cview u, v;       // old level
  view un, vn, pn;  // new level
  Kokkos::View<const unsigned char*, Device> solid;
  cview solid_u, solid_v;  // obstacle velocity per solid cell
  double dt, inv_re, inv_eps;
  // Reciprocals of the spacings, set by set_spacing(): a division costs ~20 cycles, a multiply 1,
  // and a cell needs 16 of them.
  double rdx, rdy, rdx2, rdy2, rhx, rhy;
  int u_i_end, v_j_end;  // last updated u column / v row (walls stay fixed)
  bool full_advection;   // false: the patent's b = v dv/dy only
  bool has_obstacles;

  void set_spacing() {
    rdx = 1 / g.dx;
    rdy = 1 / g.dy;
    rdx2 = 1 / (g.dx * g.dx);
    rdy2 = 1 / (g.dy * g.dy);
    rhx = 1 / (2 * g.dx);
    rhy = 1 / (2 * g.dy);
  }

  // Interior cell pressure, p = -div(u)/eps, at flat index c.
  KOKKOS_FORCEINLINE_FUNCTION double pressure(int c) const {
    return -((u(c) - u(c - 1)) * rdx + (v(c) - v(c - g.sx)) * rdy) * inv_eps;
  }

  // A face's new velocity where one of its cells is solid: the obstacle's, the mean of the two where
  // both are; `next`, the fluid update, elsewhere. In arithmetic on 0/1 weights, not branches, so
  // that the row loop stays branch-free and vectorises. Each case is exact: a zero weight times a
  // finite value adds zero (the rasteriser zeroes the velocities of fluid cells).
  KOKKOS_FORCEINLINE_FUNCTION double obstacle_face(int c0, int c1, const cview& s, double next) const {
    const double a = solid(c0), b = solid(c1);
    const double both = a * b, blocked = a + b - both;
    const double w = both * (0.5 * (s(c0) + s(c1))) + (a - both) * s(c0) + (b - both) * s(c1);
    return (1 - blocked) * next + w;
  }

  // What a row does with its v faces: update them with the north cell interior, update them with
  // the north cell a ghost (pressure 0: the patent's top row), or leave them (a wall).
  enum North { kNorthInterior, kNorthGhost, kNoV };

  // One cell: its pressure, the u face to its right, the v face above it. The flags are
  // compile-time so the loop over a row has no per-cell branches (GCC then vectorises it): kEast
  // says the east neighbour is a ghost (pressure 0: the last column); kNorth is fixed per row.
  template <bool kFull, bool kObstacles, bool kEast, int kNorth>
  KOKKOS_FORCEINLINE_FUNCTION void cell(int c, bool update_u) const {
    const int sx = g.sx;
    const double pc = pressure(c);
    const double pe = kEast ? 0.0 : pressure(c + 1);
    const double pnorth = kNorth == kNorthInterior ? pressure(c + sx) : 0.0;
    pn(c) = pc;
    if (kEast ? update_u : true) {
      const double uc = u(c), ue = u(c + 1), uw = u(c - 1), unn = u(c + sx), us = u(c - sx);
      const double vbar = 0.25 * (v(c - sx) + v(c) + v(c + 1 - sx) + v(c + 1));
      const double a = uc * (ue - uw) * rhx + vbar * (unn - us) * rhy;
      const double lap = (ue - 2 * uc + uw) * rdx2 + (unn - 2 * uc + us) * rdy2;
      double next = uc - a * dt - (pe - pc) * rdx * dt + lap * dt * inv_re;
      if (kObstacles) next = obstacle_face(c, c + 1, solid_u, next);
      un(c) = next;
    }
    if (kNorth != kNoV) {
      const double vc = v(c), ve = v(c + 1), vw = v(c - 1), vnn = v(c + sx), vs = v(c - sx);
      double b = vc * (vnn - vs) * rhy;
      if (kFull) {
        const double ubar = 0.25 * (u(c - 1) + u(c) + u(c - 1 + sx) + u(c + sx));
        b += ubar * (ve - vw) * rhx;
      }
      const double lap = (ve - 2 * vc + vw) * rdx2 + (vnn - 2 * vc + vs) * rdy2;
      double next = vc - b * dt - (pnorth - pc) * rdy * dt + lap * dt * inv_re;
      if (kObstacles) next = obstacle_face(c, c + sx, solid_v, next);
      vn(c) = next;
    }
  }

  template <bool kFull, bool kObstacles, int kNorth>
  KOKKOS_INLINE_FUNCTION void row(const member& team, int j) const {
    const int base = j * g.sx;
    // Cells 1..nx-1: east neighbour interior, u face updated (u_i_end >= nx - 1 always).
    const auto range = Kokkos::TeamThreadRange(team, 1, g.nx);
    if constexpr (std::is_same<typename Device::memory_space, Kokkos::HostSpace>::value) {
      // Host teams get a contiguous block with unit stride; Kokkos' own loop steps by a run-time
      // increment, which keeps GCC from vectorising. Same cell(), plainer loop. Cells write only
      // their own faces and read only the old level, so iterations are independent.
#pragma GCC ivdep
      for (int i = range.start; i < range.end; ++i) cell<kFull, kObstacles, false, kNorth>(base + i, true);
    } else {
      Kokkos::parallel_for(range, [&](int i) { cell<kFull, kObstacles, false, kNorth>(base + i, true); });
    }
    // The last cell: east ghost, its u face updated only at an outflow (u_i_end == nx).
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { cell<kFull, kObstacles, true, kNorth>(base + g.nx, u_i_end >= g.nx); });
  }

  template <bool kFull, bool kObstacles>
  KOKKOS_INLINE_FUNCTION void row(const member& team, int j) const {
    if (j > v_j_end)
      row<kFull, kObstacles, kNoV>(team, j);
    else if (j == g.ny)
      row<kFull, kObstacles, kNorthGhost>(team, j);
    else
      row<kFull, kObstacles, kNorthInterior>(team, j);
  }

  // One team per row; the row's cells are spread over the team's threads (coalesced on GPUs, a
  // plain loop on CPUs where the team has one thread).
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int j = team.league_rank() + 1;
    if (full_advection) {
      if (has_obstacles)
        row<true, true>(team, j);
      else
        row<true, false>(team, j);
    } else {
      if (has_obstacles)
        row<false, true>(team, j);
      else
        row<false, false>(team, j);
    }
  }
};

// Boundary faces and ghost values of one time level. `patent` mode writes only the inflow face,
// as the patent's calcExtBoundary: u(0,j) = (s_j + u(1,j)) / 2. Physical mode runs in two passes:
// `rows == false` sets the left/right columns, `rows == true` then the bottom/top rows, whose
// corner ghosts read the column values (one pass would race on them).
template <class Device>
struct ApplyBoundaries {
  using view = Kokkos::View<double*, Device>;
  Grid2<Device> g;
  view u, v;
  Kokkos::View<const double*, Device> inflow;  // profile per row j = 0..ny+1
  bool patent;
  int left, right, bottom, top;  // Side values
  double bottom_wall_u, top_wall_u;
  bool rows;

  KOKKOS_INLINE_FUNCTION void operator()(int k) const {
    constexpr int kInflow = 0, kOutflow = 1, kNoslip = 2;
    const int nx = g.nx, ny = g.ny;
    if (patent) {
      if (k <= ny + 1) u(g.at(0, k)) = 0.5 * (inflow(k) + u(g.at(1, k)));
      return;
    }
    if (rows) {  // bottom and top rows: impermeable walls, tangential ghost by reflection
      const int i = k;
      v(g.at(i, 0)) = 0.0;
      v(g.at(i, ny)) = 0.0;
      u(g.at(i, 0)) = bottom == kNoslip ? 2 * bottom_wall_u - u(g.at(i, 1)) : u(g.at(i, 1));
      u(g.at(i, ny + 1)) = top == kNoslip ? 2 * top_wall_u - u(g.at(i, ny)) : u(g.at(i, ny));
      return;
    }
    const int j = k;  // left and right columns
    if (j >= 1 && j <= ny) {
      u(g.at(0, j)) = left == kInflow ? inflow(j) : 0.0;
      if (right == kOutflow) {
        u(g.at(nx + 1, j)) = u(g.at(nx, j));
      } else {
        u(g.at(nx, j)) = 0.0;
        u(g.at(nx + 1, j)) = 0.0;
      }
    }
    if (j <= ny) {  // v ghosts: v = 0 at an inflow or no-slip side, zero gradient at outflow/slip
      v(g.at(0, j)) = (left == kInflow || left == kNoslip) ? -v(g.at(1, j)) : v(g.at(1, j));
      v(g.at(nx + 1, j)) = right == kNoslip ? -v(g.at(nx, j)) : v(g.at(nx, j));
    }
  }
};

}  // namespace immerse::mac2d
