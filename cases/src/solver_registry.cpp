// Every solver family the `immerse` program runs; each family adds its entry here (and its case-file
// keys to solver_keys.cpp).
#include "immerse/cases/simulation.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry();    // cases/patent
SolverEntry lbm3d_solver_entry();      // cases/jellyfish: generic lattice
SolverEntry jellyfish_solver_entry();  // cases/jellyfish
SolverEntry langevin_solver_entry();   // cases/langevin
SolverEntry elastic_solver_entry();    // cases/elastic
SolverEntry swlbm_solver_entry();      // cases/floating

const std::vector<SolverEntry>& solver_registry() {
  static const std::vector<SolverEntry> entries = {penalty_solver_entry(),   lbm3d_solver_entry(),
                                                   jellyfish_solver_entry(), langevin_solver_entry(),
                                                   elastic_solver_entry(),   swlbm_solver_entry()};
  return entries;
}

std::unique_ptr<Simulation> make_simulation(const nlohmann::json& resolved, const std::string& source,
                                            const RunOptions& options) {
  // The scene was checked against the family's SolverKeys when the case was resolved.
  const std::string solver = resolved.at("solver"), scene = resolved.at("scene");
  for (const auto& e : solver_registry()) {
    if (e.name != solver) continue;
    for (const auto& s : e.scenes)
      if (s.name == scene) return s.make(resolved, source, options);
    return e.make(resolved, source, options);
  }
  throw InputError(source + ": key 'solver': unknown solver '" + solver + "'");
}

}  // namespace immerse::cases
