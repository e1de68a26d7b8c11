#pragma once
// The turbulence precompute's per-element work (turbulence.cpp), written once over an access A
// (turbulence_lanes.hpp): OneSample, one element per call (every backend, and the host's row ends),
// or XLanes, a host vector of consecutive elements along x. Element (i, j, k) of a call is its first;
// the others follow along x.
#include "turbulence_lanes.hpp"

namespace immerse::mac3d::detail {

// A field of the MAC grid as its samples (x fastest: LayoutLeft without padding) and extents.
struct Field {
  double* p;
  int n0, n1, n2;
  KOKKOS_FORCEINLINE_FUNCTION long at(int i, int j, int k) const { return i + long(n0) * (j + long(n1) * k); }
};

// The fields an advection or k-epsilon pass reads: the face velocities, k and eps at the cell
// centres, and the body's cells (1: solid).
struct MacFields {
  Field u, v, w, k, eps;
  const std::uint8_t* solid;
  KOKKOS_FORCEINLINE_FUNCTION long cell(int i, int j, int kk) const { return k.at(i, j, kk); }
  // The face velocity normal to `axis` (0: u, 1: v, 2: w).
  KOKKOS_FORCEINLINE_FUNCTION const Field& face(int axis) const { return axis == 0 ? u : axis == 1 ? v : w; }
};

// Trilinear interpolation in index space: the first corner and the weights of the point (gx, gy,
// gz) of a field; points outside are clamped to the nearest sample (zero-gradient extrapolation).
// Computed once and applied to every field stored at the same points. Every extent is >= 2
// (check_turbulence_params: >= 4 cells per axis), so the corner's index is at most n - 2.
template <class A>
struct Trilinear {
  typename A::I base;  // the first corner's sample
  typename A::T a, b, c;
};

template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T clamp_to(typename A::T g, int n) {
  using T = typename A::T;
  g = A::if_less(g, T(0.0), T(0.0), g);
  return A::if_less(T(double(n - 1)), g, T(double(n - 1)), g);
}

template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::I corner_index(typename A::T g, int n) {
  const auto i = A::truncate(g), last = A::index_of(n - 2);
  return A::if_less(last, i, last, i);
}

template <class A>
KOKKOS_FORCEINLINE_FUNCTION Trilinear<A> locate(const Field& f, typename A::T gx, typename A::T gy, typename A::T gz) {
  gx = clamp_to<A>(gx, f.n0);
  gy = clamp_to<A>(gy, f.n1);
  gz = clamp_to<A>(gz, f.n2);
  const auto i = corner_index<A>(gx, f.n0), j = corner_index<A>(gy, f.n1), k = corner_index<A>(gz, f.n2);
  return {i + f.n0 * (j + f.n1 * k), gx - A::real(i), gy - A::real(j), gz - A::real(k)};
}

// The samples p of a field laid out as f (f's own or another field of the same extents) at t.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T interp(const double* p, const Field& f, const Trilinear<A>& t) {
  using T = typename A::T;
  const int dj = f.n0, dk = f.n0 * f.n1;
  const auto b = t.base;
  const T c00 = A::at(p, b) * (1 - t.a) + A::at(p, b + 1) * t.a,
          c10 = A::at(p, b + dj) * (1 - t.a) + A::at(p, b + 1 + dj) * t.a;
  const T c01 = A::at(p, b + dk) * (1 - t.a) + A::at(p, b + 1 + dk) * t.a,
          c11 = A::at(p, b + dj + dk) * (1 - t.a) + A::at(p, b + 1 + dj + dk) * t.a;
  return (c00 * (1 - t.b) + c10 * t.b) * (1 - t.c) + (c01 * (1 - t.b) + c11 * t.b) * t.c;
}

// x index of the elements as numbers.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T x_of(int i) {
  return A::real(A::lane_index(i));
}

// 0 where either flag is set (a face of the body), else x.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T unless_solid(typename A::T f1, typename A::T f2, typename A::T x) {
  using T = typename A::T;
  return A::if_less(T(0.0), f1 + f2, T(0.0), x);
}

