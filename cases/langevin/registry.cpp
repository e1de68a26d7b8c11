// The Langevin-rigid family as the case runner sees it: schema, scenes, factory.
#include "immerse/cases/simulation.hpp"
#include "langevin_simulation.hpp"

namespace immerse::cases {

SolverEntry langevin_solver_entry() {
  return {"langevin.rigid", langevin::langevin_schema, {"generic", "falling_paper", "paper_airplane", "rubber_ellipsoid"},
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<langevin::LangevinSimulation>(r, source, opt);
          }};
}

}  // namespace immerse::cases
