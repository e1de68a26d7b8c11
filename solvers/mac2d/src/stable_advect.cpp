// Advection of the Stable Fluids velocity: the semi-Lagrangian step (Stam 1999, the paper's) and
// MacCormack's correction of it (Selle, Fedkiw, Kim, Liu & Rossignac 2008).
#include "immerse/core/backend.hpp"
#include "stable_backtrace.hpp"
#include "stable_loops.hpp"

namespace immerse::mac2d {

// (du, dv) = (qu, qv) sampled at the departure points along (tu, tv), c = dt / h (negative: forward).
// Every interior face is written; apply_walls() sets the normal boundary faces and tangential ghosts.
// Faces neither touches (corner ghosts, the faces outside the domain) are never written by any kernel,
// so every buffer holds the same there. u faces (i < nx) and v faces (j < ny) in a loop each, with no
// test on the face inside (the loops stay scalar: GCC finds the gathers not worth vectorising).
template <class Exec>
void StableSolver<Exec>::advect(const view& qu, const view& qv, const view& tu, const view& tv, double c,
                                const view& du, const view& dv) {
  const StableGrid g = g_;
  cell_for<Exec>(
      "stable_advect_u", 1, g.nx, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
        const StableIndex p = stable_departure_u(tu, tv, g, i, j, c);
        du(g.at(i, j)) = stable_interp_index(qu, g, p.i, p.j);
      });
  cell_for<Exec>(
      "stable_advect_v", 1, g.nx + 1, 1, g.ny, KOKKOS_LAMBDA(int i, int j) {
        const StableIndex p = stable_departure_v(tu, tv, g, i, j, c);
        dv(g.at(i, j)) = stable_interp_index(qv, g, p.i, p.j);
      });
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
