// The Stable Fluids predicted field: advection (stable_advect.cpp), body forces and implicit
// viscosity (predict), before the boundary map's force and the projection.
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
    const double c = p_.dt / g_.h;
    advect(vel_[0], vel_[1], vel_[0], vel_[1], c, pred_[0], pred_[1]);
    std::swap(vel_[0], pred_[0]);
    std::swap(vel_[1], pred_[1]);
    apply_walls();
    if (p_.advection == Advection::maccormack) {
      // vel_: the forward step's result, pred_: the velocity it started from; raw_ is free until below.
      apply_fixed();
      advect(vel_[0], vel_[1], pred_[0], pred_[1], -c, raw_[0], raw_[1]);
      maccormack_correct(pred_[0], pred_[1], raw_[0], raw_[1]);
      apply_walls();
    }
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
