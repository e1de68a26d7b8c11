// The Stable Fluids pressure solve and projection: the right-hand side, the four solvers of
// fluid_solver.pressure (jacobi, rbsor, multigrid, mgcg) and the projection of the faces.
#include <algorithm>
#include <cmath>

#include "immerse/core/backend.hpp"
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"
#include "stable_split_rows.hpp"

namespace immerse::mac2d {
namespace {
// The multigrid solver runs V-cycles in float on the double residual, several in a row, and returns
// to double (adds the correction, measures the true residual) when the next cycle is expected to
// converge or the float ones stop paying (r0: float residual after a cycle's pre-smoothing, first:
// the batch's first r0). Measured at 256^2: on bench_stable's jet a cycle cuts r0 17-50x and the
// residual right after it is 11-17x below its r0; on the windmill's thin blades a cycle cuts r0
// only ~1.3x late in the run (17 cycles per solve). Float round-off in b - A z (terms of size |z|
// cancelling) stalls r0 near 5e-5 of first.
constexpr double kCycleCut = 0.1;       // back to double once r0 times the larger of this and the
                                        // last cycle's cut (r0 / previous r0) is <= the tolerance
constexpr double kFloatProgress = 0.9;  // ... or once that cut is above this (round-off)
constexpr double kFloatReach = 1e-3;    // ... or once r0 <= kFloatReach * first, short of round-off
constexpr int kCheckEvery = 10;         // Jacobi / SOR iterations between residual reductions (one costs ~1 sweep)

// Multigrid and MG-preconditioned CG halve the residual every few iterations on a solvable system
// (test_stable_fluid: 0.1-0.2 per V-cycle). One that has not halved it in kStallWindow iterations
// has stopped converging: a singular system (inflow into a closed box) or a tolerance below
// round-off. It is stopped there rather than crawling on to fluid_solver.max_iterations.
constexpr int kStallWindow = 50;
struct StallWatch {
  bool started = false;
  double mark = 0;
  int mark_it = 0;
  bool stalled(int it, double res) {
    if (!started || res <= 0.5 * mark) started = true, mark = res, mark_it = it;
    return it - mark_it >= kStallWindow;
  }
};
std::string stall_reason() { return fmt::format("not halved in the last {} iterations", kStallWindow); }

// f(i, j, acc) over the interior cells reduced into result (as cell_reduce): on host spaces with
// vectors a row at a time through row(j, acc, &done) (its cells 1 .. done, stable_split_rows.hpp),
// the rest of the row by f; elsewhere per cell.
template <class Exec, class F, class Row, class Result>
void split_rows_reduce(const char* name, const StableGrid& g, const F& f, const Row& row, Result&& result) {
#if defined(IMMERSE_HOST_LANES)
  if constexpr (kRowLoops<Exec>) {
    using value = typename ReduceValue<Result>::type;
    Kokkos::parallel_reduce(
        name, Kokkos::RangePolicy<Exec>(1, g.ny + 1),
        [=](int j, value& acc) {
          int done = 0;
          row(j, acc, &done);
          for (int i = done + 1; i <= g.nx; ++i) f(i, j, acc);
        },
        std::forward<Result>(result));
    return;
  }
#endif
  (void)row;
  cell_reduce<Exec>(name, 1, g.nx + 1, 1, g.ny + 1, f, std::forward<Result>(result));
}
}  // namespace

template <class Exec>
double StableSolver<Exec>::pressure_residual() const {
  const StableGrid g = g_;
  auto pf = p_field_, b = b_;
  auto wu = wgt_[0], wv = wgt_[1];
  const double scale = div_per_residual();
  double res = 0;
  cell_reduce<Exec>(
      "stable_p_residual", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& r) {
        const double d = Kokkos::Experimental::fabs(stable_pressure_defect(wu, wv, pf, b, g.at(i, j), g.w));
        r = d > r ? d : r;
      },
      Kokkos::Max<double>(res));
  return res * scale;
}

