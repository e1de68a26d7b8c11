// The Stable Fluids predicted field: semi-Lagrangian advection, body forces and implicit viscosity
// (predict), before the boundary map's force and the projection.
#include "immerse/core/backend.hpp"
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {

template <class Exec>
void StableSolver<Exec>::predict() {
  timed("boundaries", [&] {
    if (walls_depend_on_t_) sample_walls(time_);
    apply_walls();
    apply_fixed();  // advection interpolates the body velocity inside the body (eqs. 9-12)
  });
  timed("advection", [&] {
    const StableGrid g = g_;
    const double dt = p_.dt;
    auto u = vel_[0], v = vel_[1], nu_ = pred_[0], nv = pred_[1];
    // No copy of u into the target first: the kernel writes every interior face, apply_walls() below
    // every normal boundary face and tangential ghost, and the entries neither touches (corner ghosts,
    // the faces outside the domain) are never written by any kernel, so both buffers hold the same.
    // Semi-Lagrangian with a midpoint (RK2) backtrace and bilinear interpolation.
    // The first RK2 stage needs the velocity at the face itself: its own component is the face value
    // and the other the mean of the four nearest faces of that component, which is what the bilinear
    // sample there reduces to (exactly so when h is a power of two): two of the five samples per face
    // saved.
    // Positions are lattice indices and displacements c = dt / h cells per (m/s), so no sample divides
    // (stable_interp's x / h is two divisions per sample). The u lattice's index (i, j) is
    // (x / h, y / h + 1/2), the v lattice's (x / h + 1/2, y / h).
    // u faces (i < nx) and v faces (j < ny) in a loop each, with no test on the face inside (the
    // loops stay scalar: GCC finds the gathers not worth vectorising).
    const double c = dt / g.h;
    cell_for<Exec>(
        "stable_advect_u", 1, g.nx, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);  // the v lattice index is the u one + (1/2, -1/2)
          double a = u(k), b = 0.25 * v(k - g.w) + 0.25 * v(k - g.w + 1) + 0.25 * v(k) + 0.25 * v(k + 1);
          const double fi = i - 0.5 * c * a, fj = j - 0.5 * c * b;
          a = stable_interp_index(u, g, fi, fj);
          b = stable_interp_index(v, g, fi + 0.5, fj - 0.5);
          nu_(k) = stable_interp_index(u, g, i - c * a, j - c * b);
        });
    cell_for<Exec>(
        "stable_advect_v", 1, g.nx + 1, 1, g.ny, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);  // the u lattice index is the v one + (-1/2, 1/2)
          double a = 0.25 * u(k - 1) + 0.25 * u(k) + 0.25 * u(k - 1 + g.w) + 0.25 * u(k + g.w), b = v(k);
          const double fi = i - 0.5 * c * a, fj = j - 0.5 * c * b;
          a = stable_interp_index(u, g, fi - 0.5, fj + 0.5);
          b = stable_interp_index(v, g, fi, fj);
          nv(k) = stable_interp_index(v, g, i - c * a, j - c * b);
        });
    std::swap(vel_[0], pred_[0]);
    std::swap(vel_[1], pred_[1]);
    apply_walls();
    Kokkos::deep_copy(raw_[0], vel_[0]);
    Kokkos::deep_copy(raw_[1], vel_[1]);
    apply_fixed();
  });
  timed("diffusion", [&] {
    if (p_.nu > 0) {
      if (p_.viscosity_solver == LinearSolver::jacobi) {
        diffuse_jacobi(0);
        diffuse_jacobi(1);
      } else
        diffuse_rbgs();
    }
    apply_fixed();
  });
  timed("forces", [&] {
    const StableGrid g = g_;
    const double fx = p_.fx * p_.dt, fy = p_.fy * p_.dt;
    auto u = vel_[0], v = vel_[1];
    auto cu = code_[0], cv = code_[1];
    if (fx != 0 || fy != 0)
      cell_for<Exec>(
          "stable_force", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
            if (i < g.nx && cu(g.at(i, j)) != kFaceFixed) u(g.at(i, j)) += fx;
            if (j < g.ny && cv(g.at(i, j)) != kFaceFixed) v(g.at(i, j)) += fy;
          });
    Kokkos::deep_copy(pred_[0], vel_[0]);
    Kokkos::deep_copy(pred_[1], vel_[1]);
  });
}

#define IMMERSE_INSTANTIATE(Exec) template void StableSolver<Exec>::predict();
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