// Semi-Lagrangian advection, index space (c = dt / h cells per m/s; the backtrace uses the velocity
// at the point): the new u at face (i, j + 1/2, k + 1/2), 1 <= i <= nx - 1 for every element, 0 on
// the body's faces. A velocity component at another component's face point lies halfway between four
// of its samples (the trilinear weights there are 1/2, 1/2, 0): their mean.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T advect_u(const MacFields& m, int i, int j, int k, double c) {
  using T = typename A::T;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const T a = A::load(u.p, u.at(i, j, k));
  const T b = 0.25 * (A::load(v.p, v.at(i - 1, j, k)) + A::load(v.p, v.at(i, j, k)) +
                      A::load(v.p, v.at(i - 1, j + 1, k)) + A::load(v.p, v.at(i, j + 1, k)));
  const T cc = 0.25 * (A::load(w.p, w.at(i - 1, j, k)) + A::load(w.p, w.at(i, j, k)) +
                       A::load(w.p, w.at(i - 1, j, k + 1)) + A::load(w.p, w.at(i, j, k + 1)));
  const T s = interp<A>(u.p, u, locate<A>(u, x_of<A>(i) - c * a, j - c * b, k - c * cc));
  return unless_solid<A>(A::flag(m.solid, m.cell(i - 1, j, k)), A::flag(m.solid, m.cell(i, j, k)), s);
}

// The new v at face (i + 1/2, j, k + 1/2), 1 <= j <= ny - 1.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T advect_v(const MacFields& m, int i, int j, int k, double c) {
  using T = typename A::T;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const T a = 0.25 * (A::load(u.p, u.at(i, j - 1, k)) + A::load(u.p, u.at(i + 1, j - 1, k)) +
                      A::load(u.p, u.at(i, j, k)) + A::load(u.p, u.at(i + 1, j, k)));
  const T b = A::load(v.p, v.at(i, j, k));
  const T cc = 0.25 * (A::load(w.p, w.at(i, j - 1, k)) + A::load(w.p, w.at(i, j, k)) +
                       A::load(w.p, w.at(i, j - 1, k + 1)) + A::load(w.p, w.at(i, j, k + 1)));
  const T s = interp<A>(v.p, v, locate<A>(v, x_of<A>(i) - c * a, j - c * b, k - c * cc));
  return unless_solid<A>(A::flag(m.solid, m.cell(i, j - 1, k)), A::flag(m.solid, m.cell(i, j, k)), s);
}

// The new w at face (i + 1/2, j + 1/2, k), 1 <= k <= nz - 1.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T advect_w(const MacFields& m, int i, int j, int k, double c) {
  using T = typename A::T;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const T a = 0.25 * (A::load(u.p, u.at(i, j, k - 1)) + A::load(u.p, u.at(i + 1, j, k - 1)) +
                      A::load(u.p, u.at(i, j, k)) + A::load(u.p, u.at(i + 1, j, k)));
  const T b = 0.25 * (A::load(v.p, v.at(i, j, k - 1)) + A::load(v.p, v.at(i, j + 1, k - 1)) +
                      A::load(v.p, v.at(i, j, k)) + A::load(v.p, v.at(i, j + 1, k)));
  const T cc = A::load(w.p, w.at(i, j, k));
  const T s = interp<A>(w.p, w, locate<A>(w, x_of<A>(i) - c * a, j - c * b, k - c * cc));
  return unless_solid<A>(A::flag(m.solid, m.cell(i, j, k - 1)), A::flag(m.solid, m.cell(i, j, k)), s);
}

// The new k and eps at cell centre (i + 1/2, j + 1/2, k + 1/2). The inflow face carries fresh
// turbulence k0, eps0: a backtrace that leaves through x = 0 reads it.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION void advect_cell(const MacFields& m, int i, int j, int k, double c, double k0, double eps0,
                                             typename A::T& k_new, typename A::T& eps_new) {
  using T = typename A::T;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const T a = 0.5 * (A::load(u.p, u.at(i, j, k)) + A::load(u.p, u.at(i + 1, j, k))),
          b = 0.5 * (A::load(v.p, v.at(i, j, k)) + A::load(v.p, v.at(i, j + 1, k))),
          cc = 0.5 * (A::load(w.p, w.at(i, j, k)) + A::load(w.p, w.at(i, j, k + 1)));
  const T x = x_of<A>(i);
  const Trilinear<A> t = locate<A>(m.k, x - c * a, j - c * b, k - c * cc);
  const T from_inflow = x + 0.5 - c * a;
  k_new = A::if_less(from_inflow, T(0.0), T(k0), interp<A>(m.k.p, m.k, t));
  eps_new = A::if_less(from_inflow, T(0.0), T(eps0), interp<A>(m.eps.p, m.k, t));
}

// The k-epsilon model's constants (turbulence.hpp) and the grid's.
struct KEpsilon {
  int nx, ny, nz;
  double h, inv_h, dt;
  double C_mu, C1, C2, production_limit, floor;
};

