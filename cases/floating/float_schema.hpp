#pragma once
// Case-file keys of solver "swlbm" and the choices named there, for the schema and the mesh builder.
#include "immerse/core/choices.hpp"
#include "immerse/core/schema.hpp"

namespace immerse::cases {

Schema float_schema();

// "bodies.N.shape"
enum class BodyShape { sphere, box, complex, hull, rowing_boat, motorboat, sailboat, obj };
const Choices<BodyShape>& float_shape_choices();
// "loads.N.frame": 'world' / 'body' -> whether a load turns with its body.
const Choices<bool>& float_load_frame_choices();

}  // namespace immerse::cases
