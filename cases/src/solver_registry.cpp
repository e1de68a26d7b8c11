// Every solver family the `immerse` program knows; each later family adds its entry here.
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry();  // cases/patent
SolverEntry swlbm_solver_entry();    // cases/floating

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), swlbm_solver_entry()};
  return entries;
}

}  // namespace immerse::cases
