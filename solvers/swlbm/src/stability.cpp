#include "immerse/swlbm/stability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"
#include "immerse/core/memory_budget.hpp"

namespace immerse::swlbm {

FlowScales flow_scales(const SwParams& p) {
  FlowScales s;
  const Expression h0(p.initial_h, p.source + ": key 'initial.h'"), u0(p.initial_u, p.source + ": key 'initial.u'"),
      v0(p.initial_v, p.source + ": key 'initial.v'");
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i) {
      const double x = (i + 0.5) * p.dx, y = (j + 0.5) * p.dx;
      const SwCell c{h0(x, y), x, y, u0(x, y), v0(x, y)};
      s.h_max = std::max(s.h_max, c.h);
      s.u_max = std::max(s.u_max, std::hypot(c.u, c.v));
      if (c.h > s.deepest.h) s.deepest = c;
      if (c.h < s.shallowest.h) s.shallowest = c;
    }
  const bool inflow =
      p.left == Border::inflow || p.right == Border::inflow || p.bottom == Border::inflow || p.top == Border::inflow;
  if (inflow) {
    const Expression hi(p.inflow_h, p.source + ": key 'boundaries.inflow_h'"),
        ui(p.inflow_u, p.source + ": key 'boundaries.inflow_u'"),
        vi(p.inflow_v, p.source + ": key 'boundaries.inflow_v'");
    for (int k = 0; k < std::max(p.nx, p.ny); ++k) {
      const double x = (k + 0.5) * p.dx;
      for (double y : {0.0, x, p.ny * p.dx})
        for (double xx : {0.0, x, p.nx * p.dx}) {
          s.h_max = std::max(s.h_max, hi(xx, y, 0, 0));
          s.u_max = std::max(s.u_max, std::hypot(ui(xx, y, 0, 0), vi(xx, y, 0, 0)));
        }
    }
  }
  const bool wave =
      p.left == Border::wave || p.right == Border::wave || p.bottom == Border::wave || p.top == Border::wave;
  if (wave) {
    const double hc = p.wave.depth + p.wave.A;
    const double c = std::abs(p.wave.speed(p.g));
    s.h_max = std::max(s.h_max, hc);
    s.u_max = std::max(s.u_max, c * p.wave.A / hc);  // mass flux of a progressive wave: h u = c H
  }
  s.u_max = std::max(s.u_max, p.velocity_scale);
  return s;
}

LatticeLimits lattice_limits(const SwParams& p, const FlowScales& s) {
  const double v = p.lattice_speed(), gh = p.g * s.h_max, u2 = s.u_max * s.u_max;
  LatticeLimits l;
  l.rest_ratio = 5 * gh / (6 * v * v) + 2 * u2 / (3 * v * v);
  l.lattice_courant = (s.u_max + std::sqrt(gh)) / v;
  // rest_ratio scales as dt^2, the Courant number as dt.
  l.dt_max_rest = p.dt / std::sqrt(l.rest_ratio);
  l.dt_max_courant = p.dt / l.lattice_courant;
  return l;
}

namespace {

// Depth change across a wave from state K to depth h: a rarefaction below h_K, a shock above.
double wave_function(double h, double hk, double g) {
  if (h <= hk) return 2 * (std::sqrt(g * h) - std::sqrt(g * hk));
  return (h - hk) * std::sqrt(0.5 * g * (h + hk) / (h * hk));
}

// The dam break between the deepest and the shallowest initial water: refused when it opens a dry
// bed, or turns transcritical under Zhou's BGK collision, naming the cells and the way out.
void check_transcritical(const SwParams& p, const FlowScales& s) {
  if (p.allow_transcritical) return;
  const SwCell &high = s.deepest, &low = s.shallowest;
  if (!(low.h > 0) || high.h <= low.h) return;
  double d[2] = {low.x - high.x, low.y - high.y};
  const double n = std::hypot(d[0], d[1]);
  if (n > 0) d[0] /= n, d[1] /= n;
  const SwRiemann r = sw_riemann({high.h, high.u * d[0] + high.v * d[1]}, {low.h, low.u * d[0] + low.v * d[1]}, p.g);
  if (!r.dry && !(r.transcritical && p.collision == Collision::bgk)) return;
  const std::string state = fmt::format(
      "{}: key 'initial.h': the initial state is a dam break that turns {}: {:g} m of water at ({:g}, {:g}) m against "
      "{:g} m at ({:g}, {:g}) m",
      p.source, r.dry ? "dry" : "supercritical", high.h, high.x, high.y, low.h, low.x, low.y);
  if (r.dry)
    throw InputError(state +
                     ". The waves leave a dry bed between them, which the shallow-water lattice cannot carry (its "
                     "depth must stay positive); set stability.allow_transcritical = true to try");
  throw InputError(fmt::format(
      "{} gives a middle state of {:.3g} m at {:.3g} m/s (Froude {:.3g}). Zhou's BGK collision stops on flow that "
      "passes through critical (its viscosity turns negative on the slow wave; the depth goes negative at the "
      "sonic point). Set physics.collision = corrected, keep the shallow side above 0.138 of the deep side for "
      "still water, or set stability.allow_transcritical = true to try",
      state, r.h, r.u, std::abs(r.u) / std::sqrt(p.g * r.h)));
}

}  // namespace

