#include "immerse/mac3d/turbulence.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "immerse/core/error.hpp"

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
       fmt::format("value {} exceeds the limit of the semi-Lagrangian backtrace. allowed range (0, {:.6g}] (U0 dt / h <= 5)", p.dt,
                   5 * p.h / std::max(p.U0, 1e-300)));
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

// Trilinear sample of a staggered field f whose (i, j, k) value sits at ((i + ox) h, (j + oy) h,
// (k + oz) h); points outside are clamped to the nearest sample (zero-gradient extrapolation).
template <class V>
KOKKOS_INLINE_FUNCTION double sample(const V& f, double ox, double oy, double oz, double x, double y, double z, double h) {
  const int n0 = int(f.extent(0)), n1 = int(f.extent(1)), n2 = int(f.extent(2));
  double gx = x / h - ox, gy = y / h - oy, gz = z / h - oz;
  gx = gx < 0 ? 0 : (gx > n0 - 1 ? n0 - 1 : gx);
  gy = gy < 0 ? 0 : (gy > n1 - 1 ? n1 - 1 : gy);
  gz = gz < 0 ? 0 : (gz > n2 - 1 ? n2 - 1 : gz);
  int i = int(gx), j = int(gy), k = int(gz);
  i = i > n0 - 2 ? (n0 > 1 ? n0 - 2 : 0) : i;
  j = j > n1 - 2 ? (n1 > 1 ? n1 - 2 : 0) : j;
  k = k > n2 - 2 ? (n2 > 1 ? n2 - 2 : 0) : k;
  const double a = gx - i, b = gy - j, c = gz - k;
  const int i1 = n0 > 1 ? i + 1 : i, j1 = n1 > 1 ? j + 1 : j, k1 = n2 > 1 ? k + 1 : k;
  const double c00 = f(i, j, k) * (1 - a) + f(i1, j, k) * a, c10 = f(i, j1, k) * (1 - a) + f(i1, j1, k) * a;
  const double c01 = f(i, j, k1) * (1 - a) + f(i1, j, k1) * a, c11 = f(i, j1, k1) * (1 - a) + f(i1, j1, k1) * a;
  return (c00 * (1 - b) + c10 * b) * (1 - c) + (c01 * (1 - b) + c11 * b) * c;
}

