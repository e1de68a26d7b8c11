// StableSolver<Exec>: set-up, field access and health checks, the factory, and the class's
// instantiation for every enabled execution space. The step's stages have a file each:
// stable_boundaries.cpp, stable_predict.cpp, stable_viscosity.cpp, stable_pressure.cpp.
#include "immerse/core/backend.hpp"
#include "immerse/core/memory_budget.hpp"
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {

template <class Exec>
void StableSolver<Exec>::stop_if_diverged(const char* solve, double res) const {
  if (!std::isfinite(res))
    throw NumericalError(fmt::format("{}: {} solve diverged (residual {} at step {})", p_.source, solve, res, steps_));
}

template <class Exec>
void StableSolver<Exec>::stop_unconverged(const std::string& solve, int it, double res, const std::string& why) const {
  const bool pressure = solve == "pressure";
  // The fastest face tells an unstable flow (or a body coupled to it going unstable: the usual
  // cause in a coupled case) from a solve that is merely too strict.
  const FieldStatus f = status();
  throw NumericalError(fmt::format(
      "{}: {} solve did not converge at step {}: residual {:.3g} after {} iterations, tolerance "
      "fluid_solver.{}_tol = {:.3g} ({}). The fastest face moves at {:.3g} m/s ({:.3g} cells per step){}. {}Raise "
      "fluid_solver.{}_tol or fluid_solver.max_iterations, or choose another fluid_solver.{}",
      p_.source, solve, steps_, res, it, solve, pressure ? p_.pressure_tol : p_.viscosity_tol,
      why.empty() ? fmt::format("fluid_solver.max_iterations = {} reached", p_.max_iterations) : why, f.max_speed,
      f.max_speed * p_.dt / p_.h,
      f.finite ? "" : fmt::format(", and '{}' is not finite at face ({}, {})", f.field, f.i, f.j),
      pressure ? "If that speed is far above the flow's own, the flow or a coupled body went unstable: lower "
                 "time.dt, or make the body heavier or stiffer. A domain with net inflow and no outflow has no "
                 "pressure solution; a tolerance near round-off cannot be reached. "
               : "",
      solve, solve));
}

template <class Exec>
StableSolver<Exec>::StableSolver(const StableParams& p) : p_(p) {
  mg_.coarse_cycles = p.coarse_cycles;
  mg_.double_weights = p.pressure_solver == LinearSolver::mgcg;
  if (p_.omega <= 0) p_.omega = 2.0 / (1.0 + std::sin(M_PI / std::max(p.nx, p.ny)));
  g_ = StableGrid{p.nx, p.ny, p.nx + 2, p.h};
  const size_t n = static_cast<size_t>(p.nx + 2) * (p.ny + 2);
  for (int c = 0; c < 2; ++c) {
    vel_[c] = view(c ? "v" : "u", n);
    pred_[c] = view("pred", n);
    raw_[c] = view("advected", n);
    wgt_[c] = view("wgt", n);
    bval_[c] = view("bval", n);
    ddiag_[c] = view("ddiag", n);
    drhs_[c] = view("drhs", n);
    code_[c] = flags("code", n);
    dmask_[c] = flags("dmask", n);
  }
  tmp_ = view("tmp", n);
  p_field_ = view("p", n);
  b_ = view("b", n);
  const int m = std::max(p.nx, p.ny) + 2;
  btype_ = Kokkos::View<int* [4], device>("btype", m);
  bnormal_ = Kokkos::View<double* [4], device>("bnormal", m);
  const char* names[4] = {"left", "right", "bottom", "top"};
  for (int s = 0; s < 4; ++s) {
    side_inflow_.emplace_back(p.walls[s].inflow, fmt::format("{}: key 'walls.{}.inflow'", p.source, names[s]));
    walls_depend_on_t_ = walls_depend_on_t_ || (p.walls[s].type == WallType::inflow && side_inflow_.back().uses("t"));
  }
  for (size_t k = 0; k < p.jets.size(); ++k) {
    jet_speed_.emplace_back(p.jets[k].speed, fmt::format("{}: key 'jets.{}.speed'", p.source, k));
    walls_depend_on_t_ = walls_depend_on_t_ || jet_speed_.back().uses("t");
  }
  sample_walls(0);

  // Walls-only pressure weights and viscosity stencils (see set_constraints for the convention).
  auto hb = Kokkos::create_mirror_view(btype_);
  Kokkos::deep_copy(hb, btype_);
  auto side_type = [&](int s, int k) {
    const int len = (s < 2) ? p.ny : p.nx;
    return static_cast<WallType>(hb(std::max(1, std::min(len, k)), s));
  };
  for (int c = 0; c < 2; ++c) {
    auto w = Kokkos::create_mirror_view(wgt_[c]);
    auto dd = Kokkos::create_mirror_view(ddiag_[c]);
    auto dr = Kokkos::create_mirror_view(drhs_[c]);
    auto dm = Kokkos::create_mirror_view(dmask_[c]);
    Kokkos::deep_copy(w, 0.0);
    Kokkos::deep_copy(dd, 0.0);
    Kokkos::deep_copy(dr, 0.0);
    Kokkos::deep_copy(dm, 0);
    // A tangential ghost neighbour across side s: no-slip/inflow walls are Dirichlet at half a cell
    // (theta = 1/2: diagonal +1, rhs + 2 u_wall); slip and outflow are zero-gradient (diagonal -1).
    auto tangential = [&](size_t f, int bit, int s, int k) {
      dm(f) |= static_cast<unsigned char>(1u << bit);
      const WallType t = side_type(s, k);
      if (t == WallType::slip || t == WallType::outflow) {
        dd(f) += -1;
      } else {
        dd(f) += 1;
        dr(f) += t == WallType::noslip ? 2 * p.walls[s].tangential : 0.0;
      }
    };
    if (c == 0) {
      for (int j = 1; j <= p.ny; ++j) {
        for (int i = 1; i < p.nx; ++i) w(g_.at(i, j)) = 1;
        w(g_.at(0, j)) = side_type(kLeft, j) == WallType::outflow ? 1 : 0;
        w(g_.at(p.nx, j)) = side_type(kRight, j) == WallType::outflow ? 1 : 0;
      }
      for (int i = 1; i < p.nx; ++i) {
        tangential(g_.at(i, 1), 2, kBottom, i);
        tangential(g_.at(i, p.ny), 3, kTop, i);
      }
    } else {
      for (int i = 1; i <= p.nx; ++i) {
        for (int j = 1; j < p.ny; ++j) w(g_.at(i, j)) = 1;
        w(g_.at(i, 0)) = side_type(kBottom, i) == WallType::outflow ? 1 : 0;
        w(g_.at(i, p.ny)) = side_type(kTop, i) == WallType::outflow ? 1 : 0;
      }
      for (int j = 1; j < p.ny; ++j) {
        tangential(g_.at(1, j), 0, kLeft, j);
        tangential(g_.at(p.nx, j), 1, kRight, j);
      }
    }
    Kokkos::deep_copy(wgt_[c], w);
    Kokkos::deep_copy(ddiag_[c], dd);
    Kokkos::deep_copy(drhs_[c], dr);
    Kokkos::deep_copy(dmask_[c], dm);
    wgt0_[c] = view("wgt0", n);
    ddiag0_[c] = view("ddiag0", n);
    drhs0_[c] = view("drhs0", n);
    dmask0_[c] = flags("dmask0", n);
    Kokkos::deep_copy(wgt0_[c], wgt_[c]);
    Kokkos::deep_copy(ddiag0_[c], ddiag_[c]);
    Kokkos::deep_copy(drhs0_[c], drhs_[c]);
    Kokkos::deep_copy(dmask0_[c], dmask_[c]);
    touched_[c] = Kokkos::View<int*, device>("touched", 0);
  }

  Expression u0(p.initial_u, p.source + ": key 'initial.u'"), v0(p.initial_v, p.source + ": key 'initial.v'");
  auto hu = Kokkos::create_mirror_view(vel_[0]);
  auto hv = Kokkos::create_mirror_view(vel_[1]);
  for (int j = 0; j < p.ny + 2; ++j)
    for (int i = 0; i < p.nx + 2; ++i) {
      hu(g_.at(i, j)) = u0(i * p.h, (j - 0.5) * p.h);
      hv(g_.at(i, j)) = v0((i - 0.5) * p.h, j * p.h);
    }
  Kokkos::deep_copy(vel_[0], hu);
  Kokkos::deep_copy(vel_[1], hv);
  apply_walls();
  // Advection writes into pred_ without copying vel_ first: the two must agree where no kernel writes.
  Kokkos::deep_copy(pred_[0], vel_[0]);
  Kokkos::deep_copy(pred_[1], vel_[1]);
}

template <class Exec>
std::vector<std::array<double, 2>> StableSolver<Exec>::sample(const std::vector<std::array<double, 2>>& pts,
                                                              SampleField which) const {
  if (sample_xy_.extent(0) < pts.size()) {  // staging reused from call to call (several per step)
    const size_t cap = pts.size() + pts.size() / 2 + 64;
    sample_xy_ = Kokkos::View<double* [2], device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "xy"), cap);
    sample_out_ = Kokkos::View<double* [2], device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "vel"), cap);
  }
  auto xy = sample_xy_, out = sample_out_;
  auto hx = Kokkos::create_mirror_view(xy);
  for (size_t k = 0; k < pts.size(); ++k) hx(k, 0) = pts[k][0], hx(k, 1) = pts[k][1];
  Kokkos::deep_copy(xy, hx);
  const StableGrid g = g_;
  const int c = which == SampleField::predicted ? 1 : which == SampleField::advected ? 2 : 0;
  auto u = c == 1 ? pred_[0] : c == 2 ? raw_[0] : vel_[0], v = c == 1 ? pred_[1] : c == 2 ? raw_[1] : vel_[1];
  auto pf = p_field_;
  const bool pressure = which == SampleField::pressure;
  list_for<Exec>(
      "stable_sample", 0, static_cast<int>(pts.size()), KOKKOS_LAMBDA(int k) {
        if (pressure) {
          out(k, 0) = stable_interp(pf, g, xy(k, 0), xy(k, 1), -0.5, -0.5);
          out(k, 1) = 0;
          return;
        }
        out(k, 0) = stable_interp(u, g, xy(k, 0), xy(k, 1), 0.0, -0.5);
        out(k, 1) = stable_interp(v, g, xy(k, 0), xy(k, 1), -0.5, 0.0);
      });
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<std::array<double, 2>> r(pts.size());
  for (size_t k = 0; k < pts.size(); ++k) r[k] = {ho(k, 0), ho(k, 1)};
  return r;
}

