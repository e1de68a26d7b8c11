#include "immerse/mac2d/stability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"

namespace immerse::mac2d {

double StabilityLimits::dt_max() const { return std::min({penalty_viscous, cfl, ftcs}); }

std::string StabilityLimits::limiting() const {
  const double m = dt_max();
  if (m == penalty_viscous) return fmt::format("penalty+viscous limit 2/((1/eps + 1/Re)(4/dx^2 + 4/dy^2)) = {:.6g}", m);
  if (m == cfl) return fmt::format("advective CFL limit min(dx,dy)/U = {:.6g} with U = {:.6g}", m, velocity_scale);
  return fmt::format("central-difference advection limit 2/(Re U^2) = {:.6g} with U = {:.6g}", m, velocity_scale);
}

StabilityLimits stability_limits(const PenaltyParams& p, double U) {
  StabilityLimits s{};
  s.velocity_scale = U;
  s.penalty_viscous = 2.0 / ((1.0 / p.eps + 1.0 / p.Re) * (4.0 / (p.dx * p.dx) + 4.0 / (p.dy * p.dy)));
  s.cfl = U > 0 ? std::min(p.dx, p.dy) / U : INFINITY;
  s.ftcs = U > 0 ? 2.0 / (p.Re * U * U) : INFINITY;
  return s;
}

double effective_velocity_scale(const PenaltyParams& p) {
  if (p.velocity_scale > 0) return p.velocity_scale;
  double U = std::max(std::abs(p.bottom_wall_u), std::abs(p.top_wall_u));
  Expression in(p.inflow_u, p.source + ": key 'boundaries.inflow_u'");
  Expression u0(p.initial_u, p.source + ": key 'initial.u'"), v0(p.initial_v, p.source + ": key 'initial.v'");
  for (int j = 0; j <= p.ny + 1; ++j) {
    const double y = (j - 0.5) * p.dy;
    U = std::max(U, std::abs(in(0, y, 0, 0)));
    for (int i = 0; i <= p.nx + 1; i += std::max(1, p.nx / 64))
      U = std::max({U, std::abs(u0(i * p.dx, y)), std::abs(v0(i * p.dx, y))});
  }
  return U;
}

void check_stability(const PenaltyParams& p) {
  const StabilityLimits s = stability_limits(p, effective_velocity_scale(p));
  if (p.dt > s.dt_max())
    throw InputError(
        fmt::format("{}: key 'time.dt': value {:g} exceeds the explicit stability limit; allowed range "
                    "(0, {:.6g}] ({})",
                    p.source, p.dt, s.dt_max(), s.limiting()));
}

}  // namespace immerse::mac2d
