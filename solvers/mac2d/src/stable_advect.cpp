// Advection of the Stable Fluids velocity: the semi-Lagrangian step (Stam 1999, the paper's) and
// MacCormack's correction of it (Selle, Fedkiw, Kim, Liu & Rossignac 2008).
#include "immerse/core/backend.hpp"
#include "stable_backtrace.hpp"
#include "stable_loops.hpp"

namespace immerse::mac2d {

namespace {
// Face (i, j) of one component advected: q sampled at its departure point along (tu, tv). kU: the u
// faces (qu into du) or the v faces (qv into dv). Access: one face, or a host vector of faces.
template <class V, bool kU>
struct AdvectFaces {
  V q, tu, tv, d;
  StableGrid g;
  double c;
  template <class Access>
  KOKKOS_INLINE_FUNCTION void operator()(Access, int i, int j) const {
    const auto p = kU ? stable_departure_u<Access>(tu, tv, g, i, j, c) : stable_departure_v<Access>(tu, tv, g, i, j, c);
    Access::store(d, g.at(i, j), stable_interp_index(q, g, p.i, p.j));
  }
};

#if defined(IMMERSE_HOST_GATHER)
// A host array through a plain pointer: the host rows below take the same types on every host
// backend, so there is one copy of their machine code. GCC fuses multiply-adds per copy: with a
// copy per backend, Serial and OpenMP fused differently, and the cavity's centreline came out
// 1e-11 apart after 100 steps.
struct HostField {
  double* p;
  double& operator()(int k) const { return p[k]; }
  double* data() const { return p; }
};

// The faces i0 <= i < i1 of row j: whole vectors of faces along x, then one face at a time. The
// samples are gathers, which GCC does not vectorise in the plain loop (it kept that loop scalar).
template <bool kU>
__attribute__((noinline)) void advect_host_row(const AdvectFaces<HostField, kU>& f, int j, int i0, int i1) {
  constexpr int W = HostLanes<double>::width;
  int i = i0;
  for (; i + W <= i1; i += W) f(CellVector{}, i, j);
  for (; i < i1; ++i) f(OneCell{}, i, j);
}
#endif
}  // namespace

// (du, dv) = (qu, qv) sampled at the departure points along (tu, tv), c = dt / h (negative: forward).
// Every interior face is written; apply_walls() sets the normal boundary faces and tangential ghosts.
// Faces neither touches (corner ghosts, the faces outside the domain) are never written by any kernel,
// so every buffer holds the same there. u faces (i < nx) and v faces (j < ny) in a loop each, with no
// test on the face inside.
template <class Exec>
void StableSolver<Exec>::advect(const view& qu, const view& qv, const view& tu, const view& tv, double c,
                                const view& du, const view& dv) {
  const StableGrid g = g_;
#if defined(IMMERSE_HOST_GATHER)
  if constexpr (kRowLoops<Exec>) {
    const AdvectFaces<HostField, true> fu{{qu.data()}, {tu.data()}, {tv.data()}, {du.data()}, g, c};
    const AdvectFaces<HostField, false> fv{{qv.data()}, {tu.data()}, {tv.data()}, {dv.data()}, g, c};
    Kokkos::parallel_for("stable_advect_u", Kokkos::RangePolicy<Exec>(1, g.ny + 1),
                         [=](int j) { advect_host_row(fu, j, 1, g.nx); });
    Kokkos::parallel_for("stable_advect_v", Kokkos::RangePolicy<Exec>(1, g.ny),
                         [=](int j) { advect_host_row(fv, j, 1, g.nx + 1); });
    return;
  }
#endif
  const AdvectFaces<view, true> fu{qu, tu, tv, du, g, c};
  const AdvectFaces<view, false> fv{qv, tu, tv, dv, g, c};
  cell_for<Exec>(
      "stable_advect_u", 1, g.nx, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) { fu(OneCell{}, i, j); });
  cell_for<Exec>(
      "stable_advect_v", 1, g.nx + 1, 1, g.ny, KOKKOS_LAMBDA(int i, int j) { fv(OneCell{}, i, j); });
}

// vel_ holds the forward step's result (u^), (un, vn) the velocity it started from (u^n), (bu, bv)
// u^ taken back along u^n (the backward step). MacCormack: u^ + (u^n - backward) / 2, the forward
// step's error estimated from the round trip. Selle et al.'s limiter: where that leaves the range of
// the four values the forward step interpolated, the face keeps u^ (a new extremum is the
// correction overshooting at a sharp front; without this the scheme is not stable at large CFL).
template <class Exec>
void StableSolver<Exec>::maccormack_correct(const view& un, const view& vn, const view& bu, const view& bv) {
  const StableGrid g = g_;
  const double c = p_.dt / g.h;
  auto u = vel_[0], v = vel_[1];
  cell_for<Exec>(
      "stable_maccormack_u", 1, g.nx, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
        const int k = g.at(i, j);
        const double x = u(k) + 0.5 * (un(k) - bu(k));
        if (stable_within_stencil(un, g, stable_departure_u(un, vn, g, i, j, c), x)) u(k) = x;
      });
  cell_for<Exec>(
      "stable_maccormack_v", 1, g.nx + 1, 1, g.ny, KOKKOS_LAMBDA(int i, int j) {
        const int k = g.at(i, j);
        const double x = v(k) + 0.5 * (vn(k) - bv(k));
        if (stable_within_stencil(vn, g, stable_departure_v(un, vn, g, i, j, c), x)) v(k) = x;
      });
}

#define IMMERSE_INSTANTIATE(Exec)                                                                                   \
  template void StableSolver<Exec>::advect(const view&, const view&, const view&, const view&, double, const view&, \
                                           const view&);                                                            \
  template void StableSolver<Exec>::maccormack_correct(const view&, const view&, const view&, const view&);
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
