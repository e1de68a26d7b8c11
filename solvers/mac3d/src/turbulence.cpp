#include "immerse/mac3d/turbulence.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "immerse/core/backend.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/ordered_sum.hpp"
#include "turbulence_kernels.hpp"

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

// A View of the grid as turbulence_kernels.hpp reads it (x fastest, no padding).
template <class V>
Field field(const V& f) {
  const int n0 = int(f.extent(0)), n1 = int(f.extent(1)), n2 = int(f.extent(2));
  if (long(f.stride(1)) != n0 || long(f.stride(2)) != long(n0) * n1)
    throw std::logic_error("turbulence: a field of the MAC grid is padded");
  return {f.data(), n0, n1, n2};
}

#if defined(IMMERSE_HOST_GATHER)
// Elements [lo, hi) of a row by lanes(i), a host vector of elements from i (the last one ending at
// hi, so it may repeat elements the one before it did: only for passes that write what they do not
// read), or by one(i), an element at a time, where the row is shorter than a vector.
template <class One, class Lanes>
void row_elements(int lo, int hi, const One& one, const Lanes& lanes) {
  constexpr int width = XLanes::width;
  if (hi - lo < width) {
    for (int i = lo; i < hi; ++i) one(i);
    return;
  }
  for (int i = lo;; i += width) {
    const int first = i + width > hi ? hi - width : i;
    lanes(first);
    if (first + width >= hi) return;
  }
}

// Faces [lo, hi) of a row of one velocity component: 0 on a wall row, else sample(access, i), with
// access OneSample{} or XLanes{}, through row_elements.
template <class Sample>
void face_row(double* to, int lo, int hi, bool wall, const Sample& sample) {
  if (wall) {
    for (int i = lo; i < hi; ++i) to[i] = 0.0;
    return;
  }
  row_elements(
      lo, hi, [&](int i) { to[i] = sample(OneSample{}, i); },
      [&](int i) { XLanes::store(to, i, sample(XLanes{}, i)); });
}

// The same for passes that update in place: whole vectors, then the rest one by one (no element
// twice).
template <class One, class Lanes>
void row_elements_in_place(int lo, int hi, const One& one, const Lanes& lanes) {
  int i = lo;
  for (; i + XLanes::width <= hi; i += XLanes::width) lanes(i);
  for (; i < hi; ++i) one(i);
}
#endif

// 1+2. Semi-Lagrangian advection of u, v, w, k, eps from `m` into `out` (index space: a point's
// coordinates in cells; the backtrace uses the velocity at the point), with the boundary conditions
// applied to the new values: inflow U0 at x = 0, zero-gradient outflow at x = nx h, slip walls (zero
// normal velocity) on y and z, no flux through the body's faces. Faces the conditions set are not
// advected. Host backends: a (j, k) row of every kind per work item, host vectors along x; devices:
// an element of every kind per work item (the union of the face and cell index ranges).
template <class Exec>
void advect(const MacFields& m, const MacFields& out, double c, double U0, double k0, double eps0) {
  const int nx = m.k.n0, ny = m.k.n1, nz = m.k.n2;
#if defined(IMMERSE_HOST_GATHER)
  if constexpr (host_exec<Exec>) {
    Kokkos::parallel_for(
        "advect", Kokkos::RangePolicy<Exec>(0, long(ny + 1) * (nz + 1)), KOKKOS_LAMBDA(const long r) {
          const int j = int(r % (ny + 1)), k = int(r / (ny + 1));
          if (j < ny && k < nz) {  // u: inflow at x = 0; at the outflow face a copy of the value inside it
            double* to = out.u.p + out.u.at(0, j, k);
            to[0] = m.solid[m.cell(0, j, k)] ? 0.0 : U0;
            face_row(to, 1, nx, false, [&](auto a, int i) { return advect_u<decltype(a)>(m, i, j, k, c); });
            to[nx] = to[nx - 1];
          }
          if (k < nz)  // v: 0 on the walls y = 0 and y = ny h
            face_row(out.v.p + out.v.at(0, j, k), 0, nx, j == 0 || j == ny,
                     [&](auto a, int i) { return advect_v<decltype(a)>(m, i, j, k, c); });
          if (j < ny)  // w: 0 on the walls z = 0 and z = nz h
            face_row(out.w.p + out.w.at(0, j, k), 0, nx, k == 0 || k == nz,
                     [&](auto a, int i) { return advect_w<decltype(a)>(m, i, j, k, c); });
          if (j < ny && k < nz) {
            double *k_to = out.k.p + out.k.at(0, j, k), *eps_to = out.eps.p + out.eps.at(0, j, k);
            row_elements(
                0, nx, [&](int i) { advect_cell<OneSample>(m, i, j, k, c, k0, eps0, k_to[i], eps_to[i]); },
                [&](int i) {
                  XLanes::T kn, en;
                  advect_cell<XLanes>(m, i, j, k, c, k0, eps0, kn, en);
                  XLanes::store(k_to, i, kn);
                  XLanes::store(eps_to, i, en);
                });
          }
        });
    return;
  }
#endif
  for3<Exec>(
      "advect", {0, 0, 0}, {nx + 1, ny + 1, nz + 1}, KOKKOS_LAMBDA(int i, int j, int k) {
        if (j < ny && k < nz)
          out.u.p[out.u.at(i, j, k)] =
              i == 0 ? (m.solid[m.cell(0, j, k)] ? 0.0 : U0) : advect_u<OneSample>(m, i < nx ? i : nx - 1, j, k, c);
        if (i < nx && k < nz) out.v.p[out.v.at(i, j, k)] = j == 0 || j == ny ? 0.0 : advect_v<OneSample>(m, i, j, k, c);
        if (i < nx && j < ny) out.w.p[out.w.at(i, j, k)] = k == 0 || k == nz ? 0.0 : advect_w<OneSample>(m, i, j, k, c);
        if (i < nx && j < ny && k < nz)
          advect_cell<OneSample>(m, i, j, k, c, k0, eps0, out.k.p[out.k.at(i, j, k)], out.eps.p[out.eps.at(i, j, k)]);
      });
}

