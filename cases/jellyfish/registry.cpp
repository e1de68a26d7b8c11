// The jellyfish paper's solver families as the case runner sees them: "lbm3d" (hand-written lattice
// cases from a JSON file alone) and "lbm3d.jellyfish" (the paper's scenes).
#include "immerse/cases/simulation.hpp"
#include "immerse/lbm3d/lbm_params.hpp"
#include "jellyfish_simulation.hpp"
#include "lattice_simulation.hpp"

namespace immerse::cases {

SolverEntry lbm3d_solver_entry() {
  return {
      "lbm3d",
      lbm3d::lbm_schema,
      {{"generic", [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
          return std::make_unique<LatticeSimulation>(r, source, opt);
        }}}};
}

SolverEntry jellyfish_solver_entry() {
  // One simulation serves the three scenes: the scene adds tracers or algae.
  return {
      "lbm3d.jellyfish",
      jellyfish_schema,
      {{"jellyfish", make_jellyfish}, {"jellyfish_particles", make_jellyfish}, {"jellyfish_algae", make_jellyfish}}};
}

}  // namespace immerse::cases