template <class Exec>
void StableSolver<Exec>::solve_pressure() {
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1], b = b_;
  auto wu = wgt_[0], wv = wgt_[1], bu = bval_[0], bv = bval_[1];
  auto cu = code_[0], cv = code_[1];
  const double s = p_.rho * p_.h / p_.dt;
  // b = rho h^2/dt div(u*) with a face's body part moving at the body velocity (stable_net_outflow).
  cell_for<Exec>(
      "stable_p_rhs", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
        const int k = g.at(i, j);
        b(k) = s * stable_net_outflow(u, v, wu, wv, cu, cv, bu, bv, k, g.w);
      });
  // Each solver runs from the current p until max |div u| <= pressure_tol or max_iterations, and
  // leaves its iteration count, the residual (1/s) and whether it converged.
  const auto t0 = std::chrono::steady_clock::now();
  int it = 0;
  double res = 0;
  bool converged = false;
  switch (p_.pressure_solver) {
    case LinearSolver::mgcg:
      if (solve_pressure_mgcg(it, res, converged)) break;
      [[fallthrough]];  // a breakdown (see solve_pressure_mgcg): V-cycles from where CG stopped
    case LinearSolver::multigrid:
      solve_pressure_multigrid(it, res, converged);
      break;
    case LinearSolver::jacobi:
    case LinearSolver::rbsor:
      solve_pressure_relaxation(it, res, converged);
      break;
  }
  if (!converged) stop_unconverged("pressure", it, res);
  pstats_.solves++;
  pstats_.iterations += it;
  pstats_.last_iterations = it;
  pstats_.last_residual = res;
  pstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// V-cycles until the residual of p is within the tolerance, as defect correction: the residual
// r = b - L p in double (its maximum is the stopping test), one V-cycle in float for the correction
// z, p += z in double. The float cycle's round-off limits how much one cycle can reduce r (to about
// 1e-6 of it), not the accuracy of p, which the double residual carries. A float cycle moves half the
// bytes of a double one with twice the SIMD lanes, at the same number of cycles per solve.
// After a cycle, p += z and the next residual are one pass: r from p + z read at each cell and its
// neighbours, p + z written to the spare pressure array (a neighbour in another thread's rows still
// reads the old p and z), which then becomes p. The V-cycle starts from z = 0 whatever z holds, so z
// is not cleared either.
template <class Exec>
void StableSolver<Exec>::solve_pressure_multigrid(int& it, double& res, bool& converged) {
  const StableGrid g = g_;
  ensure_spare_pressure();
  auto b = b_;
  auto wu = wgt_[0], wv = wgt_[1];
  const double scale = div_per_residual();
  mg_.setup(g_, wgt_[0], wgt_[1], weights_version_, weights_changed_, weights_changed_n_);
  // The residual goes straight into the multigrid's level 0 and the correction is read from there
  // (colour-split: SplitGrid s), so neither is copied between layouts.
  auto z = mg_.correction0(), rf = mg_.rhs0();
  const SplitGrid s = mg_.grid0();
  StallWatch watch;
  bool partial = false;    // the last cycle ended after its pre-smoothing
  bool corrected = false;  // z holds a cycle's correction, not yet added to p
  while (true) {
    // r into rf (float; closed cells 0) with max |r|, from the current p (plus z).
    double rmax = 0;
    auto pf = p_field_;
    if (!corrected) {
      auto defect = KOKKOS_LAMBDA(int i, int j, double& m) {
        const double r = stable_pressure_defect(wu, wv, pf, b, g.at(i, j), g.w);
        rf(s.at(i, j)) = static_cast<float>(r);
        const double a = Kokkos::Experimental::fabs(r);
        m = a > m ? a : m;
      };
      split_rows_reduce<Exec>(
          "stable_mg_defect", g, defect,
          [=](int j, double& m, int* done) {
            split_rows::defect_row<false>(g, s, j, pf.data(), b.data(), wu.data(), wv.data(), nullptr, nullptr,
                                          rf.data(), nullptr, m, done);
          },
          Kokkos::Max<double>(rmax));
    } else {
      // Closed cells keep p: z there is 0 or a prolonged coarse correction, and a neighbour's weight
      // towards a closed cell is 0, so its z never reaches an open cell's residual.
      auto pn = p_spare_;
      auto correct = KOKKOS_LAMBDA(int i, int j, double& m) {
        const int k = g.at(i, j), ks = s.at(i, j);
        auto q = [&](int c, int cs) { return pf(c) + static_cast<double>(z(cs)); };
        const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
        const double open = W > 0 ? 1.0 : 0.0, qk = q(k, ks);
        const double r = open * (b(k) - (we * q(k + 1, s.at(i + 1, j)) + ww * q(k - 1, s.at(i - 1, j)) +
                                         wn * q(k + g.w, ks + s.w) + ws * q(k - g.w, ks - s.w) - W * qk));
        pn(k) = W > 0 ? qk : pf(k);
        rf(ks) = static_cast<float>(r);
        const double a = Kokkos::Experimental::fabs(r);
        m = a > m ? a : m;
      };
      split_rows_reduce<Exec>(
          "stable_mg_correct_defect", g, correct,
          [=](int j, double& m, int* done) {
            split_rows::defect_row<true>(g, s, j, pf.data(), b.data(), wu.data(), wv.data(), z.data(), pn.data(),
                                         rf.data(), nullptr, m, done);
          },
          Kokkos::Max<double>(rmax));
      std::swap(p_field_, p_spare_);
      corrected = false;
    }
    res = rmax * scale;
    stop_if_diverged("pressure", res);
    converged = res <= p_.pressure_tol;
    if (partial && !converged) ++it;  // the float estimate below was optimistic: that cycle counts
    if (converged || it >= p_.max_iterations) break;
    if (watch.stalled(it, res)) stop_unconverged("pressure", it, res, stall_reason());
    // Float V-cycles for rf, each from the correction the last one left (see kCycleCut). A cycle
    // whose pre-smoothing already brings the residual within the tolerance ends there and is not
    // counted if the double pass above confirms it.
    const double stop_at = p_.pressure_tol / scale;
    partial = false;
    for (double first = -1, last = -1; it < p_.max_iterations;) {
      const double r0 = mg_.cycle(/*symmetric=*/false, stop_at, /*zero_start=*/first < 0);
      if (r0 <= stop_at) {
        partial = true;
        break;
      }
      ++it;
      if (!std::isfinite(r0)) break;  // float overflow: the double pass above stops the run
      if (first < 0) first = r0;
      const double cut = last > 0 ? r0 / last : kCycleCut;  // the last cycle's
      if (r0 * std::max(kCycleCut, cut) <= stop_at || r0 <= kFloatReach * first || cut > kFloatProgress) break;
      last = r0;
    }
    corrected = true;
  }
}