// k-epsilon sources at cell centre (i, j, k) (no diffusion): G from the strain rate of the mean
// flow; the local ODE k' = G - eps, eps' = (eps/k)(C1 G - C2 eps) by the midpoint rule (second
// order). k_new, eps_new: the new values (also computed for body cells, which keep their old ones).
template <class A>
KOKKOS_FORCEINLINE_FUNCTION void k_epsilon_cell(const MacFields& m, const KEpsilon& e, int i, int j, int k,
                                                typename A::T& k_new, typename A::T& eps_new) {
  using T = typename A::T;
  using I = typename A::I;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const double h = e.h, inv_h = e.inv_h, dt = e.dt;
  auto uc = [&](int a, int b, int c) { return 0.5 * (A::load(u.p, u.at(a, b, c)) + A::load(u.p, u.at(a + 1, b, c))); };
  auto vc = [&](int a, int b, int c) { return 0.5 * (A::load(v.p, v.at(a, b, c)) + A::load(v.p, v.at(a, b + 1, c))); };
  auto wc = [&](int a, int b, int c) { return 0.5 * (A::load(w.p, w.at(a, b, c)) + A::load(w.p, w.at(a, b, c + 1))); };
  // Along x the neighbours are clamped element by element (gathered where elements are lanes).
  const I il = A::lane_index(i), zero = A::index_of(0), last = A::index_of(e.nx - 1), one = A::index_of(1);
  const I ip = A::if_less(il, last, il + one, last), im = A::if_less(zero, il, il - one, zero);
  auto vcx = [&](I a) {
    return 0.5 * (A::at(v.p, a + v.n0 * (j + v.n1 * k)) + A::at(v.p, a + v.n0 * (j + 1 + v.n1 * k)));
  };
  auto wcx = [&](I a) {
    return 0.5 * (A::at(w.p, a + w.n0 * (j + w.n1 * k)) + A::at(w.p, a + w.n0 * (j + w.n1 * (k + 1))));
  };
  const int jm = j > 0 ? j - 1 : j, jp = j < e.ny - 1 ? j + 1 : j;
  const int km = k > 0 ? k - 1 : k, kp = k < e.nz - 1 ? k + 1 : k;
  // 1 / (distance between the central-difference samples): one-sided at the domain's edges.
  const T ixs = 1.0 / (A::real(ip - im) * h);
  const double iys = 1.0 / ((jp - jm) * h), izs = 1.0 / ((kp - km) * h);
  // Diagonal strain from the cell's own faces; the shear terms by central differences.
  const T sxx = (A::load(u.p, u.at(i + 1, j, k)) - A::load(u.p, u.at(i, j, k))) * inv_h,
          syy = (A::load(v.p, v.at(i, j + 1, k)) - A::load(v.p, v.at(i, j, k))) * inv_h,
          szz = (A::load(w.p, w.at(i, j, k + 1)) - A::load(w.p, w.at(i, j, k))) * inv_h;
  const T dudy = (uc(i, jp, k) - uc(i, jm, k)) * iys, dudz = (uc(i, j, kp) - uc(i, j, km)) * izs;
  const T dvdx = (vcx(ip) - vcx(im)) * ixs, dvdz = (vc(i, j, kp) - vc(i, j, km)) * izs;
  const T dwdx = (wcx(ip) - wcx(im)) * ixs, dwdy = (wc(i, jp, k) - wc(i, jm, k)) * iys;
  const T sxy = 0.5 * (dudy + dvdx), sxz = 0.5 * (dudz + dwdx), syz = 0.5 * (dvdz + dwdy);
  const T S2 = sxx * sxx + syy * syy + szz * szz + 2 * (sxy * sxy + sxz * sxz + syz * syz);
  // Two standard bounds keep the coarse, diffusion-free model from the k-epsilon stagnation-point
  // anomaly (unbounded k in front of a blunt body): Durbin's (1996) realizability time scale
  // T = min(k/eps, 0.6 / (sqrt(6) C_mu |S|)), nu_T = C_mu k T, and a production limiter in the
  // spirit of Menter's (1994) G <= c eps, here with c = production_limit (default C2/C1, so eps
  // cannot grow and k grows at most linearly: without diffusion nothing else bounds them).
  // Both are inactive where the strain is weak (G = 0: the exact decay law).
  const T Smag = A::sqrt(2 * S2);
  const T Tmax = A::if_less(T(0.0), Smag, 0.6 / (2.449489742783178 * e.C_mu * Smag), T(0.0));
  const double Cmu = e.C_mu, C1 = e.C1, C2 = e.C2, Glim = e.production_limit;
  auto rates = [&](T kk, T ee, T& dk, T& de) {
    const T time = A::if_less(T(0.0), Smag, A::min_of(kk / ee, Tmax), kk / ee);
    const T G = A::min_of(2 * Cmu * kk * time * S2, Glim * ee);
    dk = G - ee;
    de = ee / kk * (C1 * G - C2 * ee);
  };
  const long c0 = m.cell(i, j, k);
  const T kk = A::load(m.k.p, c0), ee = A::load(m.eps.p, c0);
  T dk, de;
  rates(kk, ee, dk, de);
  const T km_ = A::max_of(kk + 0.5 * dt * dk, T(e.floor)), em_ = A::max_of(ee + 0.5 * dt * de, T(e.floor));
  rates(km_, em_, dk, de);
  const T solid = A::flag(m.solid, c0);
  k_new = A::if_less(T(0.0), solid, kk, A::max_of(kk + dt * dk, T(e.floor)));
  eps_new = A::if_less(T(0.0), solid, ee, A::max_of(ee + dt * de, T(e.floor)));
}