// A 3D loop [b, e) as one flat range, i fastest (matching the LayoutLeft views). A flat RangePolicy
// rather than MDRangePolicy: on the host backends the latter copied the functor (and its Views'
// reference counts) per tile, which cost more than the cell work on these small grids.
template <class Exec, class F>
void for3(const char* name, const Kokkos::Array<int, 3>& b, const Kokkos::Array<int, 3>& e, const F& f) {
  const int b0 = b[0], b1 = b[1], b2 = b[2], n0 = e[0] - b[0], n1 = e[1] - b[1];
  const long n = long(n0) * n1 * (e[2] - b[2]);
  Kokkos::parallel_for(name, Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const long idx) {
    const long r = idx / n0;
    f(b0 + int(idx % n0), b1 + int(r % n1), b2 + int(r / n1));
  });
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
  V3 pr("p", nx, ny, nz), pr2("p2", nx, ny, nz), div("div", nx, ny, nz);
  M3 solid("solid", nx, ny, nz), sample_mask("sample_mask", nx, ny, nz);
  {
    auto hs = Kokkos::create_mirror_view(solid);
    auto hm = Kokkos::create_mirror_view(sample_mask);
    const long n = long(nx) * ny * nz;
    if (long(solid_host.size()) != n) throw InputError(fmt::format("turbulence: obstacle mask has {} cells, grid {}", solid_host.size(), n));
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
  for3<Exec>("stencil", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
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
  for3<Exec>("init_u", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
    const bool blocked = (i > 0 && solid(i - 1, j, k)) || (i < nx && solid(i, j, k));
    u(i, j, k) = blocked ? 0.0 : U0;
  });
  Kokkos::deep_copy(kf, k0);
  Kokkos::deep_copy(ef, eps0);

  TurbulenceResult res;
  for (int step = 0; step < p.steps; ++step) {
    // 1. Semi-Lagrangian advection of u, v, w, k, eps (backtrace with the velocity at the point).
    auto vel = [=] KOKKOS_FUNCTION(double x, double y, double z, double& a, double& b, double& c) {
      a = sample(u, 0.0, 0.5, 0.5, x, y, z, h);
      b = sample(v, 0.5, 0.0, 0.5, x, y, z, h);
      c = sample(w, 0.5, 0.5, 0.0, x, y, z, h);
    };
    for3<Exec>("advect_u", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      const double x = i * h, y = (j + 0.5) * h, z = (k + 0.5) * h;
      double a, b, c;
      vel(x, y, z, a, b, c);
      u2(i, j, k) = sample(u, 0.0, 0.5, 0.5, x - dt * a, y - dt * b, z - dt * c, h);
    });
    for3<Exec>("advect_v", {0, 0, 0}, {nx, ny + 1, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      const double x = (i + 0.5) * h, y = j * h, z = (k + 0.5) * h;
      double a, b, c;
      vel(x, y, z, a, b, c);
      v2(i, j, k) = sample(v, 0.5, 0.0, 0.5, x - dt * a, y - dt * b, z - dt * c, h);
    });
    for3<Exec>("advect_w", {0, 0, 0}, {nx, ny, nz + 1}, KOKKOS_LAMBDA(int i, int j, int k) {
      const double x = (i + 0.5) * h, y = (j + 0.5) * h, z = k * h;
      double a, b, c;
      vel(x, y, z, a, b, c);
      w2(i, j, k) = sample(w, 0.5, 0.5, 0.0, x - dt * a, y - dt * b, z - dt * c, h);
    });
    for3<Exec>("advect_ke", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      const double x = (i + 0.5) * h, y = (j + 0.5) * h, z = (k + 0.5) * h;
      double a, b, c;
      vel(x, y, z, a, b, c);
      // The inflow face carries fresh turbulence k0, eps0: a backtrace that leaves through x = 0 reads it.
      if (x - dt * a < 0) {
        k2(i, j, k) = k0, e2(i, j, k) = eps0;
      } else {
        k2(i, j, k) = sample(kf, 0.5, 0.5, 0.5, x - dt * a, y - dt * b, z - dt * c, h);
        e2(i, j, k) = sample(ef, 0.5, 0.5, 0.5, x - dt * a, y - dt * b, z - dt * c, h);
      }
    });
    Kokkos::fence();
    std::swap(u, u2), std::swap(v, v2), std::swap(w, w2), std::swap(kf, k2), std::swap(ef, e2);

    // 2. Boundary conditions: inflow U0 at x = 0, zero-gradient outflow at x = nx h, slip walls
    //    (zero normal velocity) on y and z, no flux through the body's faces.
    for3<Exec>("bc_u", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (i == 0) u(i, j, k) = U0;
      if (i == nx) u(i, j, k) = u(nx - 1, j, k);
      if ((i > 0 && solid(i - 1, j, k)) || (i < nx && solid(i, j, k))) u(i, j, k) = 0;
    });
    for3<Exec>("bc_v", {0, 0, 0}, {nx, ny + 1, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (j == 0 || j == ny || (j > 0 && solid(i, j - 1, k)) || (j < ny && solid(i, j, k))) v(i, j, k) = 0;
    });
    for3<Exec>("bc_w", {0, 0, 0}, {nx, ny, nz + 1}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (k == 0 || k == nz || (k > 0 && solid(i, j, k - 1)) || (k < nz && solid(i, j, k))) w(i, j, k) = 0;
    });

    // 3. Pressure projection: lap(p) = div(u) / dt by Jacobi sweeps, Neumann at walls and body,
    //    p = 0 beyond the outflow face; then u -= dt grad p on the faces between fluid cells.
    for3<Exec>("divergence", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      div(i, j, k) = solid(i, j, k) ? 0.0 : (u(i + 1, j, k) - u(i, j, k) + v(i, j + 1, k) - v(i, j, k) + w(i, j, k + 1) - w(i, j, k)) / h;
    });
    // Warm start: the previous step's pressure is the initial guess (the flow changes little per step).
    for (int it = 0; it < p.pressure_iterations; ++it) {
      // Branch-free sweep: the fluid-neighbour bits and 1/count were computed once (nbr, inv_count);
      // clamped indices read a valid cell whose weight is 0.
      for3<Exec>("jacobi", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
        const unsigned m = nbr(i, j, k);
        const int im = i > 0 ? i - 1 : i, ip = i < nx - 1 ? i + 1 : i, jm = j > 0 ? j - 1 : j, jp = j < ny - 1 ? j + 1 : j;
        const int km = k > 0 ? k - 1 : k, kp = k < nz - 1 ? k + 1 : k;
        const double sum = (m & 1u) * pr(im, j, k) + ((m >> 1) & 1u) * pr(ip, j, k) + ((m >> 2) & 1u) * pr(i, jm, k) +
                           ((m >> 3) & 1u) * pr(i, jp, k) + ((m >> 4) & 1u) * pr(i, j, km) + ((m >> 5) & 1u) * pr(i, j, kp);
        pr2(i, j, k) = inv_count(i, j, k) * (sum - h * h * div(i, j, k) / dt);
      });
      std::swap(pr, pr2);
    }
    const double s = dt / h;
    for3<Exec>("project_u", {1, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (solid(i - 1, j, k) || (i < nx && solid(i, j, k))) return;
      u(i, j, k) -= s * ((i < nx ? pr(i, j, k) : 0.0) - pr(i - 1, j, k));
    });
    for3<Exec>("project_v", {0, 1, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (solid(i, j - 1, k) || solid(i, j, k)) return;
      v(i, j, k) -= s * (pr(i, j, k) - pr(i, j - 1, k));
    });
    for3<Exec>("project_w", {0, 0, 1}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (solid(i, j, k - 1) || solid(i, j, k)) return;
      w(i, j, k) -= s * (pr(i, j, k) - pr(i, j, k - 1));
    });

    // 4. k-epsilon sources at cell centres (no diffusion): G from the strain rate of the mean flow;
    //    the local ODE k' = G - eps, eps' = (eps/k)(C1 G - C2 eps) by the midpoint rule (second order).
    for3<Exec>("k_epsilon", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
      if (solid(i, j, k)) return;
      auto uc = [&](int a, int b, int c) { return 0.5 * (u(a, b, c) + u(a + 1, b, c)); };
      auto vc = [&](int a, int b, int c) { return 0.5 * (v(a, b, c) + v(a, b + 1, c)); };
      auto wc = [&](int a, int b, int c) { return 0.5 * (w(a, b, c) + w(a, b, c + 1)); };
      const int im = i > 0 ? i - 1 : i, ip = i < nx - 1 ? i + 1 : i, jm = j > 0 ? j - 1 : j, jp = j < ny - 1 ? j + 1 : j;
      const int km = k > 0 ? k - 1 : k, kp = k < nz - 1 ? k + 1 : k;
      const double dxs = (ip - im) * h, dys = (jp - jm) * h, dzs = (kp - km) * h;
      // Diagonal strain from the cell's own faces; the shear terms by central differences.
      const double sxx = (u(i + 1, j, k) - u(i, j, k)) / h, syy = (v(i, j + 1, k) - v(i, j, k)) / h,
                   szz = (w(i, j, k + 1) - w(i, j, k)) / h;
      const double dudy = (uc(i, jp, k) - uc(i, jm, k)) / dys, dudz = (uc(i, j, kp) - uc(i, j, km)) / dzs;
      const double dvdx = (vc(ip, j, k) - vc(im, j, k)) / dxs, dvdz = (vc(i, j, kp) - vc(i, j, km)) / dzs;
      const double dwdx = (wc(ip, j, k) - wc(im, j, k)) / dxs, dwdy = (wc(i, jp, k) - wc(i, jm, k)) / dys;
      const double sxy = 0.5 * (dudy + dvdx), sxz = 0.5 * (dudz + dwdx), syz = 0.5 * (dvdz + dwdy);
      const double S2 = sxx * sxx + syy * syy + szz * szz + 2 * (sxy * sxy + sxz * sxz + syz * syz);
      // Two standard bounds keep the coarse, diffusion-free model from the k-epsilon stagnation-point
      // anomaly (unbounded k in front of a blunt body): Durbin's (1996) realizability time scale
      // T = min(k/eps, 0.6 / (sqrt(6) C_mu |S|)), nu_T = C_mu k T, and a production limiter in the
      // spirit of Menter's (1994) G <= c eps, here with c = production_limit (default C2/C1, so eps
      // cannot grow and k grows at most linearly: without diffusion nothing else bounds them).
      // Both are inactive where the strain is weak (G = 0: the exact decay law).
      const double Smag = sqrt(2 * S2);
      auto rates = [&](double kk, double ee, double& dk, double& de) {
        const double T = Smag > 0 ? fmin(kk / ee, 0.6 / (2.449489742783178 * Cmu * Smag)) : kk / ee;
        const double G = fmin(2 * Cmu * kk * T * S2, Glim * ee);
        dk = G - ee;
        de = ee / kk * (C1 * G - C2 * ee);
      };
      double kk = kf(i, j, k), ee = ef(i, j, k), dk, de;
      rates(kk, ee, dk, de);
      const double km_ = fmax(kk + 0.5 * dt * dk, floor_v), em_ = fmax(ee + 0.5 * dt * de, floor_v);
      rates(km_, em_, dk, de);
      kf(i, j, k) = fmax(kk + dt * dk, floor_v);
      ef(i, j, k) = fmax(ee + dt * de, floor_v);
    });

    // 5. Sample: means of k and eps over the sampled region; chi = <eps> / <k>.
    double sk = 0, se = 0, cnt = 0;
    Kokkos::parallel_reduce(
        "sample", Kokkos::RangePolicy<Exec>(0, ncell),
        KOKKOS_LAMBDA(long idx, double& a, double& b, double& c) {
          const int i = int(idx % nx), j = int((idx / nx) % ny), k = int(idx / (long(nx) * ny));
          if (!sample_mask(i, j, k)) return;
          a += kf(i, j, k), b += ef(i, j, k), c += 1;
        },
        sk, se, cnt);
    if (!std::isfinite(sk) || !std::isfinite(se))
      throw NumericalError(fmt::format("turbulence: field '{}' is not finite in the sampled region at step {} (hint: reduce turbulence.dt)",
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
