#pragma once
// Case-file keys of solver "mac2d.stable": the scenes (the case's "scene"), the body kinds
// ("body.kind") and the couplings ("coupling.mode"), named once in elastic_schema.cpp.
#include "immerse/core/choices.hpp"
#include "immerse/core/schema.hpp"
#include "immerse/coupling/coupling_mode.hpp"

namespace immerse::cases {

enum class ElasticScene { generic, cavity, elastic_bar, windmill };
enum class BodyKind { none, bar, windmill, mesh };
const Choices<ElasticScene>& elastic_scene_choices();
const Choices<BodyKind>& body_kind_choices();
const Choices<coupling::CouplingMode>& coupling_mode_choices();

Schema elastic_schema();

}  // namespace immerse::cases