// The pressure projection's Jacobi sweep: per cell, a flag (0 or 1) per neighbour that is fluid
// (-x, +x, -y, +y, -z, +z: open[d] of the cell), 1 / (number of neighbours + 1 for the Dirichlet
// p = 0 beyond the outflow face; 0 in the body) and the right-hand side h^2 div(u) / dt. The
// pressure has one ghost layer on every side (strides s1, s2), 0 and of weight 0, so a sweep reads
// every neighbour without clamping. A flag times a pressure is exact, so the sum rounds the same
// whether or not the compiler fuses its multiplies into additions.
struct JacobiStencil {
  const std::uint8_t* open[6];
  const double *inv_count, *rhs;
  long s1, s2;
};

// The new pressure of cell c, whose pressure is p[q] (q, c: of the first element).
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T jacobi_cell(const JacobiStencil& s, const double* p, long q, long c) {
  using T = typename A::T;
  const T sum = A::flag(s.open[0], c) * A::load(p, q - 1) + A::flag(s.open[1], c) * A::load(p, q + 1) +
                A::flag(s.open[2], c) * A::load(p, q - s.s1) + A::flag(s.open[3], c) * A::load(p, q + s.s1) +
                A::flag(s.open[4], c) * A::load(p, q - s.s2) + A::flag(s.open[5], c) * A::load(p, q + s.s2);
  return A::load(s.inv_count, c) * (sum - A::load(s.rhs, c));
}

// The projection's right-hand side at cell (i, j, k): h^2 div(u) / dt, 0 in the body.
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T divergence_cell(const MacFields& m, int i, int j, int k, double h,
                                                          double dt) {
  using T = typename A::T;
  const Field &u = m.u, &v = m.v, &w = m.w;
  const T d = (A::load(u.p, u.at(i + 1, j, k)) - A::load(u.p, u.at(i, j, k)) + A::load(v.p, v.at(i, j + 1, k)) -
               A::load(v.p, v.at(i, j, k)) + A::load(w.p, w.at(i, j, k + 1)) - A::load(w.p, w.at(i, j, k))) /
              h;
  return A::if_less(T(0.0), A::flag(m.solid, m.cell(i, j, k)), T(0.0), h * h * d / dt);
}

// The projection u -= dt/h grad p (s = dt/h, pressure p ghosted as in JacobiStencil) on the faces
// normal to `axis` (0: u, 1: v, 2: w) between two fluid cells; a face of the body keeps its value.
// Face (i, j, k) of that axis lies between cell (i, j, k) and the cell before it along the axis
// (whose index along it is >= 0; for u also <= nx - 1).
template <class A>
KOKKOS_FORCEINLINE_FUNCTION typename A::T project_face(const MacFields& m, int axis, const JacobiStencil& ps,
                                                       const double* p, int i, int j, int k, double s) {
  using T = typename A::T;
  const Field& f = m.face(axis);
  const long q = (i + 1) + ps.s1 * (j + 1) + ps.s2 * (k + 1), c = m.cell(i, j, k);  // cell (i, j, k)
  const long dq = axis == 0 ? 1 : axis == 1 ? ps.s1 : ps.s2, dc = axis == 0 ? 1 : axis == 1 ? m.k.n0 : m.k.at(0, 0, 1);
  const T old = A::load(f.p, f.at(i, j, k));
  const T moved = old - s * (A::load(p, q) - A::load(p, q - dq));
  const T body = A::flag(m.solid, c - dc) + A::flag(m.solid, c);
  return A::if_less(T(0.0), body, old, moved);
}

}  // namespace immerse::mac3d::detail
