// The Stable Fluids implicit viscosity solve: damped Jacobi or red-black SOR on u and v, with the
// cut-cell stencils the body constraints add.
#include "immerse/core/backend.hpp"
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {

template <class Exec>
void StableSolver<Exec>::diffuse_jacobi(int c) {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  auto f = vel_[c], rhs = tmp_, out = b_;
  auto code = code_[c];
  auto dd = ddiag_[c], dr = drhs_[c];
  auto dm = dmask_[c];
  Kokkos::deep_copy(rhs, f);  // phi* (advected)
  const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
  // (1 + a (4 + dd)) phi - a sum(unmasked neighbours) = phi* + a dr
  auto relax = [=] KOKKOS_FUNCTION(const Kokkos::View<double*, device>& src, int i, int j) {
    const int k = g.at(i, j);
    const int m = dm(k);
    double s = 0;
    if (!(m & 1)) s += src(k - 1);
    if (!(m & 2)) s += src(k + 1);
    if (!(m & 4)) s += src(k - g.w);
    if (!(m & 8)) s += src(k + g.w);
    return (rhs(k) + a * (s + dr(k))) / (1 + a * (4 + dd(k)));
  };
  const auto t0 = std::chrono::steady_clock::now();
  int it = 0;
  double res = 0;
  bool converged = false;
  while (it < p_.max_iterations) {
    Kokkos::deep_copy(out, f);
    cell_for<Exec>(
        "stable_visc_jacobi", 1, i1 + 1, 1, j1 + 1, KOKKOS_LAMBDA(int i, int j) {
          if (code(g.at(i, j)) != kFaceFixed) out(g.at(i, j)) = relax(f, i, j);
        });
    Kokkos::deep_copy(f, out);
    ++it;
    if (it % 2 == 0 || it == 1) {
      cell_reduce<Exec>(
          "stable_visc_residual", 1, i1 + 1, 1, j1 + 1,
          KOKKOS_LAMBDA(int i, int j, double& r) {
            const int k = g.at(i, j);
            if (code(k) == kFaceFixed) return;
            const double d = Kokkos::Experimental::fabs(relax(f, i, j) - f(k)) * (1 + a * (4 + dd(k)));
            r = d > r ? d : r;
          },
          Kokkos::Max<double>(res));
      stop_if_diverged("viscosity", res);
      if (res <= p_.viscosity_tol) {
        converged = true;
        break;
      }
    }
  }
  if (!converged) stop_unconverged("viscosity", it, res);
  vstats_.solves++;
  vstats_.iterations += it;
  vstats_.last_iterations = it;
  vstats_.last_residual = res;
  vstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  apply_walls();
}

// Red-black SOR on (1 + a (4 + dd)) phi - a sum(unmasked neighbours) = phi* + a dr for u and v (the
// two systems are independent and every neighbour of a red face is black), until max |residual| <=
// viscosity_tol, measured after the sweeps. Every row has diagonal 1 + a (4 + dd) against an
// off-diagonal sum a n (a masked neighbour adds dd >= -1), so Jacobi contracts the error by
// q <= 4a / (1 + 4a) per sweep in the max norm and a red-black sweep by q^2 (0.065 for the bar at
// a = 0.085, 0.32 for the windmill at a = 0.33): consecutive steps need nearly the same number of
// sweeps, and a residual pass costs as much as a sweep. So a solve runs the previous solve's count,
// then checks; one more sweep and check while above the tolerance; every kProbeEvery solves one sweep
// fewer is tried, so the count also comes down.
// The sweeps' coefficients of both components for this solve: phi_new = c0 + ca * (sum of unmasked
// neighbours) with c0 = (phi* + a dr) / D, ca = a / D, D = 1 + a (4 + dd). A fixed face gets c0 = its
// value and ca = 0, so a sweep leaves it unchanged without reading its code. Computed once per solve
// rather than per sweep: the division per face (two vdivpd per eight faces on AVX2) was a fifth of
// the sweep's samples, and the sweeps no longer read phi*, dr or the code.
template <class Exec>
void StableSolver<Exec>::visc_coefficients() {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  for (int c = 0; c < 2; ++c) {
    if (vc0_[c].extent(0) != vel_[c].extent(0)) {
      vc0_[c] = view("visc_c0", vel_[c].extent(0));
      vca_[c] = view("visc_ca", vel_[c].extent(0));
    }
    auto f = vel_[c], rhs = raw_[c], dd = ddiag_[c], dr = drhs_[c], c0 = vc0_[c], ca = vca_[c];
    auto code = code_[c];
    const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
    cell_for<Exec>(
        "stable_visc_coefficients", 1, i1 + 1, 1, j1 + 1, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);
          const double inv = 1 / (1 + a * (4 + dd(k)));
          const bool fixed = code(k) == kFaceFixed;
          c0(k) = fixed ? f(k) : (rhs(k) + a * dr(k)) * inv;
          ca(k) = fixed ? 0.0 : a * inv;
        });
  }
}

