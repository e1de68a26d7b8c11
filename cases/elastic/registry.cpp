// The elastic-body solver family (Imamura, Harada & Kawaguchi) as the case runner sees it.
#include "elastic_simulation.hpp"

namespace immerse::cases {

SolverEntry elastic_solver_entry() {
  // One simulation serves every scene: the scene picks the body and the checks.
  const SimulationFactory make = [](const json& r, const std::string& source,
                                    const RunOptions& opt) -> std::unique_ptr<Simulation> {
    return std::make_unique<ElasticSimulation>(r, source, opt);
  };
  return {
      "mac2d.stable", elastic_schema, {{"generic", make}, {"cavity", make}, {"elastic_bar", make}, {"windmill", make}}};
}

}  // namespace immerse::cases