// Damped Jacobi (weight 0.9: with walls all round, the Neumann problem's checkerboard mode has
// iteration eigenvalue -1 under plain Jacobi and never decays) or red-black SOR at fluid_solver.omega,
// with the residual checked every kCheckEvery sweeps.
template <class Exec>
void StableSolver<Exec>::solve_pressure_relaxation(int& it, double& res, bool& converged) {
  const StableGrid g = g_;
  auto pf = p_field_, pn = tmp_, b = b_;
  auto wu = wgt_[0], wv = wgt_[1];
  const bool jacobi = p_.pressure_solver == LinearSolver::jacobi;
  const double omega = jacobi ? 0.9 : p_.omega;
  auto update = [=] KOKKOS_FUNCTION(const Kokkos::View<double*, device>& src, int k) {
    const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
    if (W <= 0) return 0.0;
    return (we * src(k + 1) + ww * src(k - 1) + wn * src(k + g.w) + ws * src(k - g.w) - b(k)) / W;
  };
  res = pressure_residual();
  converged = res <= p_.pressure_tol;
  while (!converged && it < p_.max_iterations) {
    if (jacobi) {
      cell_for<Exec>(
          "stable_p_jacobi", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
            const int k = g.at(i, j);
            pn(k) = pf(k) + omega * (update(pf, k) - pf(k));
          });
      cell_for<Exec>(
          "stable_p_copy", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) { pf(g.at(i, j)) = pn(g.at(i, j)); });
    } else {
      for (int colour = 0; colour < 2; ++colour)
        colour_for<Exec>(
            "stable_p_sor", g.nx, g.ny, colour, KOKKOS_LAMBDA(int i, int j) {
              const int k = g.at(i, j);
              pf(k) += omega * (update(pf, k) - pf(k));
            });
    }
    ++it;
    if (it % kCheckEvery == 0) {
      res = pressure_residual();
      stop_if_diverged("pressure", res);
      converged = res <= p_.pressure_tol;
    }
  }
}

