// The patent's solver family as the case runner sees it: schema, scenes, factory.
#include "immerse/cases/simulation.hpp"
#include "penalty_simulation.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry() {
  return {"mac2d.penalty", mac2d::penalty_schema, {"generic", "channel5x5", "channel", "river"},
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            const std::string scene = r["scene"];
            if (scene == "channel5x5") return make_channel5x5(r, source, opt);
            if (scene == "channel") return make_channel(r, source, opt);
            if (scene == "river") return make_river(r, source, opt);
            return std::make_unique<PenaltySimulation>(r, source, opt);
          }};
}

}  // namespace immerse::cases