SwRiemann sw_riemann(const SwState& left, const SwState& right, double g) {
  SwRiemann r;
  const double cl = std::sqrt(g * left.h), cr = std::sqrt(g * right.h);
  // The depth positivity condition: two rarefactions that open a dry bed.
  if (2 * (cl + cr) <= right.u - left.u) {
    r.dry = true;
    return r;
  }
  // f(h) = f_L(h) + f_R(h) + u_R - u_L rises monotonically in h: bisection.
  auto f = [&](double h) { return wave_function(h, left.h, g) + wave_function(h, right.h, g) + right.u - left.u; };
  double lo = 0, hi = std::max(left.h, right.h);
  while (f(hi) < 0) hi *= 2;
  for (int k = 0; k < 200 && hi - lo > 1e-14 * hi; ++k) (f(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
  r.h = 0.5 * (lo + hi);
  r.u = 0.5 * (left.u + right.u) + 0.5 * (wave_function(r.h, right.h, g) - wave_function(r.h, left.h, g));
  const double c = std::sqrt(g * r.h);
  // A rarefaction is transonic when its characteristic speed changes sign across the fan.
  const bool left_fan = r.h < left.h && left.u - cl < 0 && r.u - c > 0;
  const bool right_fan = r.h < right.h && r.u + c < 0 && right.u + cr > 0;
  r.transcritical = left_fan || right_fan;
  return r;
}

SwState sw_dam_break_at(double hl, double hr, const SwRiemann& r, double g, double xi) {
  const double cl = std::sqrt(g * hl), cm = std::sqrt(g * r.h);
  if (xi <= -cl) return {hl, 0};
  if (xi <= r.u - cm) return {(2 * cl - xi) * (2 * cl - xi) / (9 * g), 2 * (cl + xi) / 3};  // the fan
  if (xi <= sw_dam_break_bore_speed(hr, r)) return {r.h, r.u};
  return {hr, 0};
}

double sw_dam_break_bore_speed(double hr, const SwRiemann& r) { return r.h * r.u / (r.h - hr); }

void check_stability(const SwParams& p) {
  const FlowScales s = flow_scales(p);
  if (!(s.h_max > 0))
    throw InputError(fmt::format("{}: key 'initial.h': the largest initial depth is {:g} m; the depth must be positive",
                                 p.source, s.h_max));
  const LatticeLimits l = lattice_limits(p, s);
  const double v = p.lattice_speed();
  if (l.rest_ratio >= 1)
    throw InputError(
        fmt::format("{}: keys 'time.dt'/'grid.dx': the rest equilibrium goes negative: 5 g h / (6 v^2) + 2 u^2 / (3 "
                    "v^2) = {:.4g} >= 1 "
                    "(h_max = {:g} m, |u|_max = {:g} m/s, lattice speed v = dx/dt = {:g} m/s). Allowed: dt < {:.4g} s "
                    "at dx = {:g} m",
                    p.source, l.rest_ratio, s.h_max, s.u_max, v, l.dt_max_rest, p.dx));
  if (l.lattice_courant >= 1)
    throw InputError(fmt::format(
        "{}: keys 'time.dt'/'grid.dx': the flow is supercritical for the lattice: (|u| + sqrt(g h)) / v = {:.4g} >= 1 "
        "(h_max = {:g} m, |u|_max = {:g} m/s, v = dx/dt = {:g} m/s). Allowed: dt < {:.4g} s at dx = {:g} m",
        p.source, l.lattice_courant, s.h_max, s.u_max, v, l.dt_max_courant, p.dx));
  check_transcritical(p, s);
}

double sw_lattice_bytes(const SwParams& p) {
  // Two arrays of 9 populations in the chosen storage, and five fields (h, u, v, Fx, Fy) in its
  // arithmetic type (double for fp64, float otherwise); the corrected collision keeps three more
  // (the previous step's h, u, v).
  const double pop_bytes = population_bytes(p.storage);
  const double field_bytes = p.storage == Storage::fp64 ? 8 : 4;
  const int fields = p.collision == Collision::corrected ? 8 : 5;
  return double(p.nx) * p.ny * (18 * pop_bytes + fields * field_bytes);
}

void require_sw_memory(Backend backend, const SwParams& p) {
  require_memory(backend, sw_lattice_bytes(p),
                 fmt::format("{}: the {}x{} lattice (keys 'grid.nx', 'grid.ny')", p.source, p.nx, p.ny));
}

}  // namespace immerse::swlbm
