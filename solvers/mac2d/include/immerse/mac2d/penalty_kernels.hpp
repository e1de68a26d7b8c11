#pragma once
// Kernels of the patent's explicit penalty scheme, written once over Kokkos Views and instantiated
// per execution space. Flat storage: (nx+2) x (ny+2) with x fastest; see HostFields for the staggering.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "immerse/mac2d/row_access.hpp"

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
// The cell update is written once for a number and for a host vector of cells.
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

  // The old-level velocities a cell's update reads, each loaded once: its own faces (u_c: the u
  // face to its right, v_c: the v face above it) and their neighbours east, west, north, south,
  // u's north-west and v's south-east. T is a number, or a vector of cells along x (row_access.hpp).
  template <class T>
  struct Stencil {
    T uc, ue, uw, un, us, unw;
    T vc, ve, vw, vn, vs, vse;
  };

  template <class Access>
  KOKKOS_FORCEINLINE_FUNCTION Stencil<typename Access::T> stencil(int c) const {
    const int sx = g.sx;
    return {Access::load(u, c),      Access::load(u, c + 1),      Access::load(u, c - 1),  Access::load(u, c + sx),
            Access::load(u, c - sx), Access::load(u, c - 1 + sx), Access::load(v, c),      Access::load(v, c + 1),
            Access::load(v, c - 1),  Access::load(v, c + sx),     Access::load(v, c - sx), Access::load(v, c + 1 - sx)};
  }

  // A cell's pressure, p = -div(u)/eps, from its faces' differences east - west and north - south.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION T pressure(T du, T dv) const {
    return -(du * rdx + dv * rdy) * inv_eps;
  }

  // A face's new velocity where one of its cells is solid: the obstacle's, the mean of the two where
  // both are; `next`, the fluid update, elsewhere. In arithmetic on 0/1 weights (a, b: the two
  // cells' solid flags; s0, s1: their obstacle velocities), not branches, so that the row loop stays
  // branch-free and vectorises. Each case is exact: a zero weight times a finite value adds zero
  // (the rasteriser zeroes the velocities of fluid cells).
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T obstacle_face(T a, T b, T s0, T s1, T next) {
    const T both = a * b, blocked = a + b - both;
    const T w = both * (0.5 * (s0 + s1)) + (a - both) * s0 + (b - both) * s1;
    return (1 - blocked) * next + w;
  }

  // What a row does with its v faces: update them with the north cell interior, update them with
  // the north cell a ghost (pressure 0: the patent's top row), or leave them (a wall).
  enum North { kNorthInterior, kNorthGhost, kNoV };

  // One cell, or one vector of cells: its pressure, the u face to its right, the v face above it.
  // The flags are compile-time so the loop over a row has no per-cell branches: kEast says the
  // east neighbour is a ghost (pressure 0: the last column); kNorth is fixed per row. A cell's
  // neighbours' pressures are recomputed from the stencil rather than read.
  template <bool kFull, bool kObstacles, bool kEast, int kNorth, class Access>
  KOKKOS_FORCEINLINE_FUNCTION void cell(int c, bool update_u) const {
    using T = typename Access::T;
    const Stencil<T> s = stencil<Access>(c);
    const T pc = pressure(s.uc - s.uw, s.vc - s.vs);
    Access::store(pn, c, pc);
    if (kEast ? update_u : true) {
      const T pe = kEast ? T(0.0) : pressure(s.ue - s.uc, s.ve - s.vse);
      const T vbar = 0.25 * (s.vs + s.vc + s.vse + s.ve);
      const T a = s.uc * (s.ue - s.uw) * rhx + vbar * (s.un - s.us) * rhy;
      const T lap = (s.ue - 2 * s.uc + s.uw) * rdx2 + (s.un - 2 * s.uc + s.us) * rdy2;
      T next = s.uc - a * dt - (pe - pc) * rdx * dt + lap * dt * inv_re;
      if (kObstacles)
        next = obstacle_face(Access::load(solid, c), Access::load(solid, c + 1), Access::load(solid_u, c),
                             Access::load(solid_u, c + 1), next);
      Access::store(un, c, next);
    }
    if (kNorth != kNoV) {
      const T pnorth = kNorth == kNorthInterior ? pressure(s.un - s.unw, s.vn - s.vc) : T(0.0);
      T b = s.vc * (s.vn - s.vs) * rhy;
      if (kFull) {
        const T ubar = 0.25 * (s.uw + s.uc + s.unw + s.un);
        b += ubar * (s.ve - s.vw) * rhx;
      }
      const T lap = (s.ve - 2 * s.vc + s.vw) * rdx2 + (s.vn - 2 * s.vc + s.vs) * rdy2;
      T next = s.vc - b * dt - (pnorth - pc) * rdy * dt + lap * dt * inv_re;
      if (kObstacles)
        next = obstacle_face(Access::load(solid, c), Access::load(solid, c + g.sx), Access::load(solid_v, c),
                             Access::load(solid_v, c + g.sx), next);
      Access::store(vn, c, next);
    }
  }

  template <bool kFull, bool kObstacles, int kNorth>
  KOKKOS_INLINE_FUNCTION void row(const member& team, int j) const {
    const int base = j * g.sx;
    // Cells 1..nx-1: east neighbour interior, u face updated (u_i_end >= nx - 1 always).
    const auto range = Kokkos::TeamThreadRange(team, 1, g.nx);
    if constexpr (std::is_same<typename Device::memory_space, Kokkos::HostSpace>::value) {
      // Host teams get the whole row. Explicit vectors, each stencil value loaded once: GCC's own
      // vectorisation of the scalar loop loaded most of them twice or three times, and the
      // unaligned loads, not the arithmetic, held the step back. The vectors start where the
      // cell index is a multiple of their width (aligned stores when the fields are); the cells
      // before and after take the scalar path.
      // A local copy of the kernel: through `this` GCC reloads every coefficient and view pointer
      // after each store (a store might change the kernel object).
      const PenaltyStep k = *this;
      int i = range.start;
#if defined(IMMERSE_HOST_LANES)
      constexpr int W = HostLanes<double>::width;
      const int head = (W - (base + i) % W) % W;
      for (const int end = i + head < range.end ? i + head : range.end; i < end; ++i)
        k.cell<kFull, kObstacles, false, kNorth, OneCell>(base + i, true);
      for (; i + W <= range.end; i += W) k.cell<kFull, kObstacles, false, kNorth, CellVector>(base + i, true);
#endif
#pragma GCC ivdep
      for (; i < range.end; ++i) k.cell<kFull, kObstacles, false, kNorth, OneCell>(base + i, true);
    } else {
      Kokkos::parallel_for(range, [&](int i) { cell<kFull, kObstacles, false, kNorth, OneCell>(base + i, true); });
    }
    // The last cell: east ghost, its u face updated only at an outflow (u_i_end == nx).
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { cell<kFull, kObstacles, true, kNorth, OneCell>(base + g.nx, u_i_end >= g.nx); });
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
