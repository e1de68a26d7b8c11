// The elastic-body solver family (Imamura, Harada & Kawaguchi) as the case runner sees it.
#include "elastic_simulation.hpp"

namespace immerse::cases {

SolverEntry elastic_solver_entry() {
  // One simulation serves every scene: the scene picks the body and the checks.
  return {"mac2d.stable",
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<ElasticSimulation>(r, source, opt);
          }};
}

}  // namespace immerse::cases
