// The patent's solver family as a case file sees it: the penalty solver's keys and the scenes.
#include "immerse/cases/solver_keys.hpp"
#include "immerse/mac2d/penalty_params.hpp"

namespace immerse::cases {

SolverKeys penalty_solver_keys() {
  return {"mac2d.penalty", mac2d::penalty_schema, {"generic", "channel5x5", "channel", "river"}};
}

}  // namespace immerse::cases
