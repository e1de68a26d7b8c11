#pragma once
// `immerse added-mass (--ellipsoid A,B,C --faces N | --mesh F.obj) [--fluid-density RHO] [--json]`:
// the 6x6 added-mass matrix of a body by the Langevin-rigid panel method, its volume and solve time,
// and for an ellipsoid Lamb's analytic values beside it.
#include "immerse/cases/simulation.hpp"  // FamilyCommand; CLI::App declared, not included

namespace immerse::cases {

FamilyCommand add_added_mass_command(CLI::App& app);

}  // namespace immerse::cases
