// The Langevin-rigid family as the case runner sees it: schema, scenes, factory.
#include "added_mass_command.hpp"
#include "immerse/cases/simulation.hpp"
#include "langevin_params.hpp"
#include "langevin_simulation.hpp"

namespace immerse::cases {

SolverEntry langevin_solver_entry() {
  // One simulation serves every scene: the scene picks the body and the checks.
  const SimulationFactory make = [](const json& r, const std::string& source,
                                    const RunOptions& opt) -> std::unique_ptr<Simulation> {
    return std::make_unique<langevin::LangevinSimulation>(r, source, opt);
  };
  SolverEntry entry{"langevin.rigid", langevin::langevin_schema, {}, {add_added_mass_command}};
  for (const auto& name : langevin::langevin_scene_choices().names()) entry.scenes.push_back({name, make});
  return entry;
}

}  // namespace immerse::cases
