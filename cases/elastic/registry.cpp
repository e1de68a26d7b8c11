// The elastic-body solver family (Imamura, Harada & Kawaguchi) as the case runner sees it.
#include "elastic_simulation.hpp"

namespace immerse::cases {

SolverEntry elastic_solver_entry() {
  // One simulation serves every scene: the scene picks the body and the checks.
  const SimulationFactory make = [](const json& r, const std::string& source,
                                    const RunOptions& opt) -> std::unique_ptr<Simulation> {
    return std::make_unique<ElasticSimulation>(r, source, opt);
  };
  SolverEntry entry{"mac2d.stable", elastic_schema, {}};
  for (const auto& name : elastic_scene_choices().names()) entry.scenes.push_back({name, make});
  return entry;
}

}  // namespace immerse::cases
