// Every solver family's case-file keys; each family adds its entry here (and its runner to
// solver_registry.cpp).
#include "immerse/cases/solver_keys.hpp"

namespace immerse::cases {

SolverKeys penalty_solver_keys();    // cases/patent
SolverKeys lbm3d_solver_keys();      // cases/jellyfish: generic lattice
SolverKeys jellyfish_solver_keys();  // cases/jellyfish
SolverKeys langevin_solver_keys();   // cases/langevin
SolverKeys elastic_solver_keys();    // cases/elastic
SolverKeys swlbm_solver_keys();      // cases/floating

const std::vector<SolverKeys>& solver_keys() {
  static const std::vector<SolverKeys> keys = {penalty_solver_keys(),  lbm3d_solver_keys(),   jellyfish_solver_keys(),
                                               langevin_solver_keys(), elastic_solver_keys(), swlbm_solver_keys()};
  return keys;
}

}  // namespace immerse::cases