// `sweeps` Jacobi sweeps (jacobi_cell) alternating between the ghosted pressures a and b, from a:
// the result is in b when `sweeps` is odd. Host backends: one parallel region for all of them, a
// (j, k) row per thread at a time, host vectors along x and a team barrier between sweeps (on these
// small grids a launch per sweep cost about as much as the sweep); devices: a launch per sweep, a
// cell per thread.
template <class Exec>
void jacobi_sweeps(const JacobiStencil& s, double* a, double* b, int sweeps, int nx, int ny, int nz) {
  // Cell (i, j, k)'s pressure sits at (i + 1, j + 1, k + 1).
  auto q_of = [=] KOKKOS_FUNCTION(int i, int j, int k) { return (i + 1) + s.s1 * (j + 1) + s.s2 * (k + 1); };
#if defined(IMMERSE_HOST_GATHER)
  if constexpr (host_exec<Exec>) {
    using Team = Kokkos::TeamPolicy<Exec>;
    Kokkos::parallel_for(
        "jacobi", Team(1, Exec().concurrency()), KOKKOS_LAMBDA(const typename Team::member_type& team) {
          double *from = a, *to = b;
          for (int it = 0; it < sweeps; ++it) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, long(ny) * nz), [&](const long r) {
              const long q = q_of(0, int(r % ny), int(r / ny)), c = nx * r;
              row_elements(
                  0, nx, [&](int i) { to[q + i] = jacobi_cell<OneSample>(s, from, q + i, c + i); },
                  [&](int i) { XLanes::store(to, q + i, jacobi_cell<XLanes>(s, from, q + i, c + i)); });
            });
            team.team_barrier();
            std::swap(from, to);
          }
        });
    return;
  }
#endif
  for (int it = 0; it < sweeps; ++it) {
    for3<Exec>(
        "jacobi", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
          b[q_of(i, j, k)] = jacobi_cell<OneSample>(s, a, q_of(i, j, k), i + long(nx) * (j + long(ny) * k));
        });
    std::swap(a, b);
  }
}

// The projection's right-hand side rhs = h^2 div(u) / dt of every cell (divergence_cell).
template <class Exec>
void divergence(const MacFields& m, double* rhs, double h, double dt) {
  const int nx = m.k.n0, ny = m.k.n1, nz = m.k.n2;
#if defined(IMMERSE_HOST_GATHER)
  if constexpr (host_exec<Exec>) {
    Kokkos::parallel_for(
        "divergence", Kokkos::RangePolicy<Exec>(0, long(ny) * nz), KOKKOS_LAMBDA(const long r) {
          const int j = int(r % ny), k = int(r / ny);
          double* to = rhs + nx * r;
          row_elements(
              0, nx, [&](int i) { to[i] = divergence_cell<OneSample>(m, i, j, k, h, dt); },
              [&](int i) { XLanes::store(to, i, divergence_cell<XLanes>(m, i, j, k, h, dt)); });
        });
    return;
  }
#endif
  for3<Exec>(
      "divergence", {0, 0, 0}, {nx, ny, nz},
      KOKKOS_LAMBDA(int i, int j, int k) { rhs[m.cell(i, j, k)] = divergence_cell<OneSample>(m, i, j, k, h, dt); });
}

