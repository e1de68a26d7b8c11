// Every solver family the `immerse` program knows; each family adds its entry here.
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry();    // cases/patent (P3)
SolverEntry lbm3d_solver_entry();      // cases/jellyfish (P1): generic lattice
SolverEntry jellyfish_solver_entry();  // cases/jellyfish (P1)
SolverEntry langevin_solver_entry();   // cases/langevin (P2)
SolverEntry elastic_solver_entry();    // cases/elastic (P4)
SolverEntry swlbm_solver_entry();      // cases/floating (P5)

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), lbm3d_solver_entry(), jellyfish_solver_entry(),
                                                   langevin_solver_entry(), elastic_solver_entry(), swlbm_solver_entry()};
  return entries;
}

}  // namespace immerse::cases
