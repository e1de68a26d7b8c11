#pragma once
// Case-file keys of the jellyfish scenes (solver "lbm3d.jellyfish"), and the choices named there.
#include "immerse/core/choices.hpp"
#include "immerse/core/schema.hpp"

namespace immerse::cases {

Schema jellyfish_schema();
// 'cells' / 'exact' -> whether V_j is the closed bell's exact volume.
const Choices<bool>& body_volume_choices();
// propulsion.cell_speed: 'inward_radial' (true) or 'magnitude' (false).
const Choices<bool>& cell_speed_choices();

}  // namespace immerse::cases
