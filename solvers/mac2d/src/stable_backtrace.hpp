#pragma once
// The departure points of semi-Lagrangian advection on the staggered grid, and the range of the
// values its bilinear sample there mixes (MacCormack's limiter). Positions are lattice indices and
// c = dt / h cells per (m/s), so no sample divides. The u lattice's index (i, j) is (x / h, y / h + 1/2),
// the v lattice's (x / h + 1/2, y / h); the v index of a u face is the u one + (1/2, -1/2).
// Midpoint (RK2) backtrace: the first stage needs the velocity at the face itself: its own component is
// the face value and the other the mean of the four nearest faces of that component, which is what the
// bilinear sample there reduces to (exactly so when h is a power of two): two of five samples saved.
// c < 0 traces forward in time (MacCormack's backward step).
#include "immerse/mac2d/row_access.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {

template <class T>
struct StableIndexT {
  T i, j;
};
using StableIndex = StableIndexT<double>;

// Access (row_access.hpp): one face, OneCell (every backend), or a host vector of the faces
// (i, j) ... (i + width - 1, j) along x, CellVector (their backtraces then sample by gathers).
// Where the fluid at u face (i, j) was c / (cells per m/s) ago, along the velocity (u, v).
template <class Access = OneCell, class V>
KOKKOS_INLINE_FUNCTION StableIndexT<typename Access::T> stable_departure_u(const V& u, const V& v, const StableGrid& g,
                                                                           int i, int j, double c) {
  using T = typename Access::T;
  const int k = g.at(i, j);
  T a = Access::load(u, k), b = 0.25 * Access::load(v, k - g.w) + 0.25 * Access::load(v, k - g.w + 1) +
                                0.25 * Access::load(v, k) + 0.25 * Access::load(v, k + 1);
  const T fi = Access::index(i) - 0.5 * c * a, fj = T(j) - 0.5 * c * b;
  a = stable_interp_index(u, g, fi, fj);
  b = stable_interp_index(v, g, fi + 0.5, fj - 0.5);
  return {Access::index(i) - c * a, T(j) - c * b};
}

// The same for v face (i, j); the u index of a v face is the v one + (-1/2, 1/2).
template <class Access = OneCell, class V>
KOKKOS_INLINE_FUNCTION StableIndexT<typename Access::T> stable_departure_v(const V& u, const V& v, const StableGrid& g,
                                                                           int i, int j, double c) {
  using T = typename Access::T;
  const int k = g.at(i, j);
  T a = 0.25 * Access::load(u, k - 1) + 0.25 * Access::load(u, k) + 0.25 * Access::load(u, k - 1 + g.w) +
        0.25 * Access::load(u, k + g.w),
    b = Access::load(v, k);
  const T fi = Access::index(i) - 0.5 * c * a, fj = T(j) - 0.5 * c * b;
  a = stable_interp_index(u, g, fi - 0.5, fj + 0.5);
  b = stable_interp_index(v, g, fi, fj);
  return {Access::index(i) - c * a, T(j) - c * b};
}

// Whether x lies within the four values stable_interp_index(f, g, p.i, p.j) mixes (the same clamp).
template <class V>
KOKKOS_INLINE_FUNCTION bool stable_within_stencil(const V& f, const StableGrid& g, StableIndex p, double x) {
  const double fi = clamp_index(p.i, g.nx + 0.999999), fj = clamp_index(p.j, g.ny + 0.999999);
  const int k = g.at(static_cast<int>(fi), static_cast<int>(fj));
  const double a = f(k), b = f(k + 1), c = f(k + g.w), d = f(k + g.w + 1);
  const double lo1 = a < b ? a : b, lo2 = c < d ? c : d, hi1 = a < b ? b : a, hi2 = c < d ? d : c;
  return x >= (lo1 < lo2 ? lo1 : lo2) && x <= (hi1 < hi2 ? hi2 : hi1);
}

}  // namespace immerse::mac2d
