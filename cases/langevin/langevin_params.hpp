#pragma once
// Case-file schema of the Langevin-rigid family (solver "langevin.rigid") and its parsed form.
#include <array>
#include <string>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/bodies/langevin_meshes.hpp"
#include "immerse/core/schema.hpp"
#include "immerse/mac3d/turbulence.hpp"

namespace immerse::cases::langevin {

Schema langevin_schema();

// The scenes: one simulation serves them all; the scene picks the checks.
enum class LangevinScene { generic, falling_paper, paper_airplane, rubber_ellipsoid };
const Choices<LangevinScene>& langevin_scene_choices();

struct LangevinCase {
  std::string source;
  LangevinScene scene = LangevinScene::generic;
  // body (SI units: m, kg/m^3): a built-in shape, or the mesh_file when from_mesh_file
  bodies::LangevinShape shape = bodies::LangevinShape::ellipsoid;
  bool from_mesh_file = false;
  std::string mesh_file;
  std::array<double, 3> semi_axes{};
  double thickness = 0, body_density = 0;
  int faces = 0;
  bodies::SourceModel added_mass_method = bodies::SourceModel::green;
  bool added_mass_richardson = true;  // green on an ellipsoid or sphere: extrapolate from faces / 4
  // fluid
  double fluid_density = 0, viscosity = 0, Re = 0;  // Re <= 0: U0 d / nu
  // turbulence precompute
  mac3d::TurbulenceParams turb;
  bool turbulence = true;
  bool length_scale_cell = false;  // l of eps0 = the MAC cell (the paper's), not the body length
  int flow_axis = 2;               // body axis facing the inflow
  double domain_lengths = 2;       // domain length along the flow in body lengths
  // runtime
  double dt = 1e-3;
  long steps = 1000;
  std::array<double, 3> position{}, euler_deg{}, velocity{}, omega{};
  double ground_z = 0;
  bool langevin = true, compare_without = false;
  bool relax_angular = false;  // relaxation on omega too (not the paper's eq. 10)
  // slender-wing lift (not in the paper): nose and normal in the body frame
  bool lift = false;
  std::array<double, 3> lift_nose{}, lift_normal{};
  long seed = 1;
  int ensemble = 0;  // extra falls with seeds seed + 1 .. seed + ensemble
};

LangevinCase langevin_case_from_json(const json& resolved, const std::string& source);

}  // namespace immerse::cases::langevin