// Max |residual| over both components' faces, D |c0 + ca sum - phi| (the system's residual; 0 at
// fixed faces), a pass per component written like the sweeps below (selects only): one pass over
// both, with a branch per component, vectorised into masked loads and register spills and took
// about three sweeps' time (measured).
template <class Exec>
double StableSolver<Exec>::viscosity_residual() const {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  double res = 0;
  for (int c = 0; c < 2; ++c) {
    auto f = vel_[c], c0 = vc0_[c], ca = vca_[c], dd = ddiag_[c];
    auto dm = dmask_[c];
    const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
    double rc = 0;
    cell_reduce<Exec>(
        "stable_visc_residual", 1, i1 + 1, 1, j1 + 1,
        KOKKOS_LAMBDA(int i, int j, double& r) {
          const int k = g.at(i, j);
          const int m = dm(k);
          const double fw = f(k - 1), fe = f(k + 1), fs = f(k - g.w), fn = f(k + g.w);
          const double sum = ((m & 1) ? 0.0 : fw) + ((m & 2) ? 0.0 : fe) + ((m & 4) ? 0.0 : fs) + ((m & 8) ? 0.0 : fn);
          const double d = Kokkos::Experimental::fabs((c0(k) + ca(k) * sum - f(k)) * (1 + a * (4 + dd(k))));
          r = d > r ? d : r;
        },
        Kokkos::Max<double>(rc));
    res = rc > res ? rc : res;
  }
  return res;
}

// n red-black SOR sweeps on u, then on v (coefficients from visc_coefficients()).
template <class Exec>
void StableSolver<Exec>::visc_sweeps(int n) {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  // Over-relaxation at Young's optimum for red-black ordering: (1 + 4a) u - a (sum of neighbours)
  // has Jacobi spectral radius at most rho = 4a / (1 + 4a) (cut cells only add to the diagonal), so
  // omega = 2 / (1 + sqrt(1 - rho^2)) and the error falls by omega - 1 per sweep instead of rho^2.
  const double rho = 4 * a / (1 + 4 * a), om = 2 / (1 + std::sqrt(1 - rho * rho));
  // u and v one after the other (independent systems), each without branches on the cell (selects
  // only), so that the row loops vectorise (GCC 12 does not when one loop relaxes both).
  for (int c = 0; c < 2; ++c) {
    auto f = vel_[c], c0 = vc0_[c], ca = vca_[c];
    auto dm = dmask_[c];
    // The component's interior faces are (i, j) for i <= i1, j <= j1 (the colour of a face is its
    // cell's, so the sweeps over this smaller range keep the red-black order).
    const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
    colour_sweeps<Exec>(
        "stable_visc_gs", i1, j1, 0, 2 * n, KOKKOS_LAMBDA(int i, int j, int) {
          const int k = g.at(i, j);
          const int m = dm(k);
          // Neighbours read unconditionally, then masked: a conditional read would be a masked strided
          // load, which GCC 12 does not vectorise.
          const double fw = f(k - 1), fe = f(k + 1), fs = f(k - g.w), fn = f(k + g.w);
          const double sum = ((m & 1) ? 0.0 : fw) + ((m & 2) ? 0.0 : fe) + ((m & 4) ? 0.0 : fs) + ((m & 8) ? 0.0 : fn);
          f(k) += om * (c0(k) + ca(k) * sum - f(k));
        });
  }
}

template <class Exec>
void StableSolver<Exec>::diffuse_rbgs() {
  constexpr long kProbeEvery = 8;
  const auto t0 = std::chrono::steady_clock::now();
  int sweeps = std::max(1, visc_guess_ - (vstats_.solves % kProbeEvery == kProbeEvery - 1 ? 1 : 0));
  visc_coefficients();
  visc_sweeps(sweeps);
  double res = viscosity_residual();
  bool converged = res <= p_.viscosity_tol;
  while (!converged && sweeps < p_.max_iterations) {
    stop_if_diverged("viscosity", res);
    visc_sweeps(1), ++sweeps;
    res = viscosity_residual();
    converged = res <= p_.viscosity_tol;
  }
  if (!converged) stop_unconverged("viscosity", sweeps, res);
  visc_guess_ = sweeps;
  vstats_.solves++;
  vstats_.iterations += sweeps;
  vstats_.last_iterations = sweeps;
  vstats_.last_residual = res;
  vstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  apply_walls();
}

#define IMMERSE_INSTANTIATE(Exec)                                 \
  template void StableSolver<Exec>::diffuse_jacobi(int);          \
  template void StableSolver<Exec>::visc_coefficients();          \
  template double StableSolver<Exec>::viscosity_residual() const; \
  template void StableSolver<Exec>::visc_sweeps(int);             \
  template void StableSolver<Exec>::diffuse_rbgs();
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
