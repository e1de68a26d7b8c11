#pragma once
// The case-file side of the floating-bodies paper (solver "swlbm"): the water keys (swlbm), the
// bodies (generated meshes at the paper's sizes or an OBJ file, mass or density, pose), the
// coupling coefficients, held loads, and each experiment's own block.
#include <vector>

#include "float_schema.hpp"
#include "immerse/core/schema.hpp"
#include "immerse/coupling/float_system.hpp"
#include "immerse/swlbm/sw_params.hpp"

namespace immerse::cases {

struct FloatCase {
  swlbm::SwParams water;
  std::vector<coupling::FloatBodySpec> bodies;
  std::vector<double> densities;  // kg/m^3 of each body (mass / mesh volume)
  std::vector<coupling::FloatExternalLoad> loads;
  coupling::FloatCouplingParams coupling;
  double rho = 1000;
};

FloatCase float_case_from_json(const json& resolved, const std::string& source);
// One body spec from a resolved "bodies" element (scenes build their own lists from the same keys).
coupling::FloatBodySpec float_body_from_json(const json& b, const std::string& source, const std::string& where,
                                             double* density_out = nullptr);

// Roll (about the body's x), pitch (about y; positive bow-down here: the bow at +x dips) and yaw
// of a body orientation, degrees (z-y-x Tait-Bryan angles).
struct FloatAngles {
  double roll_deg, pitch_deg, yaw_deg;
};
FloatAngles float_angles(const Eigen::Quaterniond& q);

}  // namespace immerse::cases

namespace immerse::cases {

// A hull built to float level: the centre of buoyancy's x of its level-trim waterline (where the
// centre of mass belongs) and the height of the mesh origin (keel) below the still level at that
// draft, for a body of `mass` on still water (bisection on the draft, then the buoyancy moment).
struct FloatLevelTrim {
  double com_x, draft;
};
FloatLevelTrim float_level_trim(const bodies::TriMesh& mesh, double mass, const coupling::FloatForceCoefficients& k);

}  // namespace immerse::cases
