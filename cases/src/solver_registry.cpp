// Every solver family the `immerse` program knows; each family adds its entry here.
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

std::vector<std::string> SolverEntry::scene_names() const {
  std::vector<std::string> names;
  for (const auto& s : scenes) names.push_back(s.name);
  return names;
}

std::unique_ptr<Simulation> make_simulation(const nlohmann::json& resolved, const std::string& source,
                                            const RunOptions& options) {
  const std::string solver = resolved.at("solver"), scene = resolved.at("scene");
  for (const auto& e : solver_registry()) {
    if (e.name != solver) continue;
    for (const auto& s : e.scenes)
      if (s.name == scene) return s.make(resolved, source, options);
    throw InputError(source + ": key 'scene': '" + scene + "' is not a scene of solver " + solver);
  }
  throw InputError(source + ": key 'solver': unknown solver '" + solver + "'");
}

}  // namespace immerse::cases