// The projection (project_face) with the pressure p, in place. The outflow face x = nx h sees p = 0
// beyond it. Host backends: a (j, k) row per work item, host vectors along x.
template <class Exec>
void project(const MacFields& m, const JacobiStencil& ps, const double* p, double s) {
  const int nx = m.k.n0, ny = m.k.n1, nz = m.k.n2;
  auto outflow_u = [=] KOKKOS_FUNCTION(int j, int k) {
    const long q = nx + ps.s1 * (j + 1) + ps.s2 * (k + 1);  // cell (nx - 1, j, k)
    if (!m.solid[m.cell(nx - 1, j, k)]) m.u.p[m.u.at(nx, j, k)] -= s * (0.0 - p[q]);
  };
#if defined(IMMERSE_HOST_GATHER)
  if constexpr (host_exec<Exec>) {
    Kokkos::parallel_for(
        "project", Kokkos::RangePolicy<Exec>(0, long(ny) * nz), KOKKOS_LAMBDA(const long r) {
          const int j = int(r % ny), k = int(r / ny);
          for (int axis = 0; axis < 3; ++axis) {
            if ((axis == 1 && j == 0) || (axis == 2 && k == 0)) continue;  // walls
            double* row = m.face(axis).p + m.face(axis).at(0, j, k);
            row_elements_in_place(
                axis == 0 ? 1 : 0, nx, [&](int i) { row[i] = project_face<OneSample>(m, axis, ps, p, i, j, k, s); },
                [&](int i) { XLanes::store(row, i, project_face<XLanes>(m, axis, ps, p, i, j, k, s)); });
          }
          outflow_u(j, k);
        });
    return;
  }
#endif
  for3<Exec>(
      "project", {0, 0, 0}, {nx + 1, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
        if (i == nx) return outflow_u(j, k);
        if (i > 0) m.u.p[m.u.at(i, j, k)] = project_face<OneSample>(m, 0, ps, p, i, j, k, s);
        if (j > 0) m.v.p[m.v.at(i, j, k)] = project_face<OneSample>(m, 1, ps, p, i, j, k, s);
        if (k > 0) m.w.p[m.w.at(i, j, k)] = project_face<OneSample>(m, 2, ps, p, i, j, k, s);
      });
}

