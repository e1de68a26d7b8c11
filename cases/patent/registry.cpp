// The patent's solver family as the case runner sees it: the penalty simulation and the scenes with
// code of their own.
#include "immerse/cases/simulation.hpp"
#include "penalty_simulation.hpp"

namespace immerse::cases {

SolverEntry penalty_solver_entry() {
  return {"mac2d.penalty",
          [](const json& r, const std::string& source, const RunOptions& opt) -> std::unique_ptr<Simulation> {
            return std::make_unique<PenaltySimulation>(r, source, opt);
          },
          {{"channel5x5", make_channel5x5}, {"channel", make_channel}, {"river", make_river}}};
}

}  // namespace immerse::cases