template <class Exec>
HostFields StableSolver<Exec>::fields() const {
  HostFields f;
  f.nx = p_.nx;
  f.ny = p_.ny;
  f.dx = f.dy = p_.h;
  f.time = time_;
  auto copy = [](const view& v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    return std::vector<double>(h.data(), h.data() + h.extent(0));
  };
  f.u = copy(vel_[0]);
  f.v = copy(vel_[1]);
  f.p = copy(p_field_);
  const auto wu = copy(wgt_[0]), wv = copy(wgt_[1]);
  f.solid.assign(f.u.size(), 0);
  for (int j = 1; j <= p_.ny; ++j)
    for (int i = 1; i <= p_.nx; ++i) {
      const size_t k = f.at(i, j);
      // A cell no open face reaches is solid (inside a body; walls keep their own cells open).
      f.solid[k] = wu[k] + wu[k - 1] + wv[k] + wv[f.at(i, j - 1)] <= 0;
    }
  return f;
}

// One pass for both answers: the largest |u|, |v| and the sum of x - x over u, v and p, which is 0
// unless some value is NaN or infinite (x - x is then NaN; a maximum would skip a NaN). Only then
// does a second pass find the first such face. A run asks every step (its fastest face over the run);
// the two passes this replaces (a finite test per face without vectors, then the speeds) cost
// three times as long.
template <class Exec>
FieldStatus StableSolver<Exec>::status() const {
  FieldStatus s;
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1], pf = p_field_;
  MaxSum speed_nan{0, 0};
  cell_reduce<Exec>(
      "stable_status", 0, g.w, 0, g.ny + 2,
      KOKKOS_LAMBDA(int i, int j, MaxSum& acc) {
        const int k = g.at(i, j);
        const double a = u(k), b = v(k), c = pf(k);
        const double fa = Kokkos::Experimental::fabs(a), fb = Kokkos::Experimental::fabs(b);
        const double m = fa > fb ? fa : fb;
        acc.max = m > acc.max ? m : acc.max;
        acc.sum += (a - a) + (b - b) + (c - c);
      },
      MaxSumReducer(speed_nan));
  s.max_speed = speed_nan.max;
  if (speed_nan.sum == 0) return s;
  int bad = -1;
  Kokkos::parallel_reduce(
      "stable_finite", Kokkos::RangePolicy<Exec>(0, u.extent(0)),
      KOKKOS_LAMBDA(int k, int& r) {
        const double a = u(k), b = v(k), c = pf(k);
        if (!(a - a == 0) || !(b - b == 0) || !(c - c == 0)) r = r < 0 || k < r ? k : r;
      },
      Kokkos::Min<int>(bad));
  if (bad >= 0 && bad < static_cast<int>(u.extent(0))) {
    auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    s.finite = false;
    s.field = !std::isfinite(hu(bad)) ? "u" : !std::isfinite(hv(bad)) ? "v" : "p";
    s.i = bad % g.w;
    s.j = bad / g.w;
  }
  return s;
}

