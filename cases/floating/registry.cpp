// The floating-bodies paper's solver family (P5) as the case runner sees it: schema, scenes, factory.
#include "float_simulation.hpp"
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

SolverEntry swlbm_solver_entry() {
  return {"swlbm", float_schema, {"generic", "fps_objects", "boat_load", "sailboat", "motorboat"},
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            const std::string scene = r["scene"];
            if (scene == "fps_objects") return make_fps_objects(r, source, opt);
            if (scene == "boat_load") return make_boat_load(r, source, opt);
            if (scene == "sailboat") return make_sailboat(r, source, opt);
            if (scene == "motorboat") return make_motorboat(r, source, opt);
            return std::make_unique<FloatSimulation>(r, source, opt);
          }};
}

}  // namespace immerse::cases
