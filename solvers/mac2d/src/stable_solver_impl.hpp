#pragma once
// StableSolver<Exec>: the Stable Fluids step on one execution space. Kernels are lambdas over
// Kokkos Views (locals copied out of the object so they are device-clean). Layout as HostFields:
// (nx+2) x (ny+2) arrays, x fastest; u(i, j) at (i h, (j - 1/2) h), v(i, j) at ((i - 1/2) h, j h),
// p(i, j) at the centre of cell (i, j), 1 <= i <= nx, 1 <= j <= ny.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <map>

#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"
#include "immerse/core/simd_lanes.hpp"
#include "immerse/core/state_views.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/mac2d/stable_flow.hpp"
#include "stable_grid.hpp"
#include "stable_multigrid.hpp"

namespace immerse::mac2d {

// The sides, in the order of StableParams::walls.
constexpr int kLeft = 0, kRight = 1, kBottom = 2, kTop = 3;

// How a body touches a velocity face (code_): not at all; partly (open by its pressure weight, the
// body's velocity on the closed part); or fully (the face moves with the body and leaves the pressure
// equation: inside the body, or under the small-cut-cell rule).
enum FaceCode : int { kFaceFree = 0, kFacePartial = 1, kFaceFixed = 2 };

// The per-lane steps of a bilinear sample, for a number (every backend) and, on hosts with
// gathers, for a vector of numbers (the advection's face rows, stable_backtrace.hpp).
KOKKOS_INLINE_FUNCTION double clamp_index(double f, double hi) { return !(f >= 0) ? 0 : (f > hi ? hi : f); }
KOKKOS_INLINE_FUNCTION int floor_index(double f) { return static_cast<int>(f); }  // f >= 0
KOKKOS_INLINE_FUNCTION double to_real(int k) { return k; }
template <class V>
KOKKOS_INLINE_FUNCTION double gather(const V& f, int k) {
  return f(k);
}
#if defined(IMMERSE_HOST_GATHER)
using HostReal = HostLanes<double>;
inline HostReal clamp_index(HostReal f, double hi) {
  const HostReal::V h = HostReal::splat(hi), zero{};
  return HostReal(f.x >= zero ? (f.x > h ? h : f.x) : zero);  // a NaN fails >= : 0, as above
}
inline HostIndices floor_index(HostReal f) { return immerse::truncate(f); }
inline HostReal to_real(HostIndices k) { return immerse::to_real(k); }
template <class V>
inline HostReal gather(const V& f, HostIndices k) {
  return immerse::gather(f.data(), k);
}
#endif

// Bilinear sample of a component at the fractional index (fi, fj) of its own lattice (node (i, j) at
// index (i, j)), clamped to [0, nx+1] x [0, ny+1] (the ghost layer holds the boundary values).
// T: a number, or a host vector of numbers (one sample per lane).
template <class V, class T>
KOKKOS_INLINE_FUNCTION T stable_interp_index(const V& f, const StableGrid& g, T fi, T fj) {
  // Written so that a NaN coordinate clamps to 0 (a NaN fails every comparison): a diverged field then
  // reads inside the arrays and the health check names it, instead of an out-of-bounds read.
  fi = clamp_index(fi, g.nx + 0.999999);
  fj = clamp_index(fj, g.ny + 0.999999);
  const auto i = floor_index(fi), j = floor_index(fj);
  const T a = fi - to_real(i), b = fj - to_real(j);
  const auto k = j * g.w + i;
  return (1 - a) * (1 - b) * gather(f, k) + a * (1 - b) * gather(f, k + 1) + (1 - a) * b * gather(f, k + g.w) +
         a * b * gather(f, k + g.w + 1);
}

// The same at the point (x, y) for a staggered component whose node (i, j) sits at ((i + ox) h, (j + oy) h).
template <class V>
KOKKOS_INLINE_FUNCTION double stable_interp(const V& f, const StableGrid& g, double x, double y, double ox, double oy) {
  return stable_interp_index(f, g, x / g.h - ox, y / g.h - oy);
}

// The net volume flux out of cell k per unit length (east - west + north - south faces; w: the
// row stride), each face's body part moving at the body velocity: w u + (1 - w) u_body on a face a
// body touches (code != kFaceFree), the face value itself elsewhere. The divergence the projection removes
// and the one it reports are both this over h.
template <class V, class C>
KOKKOS_INLINE_FUNCTION double stable_net_outflow(const V& u, const V& v, const V& wu, const V& wv, const C& cu,
                                                 const C& cv, const V& bu, const V& bv, int k, int w) {
  auto flux = [](double val, double wf, int code, double body) {
    return code != kFaceFree ? wf * val + (1 - wf) * body : val;
  };
  return flux(u(k), wu(k), cu(k), bu(k)) - flux(u(k - 1), wu(k - 1), cu(k - 1), bu(k - 1)) +
         flux(v(k), wv(k), cv(k), bv(k)) - flux(v(k - w), wv(k - w), cv(k - w), bv(k - w));
}

// The residual b - L p of the pressure equation at cell k, L p the sum over its faces of the face
// weight times (p_nb - p) (w: the row stride); 0 at a cell with no open face. A factor, not a
// branch, so row loops vectorise.
template <class V>
KOKKOS_INLINE_FUNCTION double stable_pressure_defect(const V& wu, const V& wv, const V& p, const V& b, int k, int w) {
  const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - w), W = we + ww + wn + ws;
  const double open = W > 0 ? 1.0 : 0.0;
  return open * (b(k) - (we * p(k + 1) + ww * p(k - 1) + wn * p(k + w) + ws * p(k - w) - W * p(k)));
}

