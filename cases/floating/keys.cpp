// The floating-bodies paper's solver family as a case file sees it (float_schema.cpp).
#include "float_schema.hpp"
#include "immerse/cases/solver_keys.hpp"

namespace immerse::cases {

SolverKeys swlbm_solver_keys() {
  return {"swlbm",
          float_schema,
          {"generic", "fps_objects", "boat_load", "sailboat", "motorboat", "dam_break", "ring_wave"}};
}

}  // namespace immerse::cases
