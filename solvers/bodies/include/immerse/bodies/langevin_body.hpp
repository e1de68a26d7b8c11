#pragma once
// Host-side set-up of the Langevin-rigid runtime (langevin_rigid.hpp): a body's generalized mass
// from its mesh, density and added-mass matrix, its initial state, and the batch of N independent
// bodies stepped in one Kokkos kernel on any backend.
#include <cstdint>
#include <string>
#include <vector>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/bodies/langevin_rigid.hpp"
#include "immerse/core/backend_id.hpp"

namespace immerse::bodies {

// `mesh` in metres with its centroid at the origin (body frame = mesh axes); inertia J_0 from the
// mesh at `body_density`; K = [m I + M_f, C; C^T, J_0 + J_f] with the added mass's blocks.
LangevinBodyParams langevin_body_params(const TriMesh& mesh, double body_density, double fluid_density,
                                        const Matrix6d& added_mass, double Re, bool langevin);

// Switches on the slender-wing lift (langevin_lift_force) of a wing flying toward `nose` with normal
// `normal` (body frame; the normal is made perpendicular to the nose, and both unit): the span b is the
// mesh's extent along normal x nose, the trailing edge the mesh's rearmost point along the nose, taken
// on the axis through the centre of mass. Throws InputError, its message starting with `where` (the file
// and key), if the two are parallel or one is zero.
void langevin_set_lift(LangevinBodyParams& p, const TriMesh& mesh, const double nose[3], const double normal[3],
                       const std::string& where);

// Rotation from Euler angles (x, then y, then z; radians) and the initial state.
LangevinBodyState langevin_initial_state(const double position[3], const double euler_xyz[3], const double v_body[3],
                                         const double omega_body[3]);

// The turbulence series kept on the host for the single-body runtime.
struct LangevinSeries {
  std::vector<double> chi, eps;
  double dt = 1;
  LangevinTurbulence view() const { return {chi.data(), eps.data(), int(chi.size()), dt}; }
};

// Advances every body `steps` steps of dt, from step first_step (time first_step dt), with one
// Kokkos kernel (a thread per body) on backend b; body i draws its kicks from (seed, i, step). Results equal the host
// loop bit for bit up to the compiler's floating-point contraction.
void langevin_batch_advance(Backend b, const LangevinBodyParams& p, const LangevinSeries& series,
                            std::vector<LangevinBodyState>& states, long first_step, double dt, long steps,
                            uint64_t seed);

}  // namespace immerse::bodies
