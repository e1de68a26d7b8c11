// The Langevin-rigid family as a case file sees it: its keys and scenes (langevin_params.cpp).
#include "immerse/cases/solver_keys.hpp"
#include "langevin_params.hpp"

namespace immerse::cases {

SolverKeys langevin_solver_keys() {
  return {"langevin.rigid", langevin::langevin_schema, langevin::langevin_scene_choices().names()};
}

}  // namespace immerse::cases