template <class Exec>
class StableSolver final : public StableFlow {
 public:
  using device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using view = Kokkos::View<double*, device>;
  // Per-face small integers (body codes, stencil masks) as int, not bytes: a loop that reads bytes
  // beside doubles gets a vectorisation factor of 64 on AVX-512 (one zmm of bytes), so a 128-cell
  // row runs one vector iteration and up to 63 scalar ones.
  using flags = Kokkos::View<int*, device>;

  explicit StableSolver(const StableParams& p);

  void set_constraints(const std::vector<FaceConstraint>& faces) override;
  void predict() override;
  void project() override;
  std::vector<std::array<double, 2>> sample(const std::vector<std::array<double, 2>>& pts,
                                            SampleField which) const override;
  HostFields fields() const override;
  FieldStatus status() const override;
  double max_divergence() const override;
  double time() const override { return time_; }
  long steps_done() const override { return steps_; }
  const StableParams& params() const override { return p_; }
  const SolveStats& pressure_stats() const override { return pstats_; }
  const SolveStats& viscosity_stats() const override { return vstats_; }
  void archive(StateArchive& a) override {
    a.value("stable.time", time_);
    a.value("stable.steps", steps_);
    a.value("stable.viscosity_guess", visc_guess_);
    a.value("stable.pressure_stats", pstats_);
    a.value("stable.viscosity_stats", vstats_);
    archive_view(a, "stable.u", vel_[0]);
    archive_view(a, "stable.v", vel_[1]);
    archive_view(a, "stable.p", p_field_);
  }
  std::vector<std::pair<std::string, double>> phase_seconds() const override {
    return {phases_.totals_s().begin(), phases_.totals_s().end()};
  }