// 4. k-epsilon sources at cell centres (k_epsilon_cell), k and eps updated in place; 5. in the same
// pass, the sums of the new k and eps and the cell count over the sampled region (`mask`), each
// (j, k) row added in x order and the rows in order (ordered_sum): the turbulence statistics, which
// drive the chaotic Langevin falls, are the same bits whatever the backend and thread count.
template <class Exec>
std::array<double, 3> k_epsilon(const MacFields& m, const KEpsilon& e, const std::uint8_t* mask) {
  const int nx = e.nx, ny = e.ny;
  return ordered_sum<Exec, 3>(
      "k_epsilon", long(ny) * e.nz, KOKKOS_LAMBDA(const long r, double* acc) {
        const int j = int(r % ny), k = int(r / ny);
        double *k_row = m.k.p + m.k.at(0, j, k), *eps_row = m.eps.p + m.eps.at(0, j, k);
        auto one = [&](int i) { k_epsilon_cell<OneSample>(m, e, i, j, k, k_row[i], eps_row[i]); };
#if defined(IMMERSE_HOST_GATHER)
        if constexpr (host_exec<Exec>) {
          row_elements_in_place(0, nx, one, [&](int i) {
            XLanes::T kn, en;
            k_epsilon_cell<XLanes>(m, e, i, j, k, kn, en);
            XLanes::store(k_row, i, kn);
            XLanes::store(eps_row, i, en);
          });
        } else
#endif
          for (int i = 0; i < nx; ++i) one(i);
        const std::uint8_t* in = mask + m.cell(0, j, k);
        for (int i = 0; i < nx; ++i)
          if (in[i]) {
            acc[0] += k_row[i];
            acc[1] += eps_row[i];
            acc[2] += 1;
          }
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
  // Jacobi stencil of each cell (JacobiStencil): a flag per fluid neighbour (-x, +x, -y, +y, -z, +z)
  // and 1 / (number of neighbours + 1 for the Dirichlet p = 0 beyond the outflow face); 0 in the body.
  Kokkos::View<uint8_t*, typename Exec::memory_space> open("open", 6 * ncell);
  V3 inv_count("inv_count", nx, ny, nz);
  for3<Exec>(
      "stencil", {0, 0, 0}, {nx, ny, nz}, KOKKOS_LAMBDA(int i, int j, int k) {
        bool fluid[6] = {};
        double n = 0;
        if (!solid(i, j, k)) {
          fluid[0] = i > 0 && !solid(i - 1, j, k);
          fluid[1] = i < nx - 1 && !solid(i + 1, j, k);
          fluid[2] = j > 0 && !solid(i, j - 1, k);
          fluid[3] = j < ny - 1 && !solid(i, j + 1, k);
          fluid[4] = k > 0 && !solid(i, j, k - 1);
          fluid[5] = k < nz - 1 && !solid(i, j, k + 1);
          for (bool f : fluid) n += f ? 1 : 0;
          if (i == nx - 1) n += 1;
        }
        const long c = i + long(nx) * (j + long(ny) * k);
        for (int d = 0; d < 6; ++d) open(d * ncell + c) = fluid[d] ? 1 : 0;
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
  const KEpsilon ke{nx, ny, nz, h, 1.0 / h, dt, p.C_mu, p.C1, p.C2, Glim, p.k_floor};
  // The fields the advection and k-epsilon passes read (the swaps change which View holds which).
  const auto fields = [&] { return MacFields{field(u), field(v), field(w), field(kf), field(ef), solid.data()}; };
  for (int step = 0; step < p.steps; ++step) {
    // 1+2. Semi-Lagrangian advection of u, v, w, k, eps in index space (a point's coordinates in
    //    cells; the backtrace uses the velocity at the point), with the boundary conditions applied
    //    to the new values: inflow U0 at x = 0, zero-gradient outflow at x = nx h, slip walls (zero
    //    normal velocity) on y and z, no flux through the body's faces. Faces the conditions set are
    //    not advected. One kernel over the union of the face and cell index ranges.
    advect<Exec>(fields(), {field(u2), field(v2), field(w2), field(k2), field(e2), solid.data()}, c, U0, k0, eps0);
    std::swap(u, u2);
    std::swap(v, v2);
    std::swap(w, w2);
    std::swap(kf, k2);
    std::swap(ef, e2);

    // 3. Pressure projection: lap(p) = div(u) / dt by Jacobi sweeps, Neumann at walls and body,
    //    p = 0 beyond the outflow face; then u -= dt grad p on the faces between fluid cells.
    //    rhs = h^2 div(u) / dt, the sweeps' constant term.
    const JacobiStencil stencil{{open.data(), open.data() + ncell, open.data() + 2 * ncell, open.data() + 3 * ncell,
                                 open.data() + 4 * ncell, open.data() + 5 * ncell},
                                inv_count.data(),
                                rhs.data(),
                                long(pr.stride(1)),
                                long(pr.stride(2))};
    divergence<Exec>(fields(), rhs.data(), h, dt);
    // Warm start: the previous step's pressure is the initial guess (the flow changes little per step).
    // Branch-free sweeps: a missing neighbour (wall, body, ghost) has weight 0.
    jacobi_sweeps<Exec>(stencil, pr.data(), pr2.data(), p.pressure_iterations, nx, ny, nz);
    if (p.pressure_iterations % 2) std::swap(pr, pr2);
    project<Exec>(fields(), stencil, pr.data(), s);

    // 4. k-epsilon sources at cell centres (no diffusion): G from the strain rate of the mean flow;
    //    the local ODE k' = G - eps, eps' = (eps/k)(C1 G - C2 eps) by the midpoint rule (second order).
    // 5. In the same pass, the means of the new k and eps over the sampled region; chi = <eps> / <k>.
    const auto sums = k_epsilon<Exec>(fields(), ke, sample_mask.data());
    const double sk = sums[0], se = sums[1], cnt = sums[2];
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
