// The elastic-body solver family (Imamura, Harada & Kawaguchi) as the case runner sees it.
#include "elastic_simulation.hpp"

namespace immerse::cases {

SolverEntry elastic_solver_entry() {
  return {"mac2d.stable", elastic_schema, {"generic", "cavity", "elastic_bar", "windmill"},
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<ElasticSimulation>(r, source, opt);
          }};
}

}  // namespace immerse::cases
