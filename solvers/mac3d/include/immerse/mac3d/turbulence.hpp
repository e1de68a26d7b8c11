#pragma once
// The Langevin-rigid paper's turbulence precompute (sec. 5, Algorithm 1): a 3D MAC grid with
// semi-Lagrangian advection and a pressure projection carries a mean flow past the body (a voxel
// obstacle) from an inflow U0 at x = 0; k and eps are advected with it and integrated with the
// k-epsilon source terms without diffusion (paper eqs. 16-19):
//   D_t k = G - eps,  D_t eps = chi (C1 G - C2 eps),  chi = eps / k,  nu_T = C_mu k^2 / eps,
//   G = 2 nu_T S_ij S_ij,  C_mu 0.09, C1 1.44, C2 1.92;  k0 = 3/2 U0^2, eps0 = C_mu^(3/4) k0^(3/2) / l;
//   with Durbin's realizability bound on nu_T and a production limiter G <= c eps (see the kernel).
// Output: the series (chi(t), eps(t)) of the sampled region that the runtime queries.
// Kernels are written once over Kokkos Views and instantiated for every enabled backend.
#include <cstdint>
#include <string>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/choices.hpp"

namespace immerse::mac3d {

enum class Sampling { domain, shell };
inline const Choices<Sampling>& sampling_choices() {
  static const Choices<Sampling> c = {{"shell", Sampling::shell}, {"domain", Sampling::domain}};
  return c;
}

struct TurbulenceParams {
  int nx = 32, ny = 32, nz = 8;
  double h = 1e-3;   // cell size (m)
  double dt = 1e-3;  // time step (s)
  int steps = 100;
  int pressure_iterations = 60;  // Jacobi sweeps per projection, warm-started from the previous pressure
  double U0 = 1.0;               // inflow speed (m/s) along +x
  double k0 = -1;                // initial/inflow k (m^2/s^2); < 0: 3/2 U0^2
  double eps0 = -1;              // initial/inflow eps (m^2/s^3); < 0: C_mu^(3/4) k0^(3/2) / l
  double length = -1;            // l of eps0 (m); < 0: the cell size h
  double C_mu = 0.09, C1 = 1.44, C2 = 1.92;
  Sampling sampling = Sampling::shell;
  int shell_cells = 2;          // shell: fluid cells within this many cells (Chebyshev) of the body
  double production_limit = 0;  // c of G <= c eps; <= 0: C2 / C1 (eps never grows)
  double k_floor = 1e-12;       // k and eps are kept above these floors (no negative energies)
};

// Checks ranges and the advective stability of the semi-Lagrangian scheme's interpolation (CFL of
// U0: the backtrace stays well defined at any CFL, but the projection's accuracy needs U0 dt / h
// <= 5); InputError names the key.
void check_turbulence_params(const TurbulenceParams& p, const std::string& source);

struct TurbulenceResult {
  std::vector<double> time, chi, eps, k;  // one sample per step (after the step), sampled region means
  double precompute_ms = 0;
  long sampled_cells = 0;
  // final fields at cell centres (x fastest): speed, k, eps, solid
  std::vector<double> speed, k_field, eps_field;
  double max_divergence = 0;  // max |div u| h / U0 over fluid cells after the last projection
};

// Runs the precompute on backend b; `solid` has nx*ny*nz entries (x fastest), 1 inside the body.
// Throws NumericalError naming the field, cell and step if k, eps or the velocity become non-finite.
TurbulenceResult run_turbulence(Backend b, const TurbulenceParams& p, const std::vector<uint8_t>& solid);

}  // namespace immerse::mac3d
