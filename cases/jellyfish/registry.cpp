// The jellyfish paper's solver families as the case runner sees them: "lbm3d" (hand-written lattice
// cases from a JSON file alone) and "lbm3d.jellyfish" (the paper's scenes).
#include "immerse/cases/simulation.hpp"
#include "jellyfish_simulation.hpp"
#include "lattice_simulation.hpp"

namespace immerse::cases {

SolverEntry lbm3d_solver_entry() {
  return {"lbm3d", [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<LatticeSimulation>(r, source, opt);
          }};
}

// One simulation serves the three scenes: the scene adds tracers or algae.
SolverEntry jellyfish_solver_entry() { return {"lbm3d.jellyfish", make_jellyfish}; }

}  // namespace immerse::cases
