#pragma once
// Body -> water for the floating-bodies paper (the paper's sec. 2.3), as Kokkos kernels on every backend.
// The paper renders depth buffers to find each body's submerged section; here the downward-facing
// wetted pieces found by float_body_loads are rasterised on the water grid (cell centre inside the
// projected piece -> the cell belongs to that body). Each mask cell with water neighbours gets the
// normal of eq. 8-9, n = N / |N| with N the sum of the (unnormalised) offsets to its adjacent water
// cells, and pushes the water with eq. 7:
//   F = k+ (V . n) n  when V . n > 0 (the body pushes),  k- (V . n) n  otherwise (it drags),
// V the body's horizontal velocity at the cell. The paper does not give F's units; here k+/k- are
// rates (1/s): F = k h (V . n) n makes the cell's momentum h u relax towards the body's normal
// velocity at rate k, so k+ = 10/s, k- = 1/s keeps the paper's k+/k- ~ 10. One step never drives
// the cell's normal velocity past the body's (F . n dt <= h (V . n - u . n) when pushing, the mirror
// when dragging): a body cannot push water faster than it moves itself, which keeps fast spinning
// bodies (a capsizing mast) from blowing up the water. The paper's eq. 7 has no such cap.
// The water's fields are in R, the arithmetic type of its storage (double, or float for fp32 and
// fp16s); the forcing is computed in double and rounded to R where it is written.
#include <Kokkos_Core.hpp>

namespace immerse::coupling {

template <class Device>
struct FloatMaskViews {
  Kokkos::View<double* [6], Device> tris;    // projected wetted pieces
  Kokkos::View<int*, Device> tri_body;       // body index of each piece
  Kokkos::View<double* [8], Device> bodies;  // x, y, z of the CoM, vx, vy, wx, wy, wz
  Kokkos::View<int*, Device> mask;           // body index per cell, -1: open water
};

// Run over the cells whose mask the forcing reads; the forces of cells [force_lo, force_hi) (those
// this process updates: where ranks share the water's memory, the other ranks' are theirs).
template <class Device, class R = double>
struct FloatClearMask {
  Kokkos::View<int*, Device> mask;
  Kokkos::View<R*, Device> fx, fy;
  int force_lo, force_hi;
  KOKKOS_INLINE_FUNCTION void operator()(const int c) const {
    mask(c) = -1;
    if (c < force_lo || c >= force_hi) return;
    fx(c) = 0;
    fy(c) = 0;
  }
};

// The rows of the grid a process holds: all of them, or a block of a lattice split among ranks
// (swlbm::SwBlock), whose local row j is the whole grid's row j0 + j. Rows outside [0, whole_ny)
// (a ghost row across a periodic border) are not part of the grid here, as on one process.
struct FloatRows {
  int j0 = 0, whole_ny = 0;  // whole_ny 0: the whole grid is the local one
  KOKKOS_INLINE_FUNCTION int whole(int ny) const { return whole_ny > 0 ? whole_ny : ny; }
  KOKKOS_INLINE_FUNCTION bool holds(int local_j, int ny) const {
    return local_j >= 0 && local_j < ny && j0 + local_j >= 0 && j0 + local_j < whole(ny);
  }
};

template <class Device>
struct FloatRasterise {
  FloatMaskViews<Device> v;
  int nx, ny;  // the local grid
  double dx;
  FloatRows rows;
  KOKKOS_INLINE_FUNCTION static double edge(double ax, double ay, double bx, double by, double px, double py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int t) const {
    const double x0 = v.tris(t, 0), y0 = v.tris(t, 1), x1 = v.tris(t, 2), y1 = v.tris(t, 3), x2 = v.tris(t, 4),
                 y2 = v.tris(t, 5);
    const double area = edge(x0, y0, x1, y1, x2, y2);
    if (area == 0) return;
    const double lo_x = x0 < x1 ? (x0 < x2 ? x0 : x2) : (x1 < x2 ? x1 : x2);
    const double hi_x = x0 > x1 ? (x0 > x2 ? x0 : x2) : (x1 > x2 ? x1 : x2);
    const double lo_y = y0 < y1 ? (y0 < y2 ? y0 : y2) : (y1 < y2 ? y1 : y2);
    const double hi_y = y0 > y1 ? (y0 > y2 ? y0 : y2) : (y1 > y2 ? y1 : y2);
    // Cells whose centre (i + 1/2) dx lies in the bounding box (j: the whole grid's rows).
    int i0 = static_cast<int>(Kokkos::Experimental::ceil(lo_x / dx - 0.5));
    int i1 = static_cast<int>(Kokkos::Experimental::floor(hi_x / dx - 0.5));
    int j0 = static_cast<int>(Kokkos::Experimental::ceil(lo_y / dx - 0.5));
    int j1 = static_cast<int>(Kokkos::Experimental::floor(hi_y / dx - 0.5));
    const int first = rows.j0 > 0 ? rows.j0 : 0,
              last = rows.j0 + ny < rows.whole(ny) ? rows.j0 + ny - 1 : rows.whole(ny) - 1;
    i0 = i0 < 0 ? 0 : i0;
    j0 = j0 < first ? first : j0;
    i1 = i1 > nx - 1 ? nx - 1 : i1;
    j1 = j1 > last ? last : j1;
    const int body = v.tri_body(t);
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const double px = (i + 0.5) * dx, py = (j + 0.5) * dx;
        const double e0 = edge(x0, y0, x1, y1, px, py), e1 = edge(x1, y1, x2, y2, px, py),
                     e2 = edge(x2, y2, x0, y0, px, py);
        const bool inside = area > 0 ? (e0 >= 0 && e1 >= 0 && e2 >= 0) : (e0 <= 0 && e1 <= 0 && e2 <= 0);
        // Overlapping bodies: the highest index wins, whatever the thread order.
        if (inside) Kokkos::atomic_fetch_max(&v.mask((j - rows.j0) * nx + i), body);
      }
  }
};

