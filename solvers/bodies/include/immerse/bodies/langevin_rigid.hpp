#pragma once
// The Langevin-rigid runtime: one rigid body in fluid, body-frame generalized Kirchhoff equations
// with the added-mass matrix, buoyancy-corrected gravity, Langevin relaxation and stochastic kicks
// driven by the precomputed turbulence series (chi(t), eps(t)), RK4 with R re-orthonormalised, a
// ground plane. Written on plain arrays with KOKKOS_INLINE_FUNCTION so the same code steps one body
// on the host and N bodies in one Kokkos kernel on any backend (no Eigen, no std:: containers).
//
// Equations (Weissmann & Pinkall 2012, Fernandes et al. 2008; the paper's eq. 4/13/14 are garbled),
// xi = (v, omega) in the body frame, K the 6x6 generalized mass [m I + M_f, C; C^T, J_0 + J_f]:
//   (p, l) = K xi,  p' = p x omega + F,  l' = l x omega + p x v + Gamma,  R' = R hat(omega),  x' = R v,
//   F = R^T (m - rho_f V) g,  Gamma = r_b x (-rho_f V R^T g)  (r_b: centre of mass -> centre of buoyancy),
//   Langevin (paper eq. 13 with the lost velocity factor restored): v' += -chi (1/2 + 3/4 C0) v; the
//   angular velocity has no relaxation (the paper's eq. 10, d omega = beta dW) unless relax_angular
//   (our earlier form, the same relaxation on all six components); after each step v += sqrt(C0 eps dt) xi_1, omega +=
//   sqrt(C0 eps dt) xi_2 / L_ref, xi_i ~ N(0,1)^3 (L_ref, the body's half length, turns the velocity kick into an
//   angular one: the paper applies the same kick to omega, which is not dimensionally consistent).
// Optional lift (not in the paper; langevin_lift_force below): the Kirchhoff terms are the potential flow of a
// body without a wake, which gives a wing no lift; the slender-wing force adds the trailing edge's Kutta condition.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace immerse::bodies {

struct LangevinBodyParams {
  double K[36];     // generalized mass, row-major
  double Kinv[36];  // its inverse
  double mass = 0, volume = 0, fluid_density = 0;
  double gravity[3] = {0, 0, -9.81};  // world frame
  double r_buoyancy[3] = {0, 0, 0};   // centre of mass -> centre of buoyancy, body frame
  double C0 = 0;                      // Kolmogorov constant C0(Re)
  double L_ref = 1;                   // body half length for the angular kick
  double extent[3] = {0, 0, 0};       // half extents of the body-frame bounding box (ground contact)
  double ground_z = -1e300;           // the body stops when its box touches z = ground_z
  int langevin = 1;                   // 0: pure Kirchhoff (the paper's Fig. 5a)
  int relax_angular = 0;              // 1: relax omega too (not the paper's eq. 10)
  // Slender-wing lift (langevin_lift_force): lift_k = (pi/4) rho_f b^2, b the span at the trailing edge; 0: no
  // lift (the paper's model). Body frame: the wing's normal, the unit vector toward the nose, the trailing
  // edge's middle relative to the centre of mass.
  double lift_k = 0;
  double lift_normal[3] = {0, 0, 1};
  double lift_nose[3] = {1, 0, 0};
  double lift_point[3] = {0, 0, 0};
};

struct LangevinBodyState {
  double R[9];   // body -> world rotation, row-major
  double x[3];   // centre of mass, world
  double xi[6];  // v (body), omega (body)
  int landed = 0;
};

// The turbulence series (chi, eps) sampled every dt_series from t = 0.
struct LangevinTurbulence {
  const double* chi = nullptr;
  const double* eps = nullptr;
  int count = 0;
  double dt_series = 1;
};

// C0(Re) = 6.5 (1 + 140 Re^(-4/3))^(-3/4) (Pope 2011, the paper's eq. 12).
KOKKOS_INLINE_FUNCTION double langevin_c0(double Re) { return 6.5 * pow(1.0 + 140.0 * pow(Re, -4.0 / 3.0), -0.75); }