// Conjugate gradients for A p = -b, A = -L with L p = sum over faces w (p_neighbour - p) (symmetric,
// positive definite on the cells with a face of weight > 0 once an outflow fixes the level; with
// walls all round the right-hand side sums to zero and CG stays in the range). Preconditioner: one
// symmetric cycle in float (a V-cycle unless fluid_solver.coarse_cycles > 1: StableMultigrid::cycle;
// red-black before, black-red after each coarse correction, Galerkin
// coarse levels; stable_multigrid.hpp), which approximates L^-1 and so maps the residual
// r = b - L p to an approximate correction z. With A-residual rho = -r: rho.z = -(r.z), and the Polak-Ribiere beta
// keeps CG convergent where the V-cycle is not exactly symmetric (the coarsest level's fixed sweeps). Cells with no
// open face (inside a body) are left out: r, z, d are 0 there and p keeps its value. A breakdown (non-positive
// curvature, from round-off near convergence) falls back to V-cycles.
// r, d, q and the face weights (in double: the multigrid keeps a copy, mg_.weights0_u()) live in the
// multigrid's colour-split layout, as z does: a pass over them reads contiguous runs
// (stable_grid.hpp), and only p is in the solver's layout. In the solver's layout every pass
// interleaved z and the split residual.
template <class Exec>
bool StableSolver<Exec>::solve_pressure_mgcg(int& it, double& res, bool& converged) {
  const StableGrid g = g_;
  mg_.setup(g_, wgt_[0], wgt_[1], weights_version_, weights_changed_, weights_changed_n_);
  const SplitGrid s = mg_.grid0();
  const size_t n = s.size();
  if (cg_r_.extent(0) != n) {
    cg_r_ = view("cg_r", n);
    cg_d_ = view("cg_d", n);
    cg_q_ = view("cg_q", n);
  }
  auto pf = p_field_, b = b_, r = cg_r_, d = cg_d_, q = cg_q_, cwu = mg_.weights0_u(), cwv = mg_.weights0_v();
  auto wu = wgt_[0], wv = wgt_[1];
  const double scale = div_per_residual();
  // The preconditioner's right-hand side and result live in the multigrid's level 0, written and
  // read by the passes below.
  auto z = mg_.correction0(), rf = mg_.rhs0();
  auto precondition = [&] { mg_.cycle(/*symmetric=*/true, -1, /*zero_start=*/true); };  // z = one cycle for r
  double rmax = 0;
  split_rows_reduce<Exec>(
      "stable_cg_residual", g,
      KOKKOS_LAMBDA(int i, int j, double& m) {
        const int ks = s.at(i, j);
        r(ks) = stable_pressure_defect(wu, wv, pf, b, g.at(i, j), g.w);
        rf(ks) = static_cast<float>(r(ks));
        const double a = Kokkos::Experimental::fabs(r(ks));
        m = a > m ? a : m;
      },
      [=](int j, double& m, int* done) {
        split_rows::defect_row<false>(g, s, j, pf.data(), b.data(), wu.data(), wv.data(), nullptr, nullptr, rf.data(),
                                      r.data(), m, done);
      },
      Kokkos::Max<double>(rmax));
  res = rmax * scale;
  converged = res <= p_.pressure_tol;
  if (converged) return true;
  precondition();
  double delta = -cg_dot(r);
  double beta = 0;
  StallWatch watch;
  watch.stalled(0, res);
  while (!converged && it < p_.max_iterations) {
    // d = z + beta d and q = A d in one pass, as q = A z + beta q (A is linear): A z reads z's
    // neighbours, final after the V-cycle, where A d would need d's updated first. beta = 0 on the
    // first iteration and q is always finite (zero-initialised, then written), so q starts as A z.
    // The neighbours of cell k in half h: east and west in the other half (stable_grid.hpp).
    double dq = 0;
    split_cell_reduce<Exec>(
        "stable_cg_direction", s,
        KOKKOS_LAMBDA(int, int, int k, int h, double& acc) {
          const int e = k + (h ? -s.half : s.half + 1), west = k + (h ? -s.half - 1 : s.half);
          const double we = cwu(k), ww = cwu(west), wn = cwv(k), ws = cwv(k - s.w), W = we + ww + wn + ws;
          // Closed cells (no open face) keep d = q = 0: a factor 0 or 1 rather than a select, which GCC
          // turned into a branch around the (float z) conversions, leaving the loop scalar. z is finite
          // there (0, or a prolonged coarse correction), so the product is 0.
          const double open = W > 0 ? 1.0 : 0.0;
          const double zk = z(k);
          const double az = W * zk - (we * z(e) + ww * z(west) + wn * z(k + s.w) + ws * z(k - s.w));
          const double dn = open * (zk + beta * d(k)), qn = open * (az + beta * q(k));
          d(k) = dn;
          q(k) = qn;
          acc += dn * qn;
        },
        dq);
    if (!(delta > 0) || !(dq > 0)) return false;
    const double alpha = delta / dq;
    // p += alpha d and r += alpha q (r = b - L p = -rho, and rho -= alpha A d), with max |r| for the
    // stopping test and r (new) . z (old) for Polak-Ribiere.
    MaxSum upd{0, 0};
    split_cell_reduce<Exec>(
        "stable_cg_update", s,
        KOKKOS_LAMBDA(int i, int j, int k, int, MaxSum& acc) {
          pf(g.at(i, j)) += alpha * d(k);
          const double rn = r(k) + alpha * q(k);
          r(k) = rn;
          rf(k) = static_cast<float>(rn);
          const double a = Kokkos::Experimental::fabs(rn);
          acc.max = a > acc.max ? a : acc.max;
          acc.sum += rn * z(k);
        },
        MaxSumReducer(upd));
    ++it;
    res = upd.max * scale;
    stop_if_diverged("pressure", res);
    converged = res <= p_.pressure_tol;
    if (converged) break;
    if (watch.stalled(it, res)) stop_unconverged("pressure", it, res, stall_reason());
    precondition();
    const double delta_new = -cg_dot(r);
    beta = (delta_new + upd.sum) / delta;
    delta = delta_new;
  }
  if (converged) res = pressure_residual();  // the recurrence's residual, confirmed on p itself
  return true;
}

