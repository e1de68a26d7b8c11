// The jellyfish paper's solver families as a case file sees them: "lbm3d" (hand-written lattice
// cases from a JSON file alone) and "lbm3d.jellyfish" (the paper's scenes).
#include "immerse/cases/solver_keys.hpp"
#include "immerse/lbm3d/lbm_params.hpp"
#include "jellyfish_schema.hpp"

namespace immerse::cases {

SolverKeys lbm3d_solver_keys() { return {"lbm3d", lbm3d::lbm_schema, {"generic"}}; }

SolverKeys jellyfish_solver_keys() {
  return {"lbm3d.jellyfish", jellyfish_schema, {"jellyfish", "jellyfish_particles", "jellyfish_algae"}};
}

}  // namespace immerse::cases
