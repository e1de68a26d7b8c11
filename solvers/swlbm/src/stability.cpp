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
      s.h_max = std::max(s.h_max, h0(x, y));
      s.u_max = std::max(s.u_max, std::hypot(u0(x, y), v0(x, y)));
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
    const double c = p.wave.c != 0 ? std::abs(p.wave.c) : std::sqrt(p.g * p.wave.depth);
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
}

void require_sw_memory(Backend backend, const SwParams& p) {
  require_memory(backend, double(p.nx) * p.ny * 23 * 8,
                 fmt::format("{}: the {}x{} lattice (keys 'grid.nx', 'grid.ny')", p.source, p.nx, p.ny));
}

}  // namespace immerse::swlbm