KOKKOS_INLINE_FUNCTION void langevin_cross(const double* a, const double* b, double* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

// Linear interpolation in the series; past its end the last sample holds (the precompute ends in the
// body's developed wake, which the runtime keeps seeing).
KOKKOS_INLINE_FUNCTION void langevin_turbulence_at(const LangevinTurbulence& s, double t, double& chi, double& eps) {
  if (s.count == 0) {
    chi = 0;
    eps = 0;
    return;
  }
  double u = t / s.dt_series;
  if (u <= 0) u = 0;
  if (u >= s.count - 1) {
    chi = s.chi[s.count - 1];
    eps = s.eps[s.count - 1];
    return;
  }
  const int i = int(u);
  const double w = u - i;
  chi = (1 - w) * s.chi[i] + w * s.chi[i + 1];
  eps = (1 - w) * s.eps[i] + w * s.eps[i + 1];
}

// Slender-wing lift (Jones 1946) on a body moving nose first, in the body frame: the cross-flow's momentum
// that leaves the trailing edge into the wake, F = -lift_k (u.n) max(0, u.e) n, applied at the trailing
// edge (u = v + omega x r_te there, n the normal, e toward the nose). Lift coefficient (pi/2) AR alpha at
// small angles; zero flying tail first (the apex sheds no cross-flow) or broadside. The force has
// power F.u = -lift_k (u.n)^2 max(0, u.e) <= 0: it is the lift with its induced drag. Its torque is
// r_te x F.
KOKKOS_INLINE_FUNCTION void langevin_lift_force(const LangevinBodyParams& p, const double* xi, double* force,
                                                double* torque) {
  double u[3];
  langevin_cross(xi + 3, p.lift_point, u);
  for (int a = 0; a < 3; ++a) u[a] += xi[a];
  const double un = u[0] * p.lift_normal[0] + u[1] * p.lift_normal[1] + u[2] * p.lift_normal[2];
  const double ue = u[0] * p.lift_nose[0] + u[1] * p.lift_nose[1] + u[2] * p.lift_nose[2];
  const double c = -p.lift_k * un * (ue > 0 ? ue : 0.0);
  for (int a = 0; a < 3; ++a) force[a] = c * p.lift_normal[a];
  langevin_cross(p.lift_point, force, torque);
}

// Time derivative of (R, x, xi) with the deterministic forces; `alpha` = chi (1/2 + 3/4 C0) or 0.
KOKKOS_INLINE_FUNCTION void langevin_rhs(const LangevinBodyParams& p, const double* R, const double* xi, double alpha,
                                         double* dR, double* dx, double* dxi) {
  const double* v = xi;
  const double* w = xi + 3;
  double g_body[3];  // R^T g
  for (int a = 0; a < 3; ++a)
    g_body[a] = R[0 * 3 + a] * p.gravity[0] + R[1 * 3 + a] * p.gravity[1] + R[2 * 3 + a] * p.gravity[2];
  double P[6];  // generalized momentum K xi
  for (int a = 0; a < 6; ++a) {
    P[a] = 0;
    for (int b = 0; b < 6; ++b) P[a] += p.K[a * 6 + b] * xi[b];
  }
  double f[6], t1[3], t2[3];
  langevin_cross(P, w, t1);
  const double net = p.mass - p.fluid_density * p.volume;
  for (int a = 0; a < 3; ++a) f[a] = t1[a] + net * g_body[a];
  langevin_cross(P + 3, w, t1);
  langevin_cross(P, v, t2);
  double fb[3] = {-p.fluid_density * p.volume * g_body[0], -p.fluid_density * p.volume * g_body[1],
                  -p.fluid_density * p.volume * g_body[2]};
  double tb[3];
  langevin_cross(p.r_buoyancy, fb, tb);
  for (int a = 0; a < 3; ++a) f[3 + a] = t1[a] + t2[a] + tb[a];
  if (p.lift_k > 0) {
    double fl[3], tl[3];
    langevin_lift_force(p, xi, fl, tl);
    for (int a = 0; a < 3; ++a) f[a] += fl[a], f[3 + a] += tl[a];
  }
  for (int a = 0; a < 6; ++a) {
    dxi[a] = a < 3 || p.relax_angular ? -alpha * xi[a] : 0.0;
    for (int b = 0; b < 6; ++b) dxi[a] += p.Kinv[a * 6 + b] * f[b];
  }
  // R' = R hat(w): column c of R hat(w) = R (e_c x ... ) -> (R hat w)_{ij} = sum_k R_ik hat_kj
  const double hat[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      dR[i * 3 + j] = R[i * 3 + 0] * hat[0 * 3 + j] + R[i * 3 + 1] * hat[1 * 3 + j] + R[i * 3 + 2] * hat[2 * 3 + j];
  for (int i = 0; i < 3; ++i) dx[i] = R[i * 3 + 0] * v[0] + R[i * 3 + 1] * v[1] + R[i * 3 + 2] * v[2];
}

// Gram-Schmidt on the columns of R (keeps it a rotation after each RK4 step).
KOKKOS_INLINE_FUNCTION void langevin_orthonormalise(double* R) {
  double c0[3] = {R[0], R[3], R[6]}, c1[3] = {R[1], R[4], R[7]}, c2[3];
  double n = sqrt(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
  for (int a = 0; a < 3; ++a) c0[a] /= n;
  const double d = c0[0] * c1[0] + c0[1] * c1[1] + c0[2] * c1[2];
  for (int a = 0; a < 3; ++a) c1[a] -= d * c0[a];
  n = sqrt(c1[0] * c1[0] + c1[1] * c1[1] + c1[2] * c1[2]);
  for (int a = 0; a < 3; ++a) c1[a] /= n;
  langevin_cross(c0, c1, c2);
  for (int a = 0; a < 3; ++a) R[a * 3 + 0] = c0[a], R[a * 3 + 1] = c1[a], R[a * 3 + 2] = c2[a];
}

// Counter-based normal deviates: splitmix64 of (seed, body, step, k) -> two uniforms -> Box-Muller
// (as in the paper). Reproducible for a seed on every backend and independent of thread order.
KOKKOS_INLINE_FUNCTION uint64_t langevin_mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
KOKKOS_INLINE_FUNCTION void langevin_normals6(uint64_t seed, uint64_t body, uint64_t step, double* out) {
  for (int k = 0; k < 3; ++k) {
    const uint64_t h1 = langevin_mix(seed ^ langevin_mix(body * 0x100000001b3ULL ^ langevin_mix(step * 8 + 2 * k)));
    const uint64_t h2 = langevin_mix(h1 + 0x632be59bd9b4e019ULL);
    const double u1 = (double(h1 >> 11) + 0.5) * (1.0 / 9007199254740992.0);  // (0, 1)
    const double u2 = double(h2 >> 11) * (1.0 / 9007199254740992.0);
    const double r = sqrt(-2.0 * log(u1)), th = 6.283185307179586 * u2;
    out[2 * k] = r * cos(th);
    out[2 * k + 1] = r * sin(th);
  }
}

// Lowest z of the body's bounding box in the world.
KOKKOS_INLINE_FUNCTION double langevin_lowest_z(const LangevinBodyParams& p, const LangevinBodyState& s) {
  return s.x[2] - (fabs(s.R[6]) * p.extent[0] + fabs(s.R[7]) * p.extent[1] + fabs(s.R[8]) * p.extent[2]);
}

// One step of length dt from time t: RK4 of the deterministic part, re-orthonormalised R, then the
// stochastic kicks; a landed body stays where it is.
KOKKOS_INLINE_FUNCTION void langevin_step(const LangevinBodyParams& p, const LangevinTurbulence& turb,
                                          LangevinBodyState& s, double t, double dt, uint64_t seed, uint64_t body,
                                          uint64_t step) {
  if (s.landed) return;
  double chi = 0, eps = 0;
  if (p.langevin) langevin_turbulence_at(turb, t, chi, eps);
  const double alpha = chi * (0.5 + 0.75 * p.C0);
  double k[4][18], y[18];  // y = (R 9, x 3, xi 6)
  const double h[4] = {0, 0.5 * dt, 0.5 * dt, dt};
  for (int st = 0; st < 4; ++st) {
    for (int a = 0; a < 9; ++a) y[a] = s.R[a] + (st ? h[st] * k[st - 1][a] : 0);
    for (int a = 0; a < 3; ++a) y[9 + a] = s.x[a] + (st ? h[st] * k[st - 1][9 + a] : 0);
    for (int a = 0; a < 6; ++a) y[12 + a] = s.xi[a] + (st ? h[st] * k[st - 1][12 + a] : 0);
    langevin_rhs(p, y, y + 12, alpha, k[st], k[st] + 9, k[st] + 12);
  }
  for (int a = 0; a < 9; ++a) s.R[a] += dt / 6 * (k[0][a] + 2 * k[1][a] + 2 * k[2][a] + k[3][a]);
  for (int a = 0; a < 3; ++a) s.x[a] += dt / 6 * (k[0][9 + a] + 2 * k[1][9 + a] + 2 * k[2][9 + a] + k[3][9 + a]);
  for (int a = 0; a < 6; ++a) s.xi[a] += dt / 6 * (k[0][12 + a] + 2 * k[1][12 + a] + 2 * k[2][12 + a] + k[3][12 + a]);
  langevin_orthonormalise(s.R);
  if (p.langevin && eps > 0) {
    double z[6];
    langevin_normals6(seed, body, step, z);
    const double beta = sqrt(p.C0 * eps * dt);
    for (int a = 0; a < 3; ++a) s.xi[a] += beta * z[a], s.xi[3 + a] += beta * z[3 + a] / p.L_ref;
  }
  if (langevin_lowest_z(p, s) <= p.ground_z) {
    s.landed = 1;
    for (int a = 0; a < 6; ++a) s.xi[a] = 0;
  }
}

// Kinetic energy of body and fluid, 1/2 xi^T K xi.
KOKKOS_INLINE_FUNCTION double langevin_kinetic_energy(const LangevinBodyParams& p, const LangevinBodyState& s) {
  double e = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) e += 0.5 * s.xi[a] * p.K[a * 6 + b] * s.xi[b];
  return e;
}

}  // namespace immerse::bodies
