// The elastic-body family (Imamura, Harada & Kawaguchi) as a case file sees it (elastic_schema.cpp).
#include "elastic_schema.hpp"
#include "immerse/cases/solver_keys.hpp"

namespace immerse::cases {

SolverKeys elastic_solver_keys() { return {"mac2d.stable", elastic_schema, elastic_scene_choices().names()}; }

}  // namespace immerse::cases
