#include "immerse/coupling/jelly_propulsion.hpp"

#include <algorithm>
#include <cmath>

namespace immerse::coupling {

JellyPropulsion jelly_propulsion(double speed_sum, long inner_cells, double l, double Ra, double dt, double coefficient,
                                 bool clip_at_zero) {
  JellyPropulsion p;
  p.dV = 0.5 * speed_sum * l * l * dt;
  p.h = p.dV / (M_PI * Ra * Ra);
  p.v_w = p.h / dt;
  p.V_w = 0.5 * (4.0 / 3.0) * M_PI * Ra * Ra * Ra;
  p.V_j = l * l * l * static_cast<double>(std::max(1L, inner_cells));
  p.v_j = coefficient * p.v_w * p.V_w / p.V_j;
  if (clip_at_zero) p.v_j = std::max(0.0, p.v_j);
  return p;
}

}  // namespace immerse::coupling