template <class Device, class R = double>
struct FloatForcing {
  FloatMaskViews<Device> v;
  Kokkos::View<R*, Device> h, ux, uy, fx, fy;
  int nx, ny;  // the local grid
  double dx, dt, k_plus, k_minus;
  FloatRows rows;
  KOKKOS_INLINE_FUNCTION void operator()(const int c) const {
    const int b = v.mask(c);
    if (b < 0) return;
    const int i = c % nx, j = c / nx;
    int Nx = 0, Ny = 0;  // eq. 8: sum of the offsets to adjacent water cells
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const int ii = i + di, jj = j + dj;
        if ((di == 0 && dj == 0) || ii < 0 || ii >= nx || !rows.holds(jj, ny)) continue;
        if (v.mask(jj * nx + ii) < 0) {
          Nx += di;
          Ny += dj;
        }
      }
    if (Nx == 0 && Ny == 0) return;  // inside the section (or a symmetric sliver): no boundary
    const double norm = Kokkos::Experimental::sqrt(static_cast<double>(Nx * Nx + Ny * Ny));
    const double nxu = Nx / norm, nyu = Ny / norm;  // eq. 9
    const double hc = h(c), uxc = ux(c), uyc = uy(c);
    // The body's horizontal velocity at the cell centre (at the water surface z = h).
    const double rx = (i + 0.5) * dx - v.bodies(b, 0), ry = (rows.j0 + j + 0.5) * dx - v.bodies(b, 1),
                 rz = hc - v.bodies(b, 2);
    const double wx = v.bodies(b, 5), wy = v.bodies(b, 6), wz = v.bodies(b, 7);
    const double Vx = v.bodies(b, 3) + wy * rz - wz * ry, Vy = v.bodies(b, 4) + wz * rx - wx * rz;
    const double Vn = Vx * nxu + Vy * nyu;
    const double k = Vn > 0 ? k_plus : k_minus;  // eq. 7
    const double un = uxc * nxu + uyc * nyu;
    double Fn = k * hc * Vn;
    const double limit = hc * (Vn - un) / dt;
    if (Vn > 0)
      Fn = Fn < limit ? Fn : (limit > 0 ? limit : 0.0);
    else
      Fn = Fn > limit ? Fn : (limit < 0 ? limit : 0.0);
    fx(c) = static_cast<R>(Fn * nxu);
    fy(c) = static_cast<R>(Fn * nyu);
  }
};

}  // namespace immerse::coupling