  // Implementation below. Public only because nvcc rejects extended __host__ __device__ lambdas
  // inside private or protected member functions; the class lives in src/ and is not installed.
  void sample_walls(double t);
  // Normal faces of outflow sides are extrapolated before the projection only (after it they hold
  // the projected, divergence-free values).
  void apply_walls(bool extrapolate_outflow = true);
  // Multigrid on the pressure equation, in float (stable_multigrid.hpp): the corrections of
  // fluid_solver.pressure = multigrid (and mgcg's fallback), mgcg's preconditioner.
  StableMultigrid<Exec> mg_;
  long weights_version_ = 0;  // changed whenever wgt_ changes (set_constraints), so mg_ rebuilds its levels' weights
  // Conjugate gradients on the pressure equation preconditioned by one symmetric V-cycle (mgcg).
  // false: CG broke down (non-positive curvature) and the caller continues with V-cycles.
  bool solve_pressure_mgcg(int& it, double& res, bool& converged);
  // The other pressure solvers, same contract: V-cycles (multigrid), Jacobi or red-black SOR.
  void solve_pressure_multigrid(int& it, double& res, bool& converged);
  void solve_pressure_relaxation(int& it, double& res, bool& converged);
  double cg_dot(const view& a) const;  // a . z over the interior cells (both colour-split), z the V-cycle's correction
  // r, d, q in double, colour-split as the multigrid's level 0 (where the cycle's right-hand side and
  // correction, in float, are: mg_.rhs0(), mg_.correction0(), and the weights in double:
  // mg_.weights0_u()). p_spare_: where the V-cycles' defect correction writes the corrected
  // pressure, then swapped with p_field_ (ghosts 0 in both, as no kernel writes a ghost pressure).
  view cg_r_, cg_d_, cg_q_, p_spare_;
  void ensure_spare_pressure() {
    if (p_spare_.extent(0) != p_field_.extent(0)) p_spare_ = view("p_spare", p_field_.extent(0));
  }
  void apply_fixed();
  // Semi-Lagrangian advection of (qu, qv) along (tu, tv) into (du, dv), c = dt / h (stable_advect.cpp).
  void advect(const view& qu, const view& qv, const view& tu, const view& tv, double c, const view& du, const view& dv);
  // MacCormack's limited correction of vel_ (the forward step) from the start field and the backward step.
  void maccormack_correct(const view& un, const view& vn, const view& bu, const view& bv);
  void diffuse_jacobi(int c);  // the paper's Jacobi (fluid_solver.viscosity = jacobi), one component
  void diffuse_rbgs();         // both components at once, starting from the previous solve's sweep count
  void visc_coefficients();    // vc0_, vca_ for this step's systems
  void visc_sweeps(int n);
  double viscosity_residual() const;  // max |residual| of the last viscosity solve's systems
  view vc0_[2], vca_[2];              // per face: phi = vc0 + vca * (sum of unmasked neighbours)
  int visc_guess_ = 1;                // sweeps the last viscosity solve needed
  void solve_pressure();
  double pressure_residual() const;  // max |div u| the current p would leave, 1/s
  // The pressure equation's residual (units of b = rho h^2/dt div) times this is a divergence, 1/s.
  double div_per_residual() const { return p_.dt / (p_.rho * p_.h * p_.h); }
  // A non-finite residual (NaN or inf: the solve diverged) stops the run, naming the solve and step.
  void stop_if_diverged(const char* solve, double res) const;
  // A solve ("pressure" or "viscosity") that ends above its tolerance stops the run (exit 3), naming
  // the solve, the step, the residual, the iterations and the keys to change. `why`: what ended it
  // (empty: fluid_solver.max_iterations reached).
  [[noreturn]] void stop_unconverged(const std::string& solve, int it, double res, const std::string& why = "") const;
  template <class F>
  void timed(const char* phase, F&& f) {
    auto s = phases_.scope(phase);
    f();
  }

  StableParams p_;
  StableGrid g_;
  view vel_[2], pred_[2], raw_[2], tmp_, p_field_, b_;
  // Per component: pressure weight, body code (FaceCode), body velocity,
  // viscosity stencil extras (excluded-neighbour bits, added diagonal and rhs in units of nu dt / h^2).
  view wgt_[2], bval_[2], ddiag_[2], drhs_[2];
  flags code_[2], dmask_[2];
  view wgt0_[2], ddiag0_[2], drhs0_[2];  // the walls-only values, restored where a body leaves
  flags dmask0_[2];
  Kokkos::View<int*, device> touched_[2];  // faces the current constraints changed (first touched_n_)
  size_t touched_n_[2] = {0, 0};
  // The cells whose face weights the last set_constraints() changed: its faces' and the previous
  // constraints' cells, each once (first weights_changed_n_; -1: not known), for mg_.setup().
  Kokkos::View<int*, device> weights_changed_;
  int weights_changed_n_ = -1;
  std::vector<int> touched_host_;            // the current constraints' cells, both components
  std::vector<unsigned char> changed_mark_;  // per cell, while the list above is made
  // Staging of the per-face constraint values, grown as needed and reused every step.
  Kokkos::View<double* [4], device> cval_[2];
  Kokkos::View<unsigned char* [2], device> cbits_[2];
  // Staging of sample(): points and results, grown as needed (sample() is const: caches only).
  mutable Kokkos::View<double*[2], device> sample_xy_, sample_out_;
  // Per side (left, right, bottom, top) and cell along it: type, normal face value (into +x/+y).
  Kokkos::View<int* [4], device> btype_;
  Kokkos::View<double* [4], device> bnormal_;
  std::vector<Expression> side_inflow_, jet_speed_;
  bool walls_depend_on_t_ = false;
  double time_ = 0;
  long steps_ = 0;
  SolveStats pstats_, vstats_;
  PhaseTimer phases_;
};

}  // namespace immerse::mac2d
