// The Langevin-rigid family as the case runner sees it: the simulation and the added-mass command.
#include "added_mass_command.hpp"
#include "immerse/cases/simulation.hpp"
#include "langevin_simulation.hpp"

namespace immerse::cases {

SolverEntry langevin_solver_entry() {
  // One simulation serves every scene: the scene picks the body and the checks.
  return {"langevin.rigid",
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<langevin::LangevinSimulation>(r, source, opt);
          },
          {},
          {add_added_mass_command}};
}

}  // namespace immerse::cases
