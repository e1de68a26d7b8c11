#include "immerse/mac3d/turbulence.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cmath>

#include "immerse/core/backend.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/ordered_sum.hpp"

namespace immerse::mac3d {

void check_turbulence_params(const TurbulenceParams& p, const std::string& src) {
  auto need = [&](bool ok, const std::string& key, const std::string& msg) {
    if (!ok) throw InputError(fmt::format("{}: key '{}': {}", src, key, msg));
  };
  need(p.nx >= 4 && p.ny >= 4 && p.nz >= 4, "turbulence.grid", "nx, ny, nz must be >= 4");
  need(p.h > 0, "turbulence.h", "cell size must be > 0");
  need(p.dt > 0, "turbulence.dt", "time step must be > 0");
  need(p.U0 >= 0, "turbulence.U0", "inflow speed must be >= 0");
  const double cfl = p.U0 * p.dt / p.h;
  need(cfl <= 5, "turbulence.dt",
       fmt::format(
           "value {} exceeds the limit of the semi-Lagrangian backtrace. allowed range (0, {:.6g}] (U0 dt / h <= 5)",
           p.dt, 5 * p.h / std::max(p.U0, 1e-300)));
}

// A named namespace (not an anonymous one): nvcc requires extended lambdas' enclosing functions to
// have external linkage.
namespace detail {

template <class Exec>
struct Grid {
  using Mem = typename Exec::memory_space;
  using V3 = Kokkos::View<double***, Kokkos::LayoutLeft, Mem>;
  using M3 = Kokkos::View<uint8_t***, Kokkos::LayoutLeft, Mem>;
};

// Trilinear interpolation in index space: the weights and corner indices of the point (gx, gy, gz)
// of a field with extents n0 x n1 x n2; points outside are clamped to the nearest sample (zero-
// gradient extrapolation). Computed once and applied to every field stored at the same points.
struct Trilinear {
  int i, j, k, i1, j1, k1;
  double a, b, c;
};

KOKKOS_FORCEINLINE_FUNCTION Trilinear locate(int n0, int n1, int n2, double gx, double gy, double gz) {
  gx = gx < 0 ? 0 : (gx > n0 - 1 ? n0 - 1 : gx);
  gy = gy < 0 ? 0 : (gy > n1 - 1 ? n1 - 1 : gy);
  gz = gz < 0 ? 0 : (gz > n2 - 1 ? n2 - 1 : gz);
  Trilinear t;
  t.i = int(gx);
  t.j = int(gy);
  t.k = int(gz);
  t.i = t.i > n0 - 2 ? (n0 > 1 ? n0 - 2 : 0) : t.i;
  t.j = t.j > n1 - 2 ? (n1 > 1 ? n1 - 2 : 0) : t.j;
  t.k = t.k > n2 - 2 ? (n2 > 1 ? n2 - 2 : 0) : t.k;
  t.a = gx - t.i;
  t.b = gy - t.j;
  t.c = gz - t.k;
  t.i1 = n0 > 1 ? t.i + 1 : t.i;
  t.j1 = n1 > 1 ? t.j + 1 : t.j;
  t.k1 = n2 > 1 ? t.k + 1 : t.k;
  return t;
}

template <class V>
KOKKOS_FORCEINLINE_FUNCTION double interp(const V& f, const Trilinear& t) {
  // The eight corners as offsets from the first (one index computation instead of eight).
  const double* p = &f(t.i, t.j, t.k);
  const long di = t.i1 - t.i, dj = long(t.j1 - t.j) * long(f.stride_1()), dk = long(t.k1 - t.k) * long(f.stride_2());
  const double c00 = p[0] * (1 - t.a) + p[di] * t.a, c10 = p[dj] * (1 - t.a) + p[di + dj] * t.a;
  const double c01 = p[dk] * (1 - t.a) + p[di + dk] * t.a, c11 = p[dj + dk] * (1 - t.a) + p[di + dj + dk] * t.a;
  return (c00 * (1 - t.b) + c10 * t.b) * (1 - t.c) + (c01 * (1 - t.b) + c11 * t.b) * t.c;
}

// Field f sampled at index-space point (gx, gy, gz) (its own sample (i, j, k) at (i, j, k)).
template <class V>
KOKKOS_FORCEINLINE_FUNCTION double sample(const V& f, double gx, double gy, double gz) {
  return interp(f, locate(int(f.extent(0)), int(f.extent(1)), int(f.extent(2)), gx, gy, gz));
}

// A velocity component at another component's face point lies halfway between four of its samples
// (the trilinear weights there are 1/2, 1/2, 0): their mean, indices clamped as sample() clamps.
// (a, b) are the component's indices along the two axes where the point is offset by -1/2 (range
// [a - 1, a] clamped to [0, na - 1]) and +1/2 (range [b, b + 1]); the third index is exact.
KOKKOS_INLINE_FUNCTION int clampi(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

// fmin/fmax with their NaN rule (a NaN argument loses to a number) as compares: the libm calls
// were not inlined (the host compiler keeps them out of line for their NaN semantics).
KOKKOS_FORCEINLINE_FUNCTION double min_of(double a, double b) { return (a < b || b != b) ? a : b; }
KOKKOS_FORCEINLINE_FUNCTION double max_of(double a, double b) { return (a > b || b != b) ? a : b; }

// A 3D loop over [b, e), the functor called as f(i, j, k). Host backends: one parallel index per
// (j, k) row and a serial i loop (no index division per cell, contiguous i for the LayoutLeft
// views, vectorisable). Device backends: one flat index per cell (i fastest, so neighbouring
// threads touch neighbouring memory). A flat RangePolicy rather than MDRangePolicy: on the host
// backends the latter copied the functor (and its Views' reference counts) per tile, which cost
// more than the cell work on these small grids.
template <class Exec>
constexpr bool host_exec = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

template <class Exec, class F>
void for3(const char* name, const Kokkos::Array<int, 3>& b, const Kokkos::Array<int, 3>& e, const F& f) {
  const int b0 = b[0], b1 = b[1], b2 = b[2], e0 = e[0], n0 = e[0] - b[0], n1 = e[1] - b[1];
  if constexpr (host_exec<Exec>) {
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<Exec>(0, long(n1) * (e[2] - b[2])), KOKKOS_LAMBDA(const long r) {
          const int j = b1 + int(r % n1), k = b2 + int(r / n1);
          for (int i = b0; i < e0; ++i) f(i, j, k);
        });
  } else {
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<Exec>(0, long(n0) * n1 * (e[2] - b[2])), KOKKOS_LAMBDA(const long idx) {
          const long r = idx / n0;
          f(b0 + int(idx % n0), b1 + int(r % n1), b2 + int(r / n1));
        });
  }
}

// The same loop as a sum of three doubles: f(i, j, k, s0, s1, s2) adds to the sums.
template <class Exec, class F>
void sum3(const char* name, const Kokkos::Array<int, 3>& e, const F& f, double& s0, double& s1, double& s2) {
  const int n0 = e[0], n1 = e[1];
  // Rows of i, added in order (ordered_sum): the turbulence statistics, which drive the chaotic
  // Langevin falls, are the same bits whatever the backend and thread count.
  const auto s = ordered_sum<Exec, 3>(
      name, long(n1) * e[2], KOKKOS_LAMBDA(const long r, double* acc) {
        const int j = int(r % n1), k = int(r / n1);
        for (int i = 0; i < n0; ++i) f(i, j, k, acc[0], acc[1], acc[2]);
      });
  s0 = s[0];
  s1 = s[1];
  s2 = s[2];
}

template <class Exec>
TurbulenceResult run_impl(const TurbulenceParams& p, const std::vector<uint8_t>& solid_host) {
  using V3 = typename Grid<Exec>::V3;
  using M3 = typename Grid<Exec>::M3;
  const int nx = p.nx, ny = p.ny, nz = p.nz;
  const double h = p.h, dt = p.dt, U0 = p.U0;
  const double k0 = p.k0 >= 0 ? p.k0 : 1.5 * U0 * U0;
  const double l = p.length > 0 ? p.length : h;
  const double eps0 = p.eps0 >= 0 ? p.eps0 : std::pow(p.C_mu, 0.75) * std::pow(k0, 1.5) / l;
  const long ncell = long(nx) * ny * nz;
  const double Cmu = p.C_mu, C1 = p.C1, C2 = p.C2, floor_v = p.k_floor;
  const double Glim = p.production_limit > 0 ? p.production_limit : p.C2 / p.C1;

  V3 u("u", nx + 1, ny, nz), v("v", nx, ny + 1, nz), w("w", nx, ny, nz + 1);
  V3 u2("u2", nx + 1, ny, nz), v2("v2", nx, ny + 1, nz), w2("w2", nx, ny, nz + 1);
  V3 kf("k", nx, ny, nz), ef("eps", nx, ny, nz), k2("k2", nx, ny, nz), e2("e2", nx, ny, nz);
  // Pressure with one ghost layer on every side (cell (i, j, k) at (i + 1, j + 1, k + 1)): the ghosts
  // stay 0 and carry weight 0 in the sweeps, so a sweep reads its neighbours without clamping the
  // indices (the host compiler then vectorises the rows).
  V3 pr("p", nx + 2, ny + 2, nz + 2), pr2("p2", nx + 2, ny + 2, nz + 2), rhs("rhs", nx, ny, nz);
  M3 solid("solid", nx, ny, nz), sample_mask("sample_mask", nx, ny, nz);
  {
    auto hs = Kokkos::create_mirror_view(solid);
    auto hm = Kokkos::create_mirror_view(sample_mask);
    const long n = long(nx) * ny * nz;
    if (long(solid_host.size()) != n)
      throw InputError(fmt::format("turbulence: obstacle mask has {} cells, grid {}", solid_host.size(), n));
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) hs(i, j, k) = solid_host[i + nx * (j + ny * long(k))];
    // The sampled region: every fluid cell (domain) or the fluid cells within shell_cells of the body.
    bool any_solid = false;
    for (auto s : solid_host) any_solid |= s != 0;
    const int r = p.shell_cells;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          uint8_t m = hs(i, j, k) ? 0 : 1;
          if (m && p.sampling == Sampling::shell && any_solid) {
            m = 0;
            for (int c = std::max(0, k - r); c <= std::min(nz - 1, k + r) && !m; ++c)
              for (int b = std::max(0, j - r); b <= std::min(ny - 1, j + r) && !m; ++b)
                for (int a = std::max(0, i - r); a <= std::min(nx - 1, i + r) && !m; ++a) m = hs(a, b, c);
          }
          hm(i, j, k) = m;
        }
    Kokkos::deep_copy(solid, hs);
    Kokkos::deep_copy(sample_mask, hm);
  }
  // Jacobi stencil of each fluid cell: bits of its fluid neighbours (-x, +x, -y, +y, -z, +z) and
  // 1 / (number of neighbours + 1 for the Dirichlet p = 0 beyond the outflow face); 0 in the body.
  M3 nbr("nbr", nx, ny, nz);
  V3 inv_count("inv_count", nx, ny, nz);
  for3<Exec>(
      "stencil", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
        unsigned m = 0;
        double n = 0;
        if (!solid(i, j, k)) {
          if (i > 0 && !solid(i - 1, j, k)) m |= 1u, n += 1;
          if (i < nx - 1 && !solid(i + 1, j, k)) m |= 2u, n += 1;
          if (i == nx - 1) n += 1;
          if (j > 0 && !solid(i, j - 1, k)) m |= 4u, n += 1;
          if (j < ny - 1 && !solid(i, j + 1, k)) m |= 8u, n += 1;
          if (k > 0 && !solid(i, j, k - 1)) m |= 16u, n += 1;
          if (k < nz - 1 && !solid(i, j, k + 1)) m |= 32u, n += 1;
        }
        nbr(i, j, k) = uint8_t(m);
        inv_count(i, j, k) = n > 0 ? 1.0 / n : 0.0;
      });
  const auto t_start = std::chrono::steady_clock::now();
  // Initial state: uniform flow U0 (zero inside the body), k0, eps0.
  for3<Exec>(
      "init_u", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
        const bool blocked = (i > 0 && solid(i - 1, j, k)) || (i < nx && solid(i, j, k));
        u(i, j, k) = blocked ? 0.0 : U0;
      });
  Kokkos::deep_copy(kf, k0);
  Kokkos::deep_copy(ef, eps0);

  TurbulenceResult res;
  res.time.reserve(p.steps);
  res.k.reserve(p.steps);
  res.eps.reserve(p.steps);
  res.chi.reserve(p.steps);
  const double c = dt / h;  // backtrace length per unit speed, in cells
  const double s = dt / h;  // projection: u -= dt/h (p_right - p_left)
  const double inv_h = 1.0 / h;
  for (int step = 0; step < p.steps; ++step) {
    // 1+2. Semi-Lagrangian advection of u, v, w, k, eps in index space (a point's coordinates in
    //    cells; the backtrace uses the velocity at the point), with the boundary conditions applied
    //    to the new values: inflow U0 at x = 0, zero-gradient outflow at x = nx h, slip walls (zero
    //    normal velocity) on y and z, no flux through the body's faces. Faces the conditions set are
    //    not advected. One kernel over the union of the face and cell index ranges.
    auto advect_u = [=] KOKKOS_FUNCTION(int i, int j, int k) {  // u face (i, j + 1/2, k + 1/2)
      if ((i > 0 && solid(i - 1, j, k)) || (i < nx && solid(i, j, k))) return 0.0;
      const int xa = clampi(i - 1, 0, nx - 1), xb = clampi(i, 0, nx - 1);
      const double a = u(i, j, k);
      const double b = 0.25 * (v(xa, j, k) + v(xb, j, k) + v(xa, j + 1, k) + v(xb, j + 1, k));
      const double cc = 0.25 * (w(xa, j, k) + w(xb, j, k) + w(xa, j, k + 1) + w(xb, j, k + 1));
      return sample(u, i - c * a, j - c * b, k - c * cc);
    };
    for3<Exec>(
        "advect", {0, 0, 0}, {nx + 1, ny + 1, nz + 1}, KOKKOS_LAMBDA(int i, int j, int k) {
          // u at the outflow face copies the new value inside it (zero gradient); in the body: 0.
          if (j < ny && k < nz)
            u2(i, j, k) = i == 0 ? (solid(0, j, k) ? 0.0 : U0) : advect_u(i < nx ? i : nx - 1, j, k);
          if (i < nx && k < nz) {  // v face (i + 1/2, j, k + 1/2)
            double nv = 0;
            if (!(j == 0 || j == ny || solid(i, j - 1, k) || solid(i, j, k))) {
              const int ya = clampi(j - 1, 0, ny - 1), yb = clampi(j, 0, ny - 1);
              const double a = 0.25 * (u(i, ya, k) + u(i + 1, ya, k) + u(i, yb, k) + u(i + 1, yb, k));
              const double b = v(i, j, k);
              const double cc = 0.25 * (w(i, ya, k) + w(i, yb, k) + w(i, ya, k + 1) + w(i, yb, k + 1));
              nv = sample(v, i - c * a, j - c * b, k - c * cc);
            }
            v2(i, j, k) = nv;
          }
          if (i < nx && j < ny) {  // w face (i + 1/2, j + 1/2, k)
            double nw = 0;
            if (!(k == 0 || k == nz || solid(i, j, k - 1) || solid(i, j, k))) {
              const int za = clampi(k - 1, 0, nz - 1), zb = clampi(k, 0, nz - 1);
              const double a = 0.25 * (u(i, j, za) + u(i + 1, j, za) + u(i, j, zb) + u(i + 1, j, zb));
              const double b = 0.25 * (v(i, j, za) + v(i, j + 1, za) + v(i, j, zb) + v(i, j + 1, zb));
              const double cc = w(i, j, k);
              nw = sample(w, i - c * a, j - c * b, k - c * cc);
            }
            w2(i, j, k) = nw;
          }
          if (i < nx && j < ny && k < nz) {  // cell centre (i + 1/2, j + 1/2, k + 1/2): k and eps
            const double a = 0.5 * (u(i, j, k) + u(i + 1, j, k)), b = 0.5 * (v(i, j, k) + v(i, j + 1, k)),
                         cc = 0.5 * (w(i, j, k) + w(i, j, k + 1));
            // The inflow face carries fresh turbulence k0, eps0: a backtrace that leaves through x = 0 reads it.
            if (i + 0.5 - c * a < 0) {
              k2(i, j, k) = k0;
              e2(i, j, k) = eps0;
            } else {
              const Trilinear t = locate(nx, ny, nz, i - c * a, j - c * b, k - c * cc);
              k2(i, j, k) = interp(kf, t);
              e2(i, j, k) = interp(ef, t);
            }
          }
        });
    std::swap(u, u2);
    std::swap(v, v2);
    std::swap(w, w2);
    std::swap(kf, k2);
    std::swap(ef, e2);

    // 3. Pressure projection: lap(p) = div(u) / dt by Jacobi sweeps, Neumann at walls and body,
    //    p = 0 beyond the outflow face; then u -= dt grad p on the faces between fluid cells.
    //    rhs = h^2 div(u) / dt, the sweeps' constant term.
    for3<Exec>(
        "divergence", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
          const double d =
              (u(i + 1, j, k) - u(i, j, k) + v(i, j + 1, k) - v(i, j, k) + w(i, j, k + 1) - w(i, j, k)) / h;
          rhs(i, j, k) = solid(i, j, k) ? 0.0 : h * h * d / dt;
        });
    // Warm start: the previous step's pressure is the initial guess (the flow changes little per step).
    for (int it = 0; it < p.pressure_iterations; ++it) {
      // Branch-free sweep: the fluid-neighbour bits and 1/count were computed once (nbr, inv_count);
      // a missing neighbour (wall, body, ghost) has weight 0.
      for3<Exec>(
          "jacobi", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
            const unsigned m = nbr(i, j, k);
            const int a = i + 1, b = j + 1, c3 = k + 1;
            const double sum = (m & 1u) * pr(a - 1, b, c3) + ((m >> 1) & 1u) * pr(a + 1, b, c3) +
                               ((m >> 2) & 1u) * pr(a, b - 1, c3) + ((m >> 3) & 1u) * pr(a, b + 1, c3) +
                               ((m >> 4) & 1u) * pr(a, b, c3 - 1) + ((m >> 5) & 1u) * pr(a, b, c3 + 1);
            pr2(a, b, c3) = inv_count(i, j, k) * (sum - rhs(i, j, k));
          });
      std::swap(pr, pr2);
    }
    for3<Exec>(
        "project", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
          if (i > 0 && !(solid(i - 1, j, k) || (i < nx && solid(i, j, k))))
            u(i, j, k) -= s * ((i < nx ? pr(i + 1, j + 1, k + 1) : 0.0) - pr(i, j + 1, k + 1));
          if (i == nx) return;
          if (j > 0 && !(solid(i, j - 1, k) || solid(i, j, k)))
            v(i, j, k) -= s * (pr(i + 1, j + 1, k + 1) - pr(i + 1, j, k + 1));
          if (k > 0 && !(solid(i, j, k - 1) || solid(i, j, k)))
            w(i, j, k) -= s * (pr(i + 1, j + 1, k + 1) - pr(i + 1, j + 1, k));
        });

    // 4. k-epsilon sources at cell centres (no diffusion): G from the strain rate of the mean flow;
    //    the local ODE k' = G - eps, eps' = (eps/k)(C1 G - C2 eps) by the midpoint rule (second order).
    // 5. In the same pass, the means of the new k and eps over the sampled region; chi = <eps> / <k>.
    double sk = 0, se = 0, cnt = 0;
    sum3<Exec>(
        "k_epsilon", {nx, ny, nz},
        KOKKOS_LAMBDA(int i, int j, int k, double& sum_k, double& sum_e, double& sum_n) {
          if (solid(i, j, k)) return;
          auto uc = [&](int a, int b, int c) { return 0.5 * (u(a, b, c) + u(a + 1, b, c)); };
          auto vc = [&](int a, int b, int c) { return 0.5 * (v(a, b, c) + v(a, b + 1, c)); };
          auto wc = [&](int a, int b, int c) { return 0.5 * (w(a, b, c) + w(a, b, c + 1)); };
          const int im = i > 0 ? i - 1 : i, ip = i < nx - 1 ? i + 1 : i, jm = j > 0 ? j - 1 : j,
                    jp = j < ny - 1 ? j + 1 : j;
          const int km = k > 0 ? k - 1 : k, kp = k < nz - 1 ? k + 1 : k;
          // 1 / (distance between the central-difference samples): one-sided at the domain's edges.
          const double ixs = 1.0 / ((ip - im) * h), iys = 1.0 / ((jp - jm) * h), izs = 1.0 / ((kp - km) * h);
          // Diagonal strain from the cell's own faces; the shear terms by central differences.
          const double sxx = (u(i + 1, j, k) - u(i, j, k)) * inv_h, syy = (v(i, j + 1, k) - v(i, j, k)) * inv_h,
                       szz = (w(i, j, k + 1) - w(i, j, k)) * inv_h;
          const double dudy = (uc(i, jp, k) - uc(i, jm, k)) * iys, dudz = (uc(i, j, kp) - uc(i, j, km)) * izs;
          const double dvdx = (vc(ip, j, k) - vc(im, j, k)) * ixs, dvdz = (vc(i, j, kp) - vc(i, j, km)) * izs;
          const double dwdx = (wc(ip, j, k) - wc(im, j, k)) * ixs, dwdy = (wc(i, jp, k) - wc(i, jm, k)) * iys;
          const double sxy = 0.5 * (dudy + dvdx), sxz = 0.5 * (dudz + dwdx), syz = 0.5 * (dvdz + dwdy);
          const double S2 = sxx * sxx + syy * syy + szz * szz + 2 * (sxy * sxy + sxz * sxz + syz * syz);
          // Two standard bounds keep the coarse, diffusion-free model from the k-epsilon stagnation-point
          // anomaly (unbounded k in front of a blunt body): Durbin's (1996) realizability time scale
          // T = min(k/eps, 0.6 / (sqrt(6) C_mu |S|)), nu_T = C_mu k T, and a production limiter in the
          // spirit of Menter's (1994) G <= c eps, here with c = production_limit (default C2/C1, so eps
          // cannot grow and k grows at most linearly: without diffusion nothing else bounds them).
          // Both are inactive where the strain is weak (G = 0: the exact decay law).
          const double Smag = sqrt(2 * S2);
          const double Tmax = Smag > 0 ? 0.6 / (2.449489742783178 * Cmu * Smag) : 0.0;
          auto rates = [&](double kk, double ee, double& dk, double& de) {
            const double T = Smag > 0 ? min_of(kk / ee, Tmax) : kk / ee;
            const double G = min_of(2 * Cmu * kk * T * S2, Glim * ee);
            dk = G - ee;
            de = ee / kk * (C1 * G - C2 * ee);
          };
          double kk = kf(i, j, k), ee = ef(i, j, k), dk, de;
          rates(kk, ee, dk, de);
          const double km_ = max_of(kk + 0.5 * dt * dk, floor_v), em_ = max_of(ee + 0.5 * dt * de, floor_v);
          rates(km_, em_, dk, de);
          const double kn = max_of(kk + dt * dk, floor_v), en = max_of(ee + dt * de, floor_v);
          kf(i, j, k) = kn;
          ef(i, j, k) = en;
          if (sample_mask(i, j, k)) {
            sum_k += kn;
            sum_e += en;
            sum_n += 1;
          }
        },
        sk, se, cnt);
    if (!std::isfinite(sk) || !std::isfinite(se))
      throw NumericalError(fmt::format(
          "turbulence: field '{}' is not finite in the sampled region at step {} (hint: reduce turbulence.dt)",
          std::isfinite(sk) ? "eps" : "k", step));
    res.sampled_cells = long(cnt);
    const double mk = cnt > 0 ? sk / cnt : 0, me = cnt > 0 ? se / cnt : 0;
    res.time.push_back((step + 1) * dt);
    res.k.push_back(mk);
    res.eps.push_back(me);
    res.chi.push_back(mk > 0 ? me / mk : 0);
  }
  Kokkos::fence();
  res.precompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();

  // Final fields and the divergence left by the projection (the Jacobi sweeps are not converged).
  double maxdiv = 0;
  Kokkos::parallel_reduce(
      "max_div", Kokkos::RangePolicy<Exec>(0, ncell),
      KOKKOS_LAMBDA(long idx, double& m) {
        const int i = int(idx % nx), j = int((idx / nx) % ny), k = int(idx / (long(nx) * ny));
        if (solid(i, j, k)) return;
        const double d = fabs(u(i + 1, j, k) - u(i, j, k) + v(i, j + 1, k) - v(i, j, k) + w(i, j, k + 1) - w(i, j, k));
        m = d > m ? d : m;
      },
      Kokkos::Max<double>(maxdiv));
  res.max_divergence = U0 > 0 ? maxdiv / U0 : maxdiv;
  auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w);
  auto hk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kf);
  auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ef);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double a = 0.5 * (hu(i, j, k) + hu(i + 1, j, k)), b = 0.5 * (hv(i, j, k) + hv(i, j + 1, k)),
                     c = 0.5 * (hw(i, j, k) + hw(i, j, k + 1));
        res.speed.push_back(std::sqrt(a * a + b * b + c * c));
        res.k_field.push_back(hk(i, j, k));
        res.eps_field.push_back(he(i, j, k));
      }
  return res;
}

}  // namespace detail

TurbulenceResult run_turbulence(Backend b, const TurbulenceParams& p, const std::vector<uint8_t>& solid) {
  check_turbulence_params(p, "turbulence");
  return with_backend(b, [&](auto tag) { return detail::run_impl<typename decltype(tag)::execution_space>(p, solid); });
}

}  // namespace immerse::mac3d