// sum a z over the interior cells, a and z (the multigrid's correction) colour-split.
template <class Exec>
double StableSolver<Exec>::cg_dot(const view& a) const {
  auto z = mg_.correction0();
  double sum = 0;
  split_cell_reduce<Exec>(
      "stable_cg_dot", mg_.grid0(), KOKKOS_LAMBDA(int, int, int k, int, double& acc) { acc += a(k) * z(k); }, sum);
  return sum;
}

template <class Exec>
void StableSolver<Exec>::project() {
  timed("pressure", [&] {
    solve_pressure();
    const StableGrid g = g_;
    auto u = vel_[0], v = vel_[1], pf = p_field_;
    auto wu = wgt_[0], wv = wgt_[1];
    const double s = p_.dt / (p_.rho * p_.h);
    // Faces of the pressure equation (weight > 0) take the pressure gradient; ghost p = 0 at outflows.
    cell_for<Exec>(
        "stable_project", 0, g.nx + 1, 0, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);
          if (j >= 1 && wu(k) > 0) u(k) -= s * (pf(k + 1) - pf(k));
          if (i >= 1 && wv(k) > 0) v(k) -= s * (pf(k + g.w) - pf(k));
        });
  });
  timed("boundaries", [&] { apply_walls(/*extrapolate_outflow=*/false); });
  time_ += p_.dt;
  ++steps_;
}

#define IMMERSE_INSTANTIATE(Exec)                                                    \
  template double StableSolver<Exec>::pressure_residual() const;                     \
  template void StableSolver<Exec>::solve_pressure();                                \
  template void StableSolver<Exec>::solve_pressure_multigrid(int&, double&, bool&);  \
  template void StableSolver<Exec>::solve_pressure_relaxation(int&, double&, bool&); \
  template bool StableSolver<Exec>::solve_pressure_mgcg(int&, double&, bool&);       \
  template double StableSolver<Exec>::cg_dot(const view&) const;                     \
  template void StableSolver<Exec>::project();
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
