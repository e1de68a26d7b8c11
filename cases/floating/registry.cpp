// The floating-bodies paper's solver family as the case runner sees it: the water-only simulation and
// the scenes with code of their own.
#include "float_simulation.hpp"
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

SolverEntry swlbm_solver_entry() {
  return {"swlbm",
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<FloatSimulation>(r, source, opt);
          },
          {{"fps_objects", make_fps_objects},
           {"boat_load", make_boat_load},
           {"sailboat", make_sailboat},
           {"motorboat", make_motorboat},
           {"dam_break", make_dam_break},
           {"ring_wave", make_ring_wave}}};
}

}  // namespace immerse::cases
