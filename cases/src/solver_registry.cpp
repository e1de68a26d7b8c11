// Every solver family the `immerse` program knows; each later family adds its entry here.
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry();  // cases/patent
SolverEntry langevin_solver_entry();  // cases/langevin

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), langevin_solver_entry()};
SolverEntry elastic_solver_entry();  // cases/elastic
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), elastic_solver_entry()};
SolverEntry lbm3d_solver_entry();    // cases/jellyfish
SolverEntry jellyfish_solver_entry();  // cases/jellyfish
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), lbm3d_solver_entry(), jellyfish_solver_entry()};
SolverEntry swlbm_solver_entry();    // cases/floating
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(), swlbm_solver_entry()};
  return entries;
}

}  // namespace immerse::cases