template <class Exec>
double StableSolver<Exec>::max_divergence() const {
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1];
  auto wu = wgt_[0], wv = wgt_[1], bu = bval_[0], bv = bval_[1];
  auto cu = code_[0], cv = code_[1];
  const double ih = 1 / p_.h;
  double m = 0;
  cell_reduce<Exec>(
      "stable_div", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& r) {
        const int k = g.at(i, j);
        if (wu(k) + wu(k - 1) + wv(k) + wv(k - g.w) <= 0) return;
        const double d = Kokkos::Experimental::fabs(ih * stable_net_outflow(u, v, wu, wv, cu, cv, bu, bv, k, g.w));
        r = d > r ? d : r;
      },
      Kokkos::Max<double>(m));
  return m;
}

#define IMMERSE_INSTANTIATE(Exec) template class StableSolver<Exec>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<StableFlow> make_stable_flow(Backend backend, const StableParams& p) {
  check_closed_box(p);
  // Semi-Lagrangian advection has no CFL limit, but a departure point further than 20 cells means the
  // time step no longer resolves the flow; the viscosity and pressure steps are implicit.
  double speed = 0;
  for (const auto& w : p.walls) speed = std::max(speed, std::abs(w.tangential));
  for (int s = 0; s < 4; ++s)
    if (p.walls[s].type == WallType::inflow) {
      const char* names[4] = {"left", "right", "bottom", "top"};
      Expression e(p.walls[s].inflow, fmt::format("{}: key 'walls.{}.inflow'", p.source, names[s]));
      for (int k = 0; k <= 8; ++k)
        speed = std::max(speed, std::abs(e(k / 8.0 * p.nx * p.h, k / 8.0 * p.ny * p.h, 0, 0)));
    }
  for (size_t q = 0; q < p.jets.size(); ++q) {
    const JetSpec& j = p.jets[q];
    Expression e(j.speed, fmt::format("{}: key 'jets.{}.speed'", p.source, q));
    speed = std::max(speed, std::abs(e(0.5 * (j.from + j.to), 0.5 * (j.from + j.to), 0, 0)));
  }
  if (speed * p.dt / p.h > 20)
    throw InputError(
        fmt::format("{}: key 'time.dt': {:g} s moves the prescribed speed {:g} m/s over {:.1f} cells per "
                    "step; allowed range dt <= {:g} s (20 cells)",
                    p.source, p.dt, speed, speed * p.dt / p.h, 20 * p.h / speed));
  // Per component 7 face fields (velocity, prediction, advected, weights, boundary values and the
  // diffusion diagonal and right-hand side), plus the pressure, its right-hand side and a scratch field.
  const double cells = double(p.nx + 2) * (p.ny + 2);
  require_memory(backend, cells * 17 * 8,
                 fmt::format("{}: the {}x{} grid (keys 'grid.nx', 'grid.ny')", p.source, p.nx, p.ny));
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<StableFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return std::make_unique<StableSolver<Exec>>(p);
  });
}

}  // namespace immerse::mac2d
