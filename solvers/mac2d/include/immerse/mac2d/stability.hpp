#pragma once
// Explicit stability limits of the penalty scheme, checked before a run starts.
//
// Penalty + viscous: with p = -div(u)/eps substituted, the update is explicit Euler for
// u_t = (1/eps) grad div u + (1/Re) lap u. On the staggered grid the largest eigenvalue of both
// operators is 4/dx^2 + 4/dy^2 (the checkerboard mode), so Euler is stable for
//   dt <= 2 / ((1/eps + 1/Re) (4/dx^2 + 4/dy^2)).
// (Patent's table: dx = 1, eps = 0.005, Re = 300 -> 1.25e-3 >= its dt = 1e-3.)
// Advective: the CFL limit dt <= min(dx, dy)/U and the central-difference (FTCS) limit
// dt <= 2 nu / U^2 = 2 / (Re U^2), with U the largest expected speed.
#include <string>

#include "immerse/mac2d/penalty_params.hpp"

namespace immerse::mac2d {

struct StabilityLimits {
  double penalty_viscous, cfl, ftcs, velocity_scale;
  double dt_max() const;
  std::string limiting() const;  // name and formula of the binding limit
};

// stability.velocity_scale when set, else the largest speed the case prescribes: inflow profile,
// wall speeds, initial field (sampled).
double effective_velocity_scale(const PenaltyParams& p);

StabilityLimits stability_limits(const PenaltyParams& p, double velocity_scale);
// Throws InputError with the limit and its formula when p.dt exceeds the limits at the case's
// effective velocity scale.
void check_stability(const PenaltyParams& p);

}  // namespace immerse::mac2d
