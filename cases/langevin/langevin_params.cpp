#include "langevin_params.hpp"

namespace immerse::cases::langevin {

namespace {
// The value of body.shape that reads mesh_file instead of building one of the paper's shapes.
constexpr const char* kMeshShape = "mesh";

std::vector<std::string> shape_names() {
  std::vector<std::string> names = bodies::langevin_shape_choices().names();
  names.push_back(kMeshShape);
  return names;
}

// langevin.relaxation: whether the relaxation also acts on omega.
const Choices<bool>& relaxation_choices() {
  static const Choices<bool> c = {{"translation", false}, {"all", true}};
  return c;
}
}  // namespace

const Choices<LangevinScene>& langevin_scene_choices() {
  static const Choices<LangevinScene> c = {{"generic", LangevinScene::generic},
                                           {"falling_paper", LangevinScene::falling_paper},
                                           {"paper_airplane", LangevinScene::paper_airplane},
                                           {"rubber_ellipsoid", LangevinScene::rubber_ellipsoid}};
  return c;
}

Schema langevin_schema() {
  Schema body;
  body.choice("shape", "ellipsoid", shape_names(),
              "ellipsoid (semi_axes a, b, c), sphere (radius a), elliptic_plate (a, b, thickness), paper_airplane "
              "(sheet side a, thickness), mesh (mesh_file)")
      .vector("semi_axes", json::array({0.01, 0.02, 0.04}), 3, 0, 100, "m", "a, b, c (see shape)")
      .number("thickness", 0, 0, 10, "m", "sheet thickness of thin bodies (0: a solid body)")
      .integer("faces", 1280, 20, 20480, "mesh faces (ellipsoid/sphere: 80, 320, 1280, 5120; thin bodies: approximate)")
      .string("mesh_file", "", "Wavefront OBJ in metres, for shape mesh")
      .number("density", 1100, 1e-6, 1e6, "kg/m^3", "body density")
      .choice("added_mass_method", "green", bodies::source_model_choices().names(),
              "added-mass discretisation: green (second order), panels (source panels, first order), "
              "point_sources (the paper's)")
      .boolean("added_mass_richardson", true,
               "ellipsoid and sphere with method green: Richardson extrapolation from the same shape at faces/4");
  Schema fluid;
  fluid.number("density", 1000, 0, 1e6, "kg/m^3", "fluid density")
      .number("viscosity", 1e-6, 1e-12, 1e3, "m^2/s", "kinematic viscosity")
      .number("Re", 0, 0, 1e12, "", "Reynolds number for C0(Re) (0: U0 d / nu with U0 = sqrt((rho_bar - 1) g b))");
  Schema turb;
  turb.boolean("enabled", true, "run the k-epsilon precompute (false: no turbulence, chi = eps = 0)")
      .vector("grid", json::array({32, 32, 8}), 3, 4, 1024, "cells", "nx, ny, nz of the MAC grid (cubic cells)")
      .number("domain_lengths", 2, 1.05, 100, "", "domain length along the flow in body lengths (sets the cell size)")
      .integer("flow_axis", 2, 0, 2, "body axis facing the inflow (0 x, 1 y, 2 z)")
      .integer("steps", 100, 1, 1e7, "precompute time steps")
      .number("dt", 0, 0, 1e3, "s", "precompute time step (0: one cell per step at U0)")
      .integer("pressure_iterations", 10, 1, 100000,
               "Jacobi sweeps per projection (warm-started from the previous step)")
      .choice("length_scale", "body", {"body", "cell"},
              "turbulence length scale l of eps0: the body length d (ours) or the MAC cell size (the paper's)")
      .number("length", 0, 0, 1e3, "m", "l of eps0 given in metres (0: set by length_scale)")
      .choice("sampling", "shell", mac3d::sampling_choices().names(),
              "region whose mean k, eps make the series: fluid cells near the body, or all fluid cells")
      .integer("shell_cells", 2, 1, 100, "shell thickness in cells");
  Schema init;
  init.vector("position", json::array({0, 0, 1}), 3, -1e6, 1e6, "m", "centre of mass, world (z up)")
      .vector("euler_deg", json::array({0, 0, 0}), 3, -360, 360, "deg",
              "orientation: rotations about x, then y, then z")
      .vector("velocity", json::array({0, 0, 0}), 3, -1e3, 1e3, "m/s", "initial velocity, world frame")
      .vector("omega", json::array({0, 0, 0}), 3, -1e3, 1e3, "rad/s", "initial angular velocity, body frame");
  Schema time;
  time.number("dt", 1e-3, 1e-7, 0.1, "s", "runtime step (RK4)").integer("steps", 2000, 0, 1e9, "runtime steps");
  Schema lang;
  lang.boolean("enabled", true, "Langevin relaxation and kicks (false: pure Kirchhoff, the paper's Fig. 5a)")
      .choice("relaxation", "translation", relaxation_choices().names(),
              "what the relaxation -chi (1/2 + 3/4 C0) acts on: translation (the paper's eq. 10: the angular "
              "velocity only receives kicks) or all (v and omega, an earlier form of ours)")
      .boolean("compare_without", false,
               "also integrate the same body without the Langevin terms (metrics *_no_langevin)")
      .integer("seed", 1, 0, 9e15, "seed of the kicks")
      .integer("ensemble", 0, 0, 10000,
               "also run this many more falls with the seeds that follow `seed` (the same body and series): "
               "the ensemble statistics the paper-figure checks use (0: the one fall)");
  Schema lift;
  lift.choice("model", "none", {"none", "slender_wing"},
              "none (the paper's model: the Kirchhoff terms give a wing no lift) or slender_wing (Jones' "
              "slender-wing lift at the trailing edge, (pi/2) AR alpha; docs/langevin.md)")
      .vector("nose", json::array({1, 0, 0}), 3, -1, 1, "", "body-frame direction toward the nose (made unit)")
      .vector("normal", json::array({0, 0, 1}), 3, -1, 1, "",
              "body-frame normal of the wing (made unit and perpendicular to the nose)");
  Schema s;
  s.object("body", body, "the rigid body")
      .object("fluid", fluid, "the surrounding fluid")
      .object("turbulence", turb, "k-epsilon precompute on the 3D MAC grid (chi, eps series)")
      .object("initial", init, "release state")
      .object("time", time, "runtime stepping")
      .object("langevin", lang, "stochastic turbulence loads")
      .object("lift", lift, "lift of a wing (not in the paper)")
      .number("ground_z", 0, -1e6, 1e6, "m", "ground plane: the body stops when its bounding box touches it");
  return s;
}

LangevinCase langevin_case_from_json(const json& r, const std::string& source) {
  LangevinCase c;
  c.source = source;
  c.scene = langevin_scene_choices().parse(r["scene"], "scene");
  const json& b = r["body"];
  c.from_mesh_file = b["shape"] == kMeshShape;
  if (!c.from_mesh_file) c.shape = bodies::langevin_shape_choices().parse(b["shape"], "body.shape");
  c.mesh_file = b["mesh_file"];
  for (int a = 0; a < 3; ++a) c.semi_axes[a] = b["semi_axes"][a];
  c.thickness = b["thickness"];
  c.body_density = b["density"];
  c.faces = b["faces"];
  c.added_mass_method = bodies::source_model_choices().parse(b["added_mass_method"], "body.added_mass_method");
  c.added_mass_richardson = b["added_mass_richardson"];
  c.fluid_density = r["fluid"]["density"];
  c.viscosity = r["fluid"]["viscosity"];
  c.Re = r["fluid"]["Re"];
  const json& t = r["turbulence"];
  c.turbulence = t["enabled"];
  c.turb.nx = t["grid"][0];
  c.turb.ny = t["grid"][1];
  c.turb.nz = t["grid"][2];
  c.domain_lengths = t["domain_lengths"];
  c.flow_axis = t["flow_axis"];
  c.turb.steps = t["steps"];
  c.turb.dt = t["dt"];
  c.turb.pressure_iterations = t["pressure_iterations"];
  c.turb.length = t["length"];
  c.length_scale_cell = t["length_scale"] == "cell";
  c.turb.sampling = mac3d::sampling_choices().parse(t["sampling"], "turbulence.sampling");
  c.turb.shell_cells = t["shell_cells"];
  const json& i = r["initial"];
  for (int a = 0; a < 3; ++a) {
    c.position[a] = i["position"][a];
    c.euler_deg[a] = i["euler_deg"][a];
    c.velocity[a] = i["velocity"][a];
    c.omega[a] = i["omega"][a];
  }
  c.dt = r["time"]["dt"];
  c.steps = r["time"]["steps"];
  c.langevin = r["langevin"]["enabled"];
  c.compare_without = r["langevin"]["compare_without"];
  c.relax_angular = relaxation_choices().parse(r["langevin"]["relaxation"], "langevin.relaxation");
  c.seed = r["langevin"]["seed"];
  c.ensemble = r["langevin"]["ensemble"];
  c.lift = r["lift"]["model"] == "slender_wing";
  for (int a = 0; a < 3; ++a) c.lift_nose[a] = r["lift"]["nose"][a], c.lift_normal[a] = r["lift"]["normal"][a];
  c.ground_z = r["ground_z"];
  return c;
}

}  // namespace immerse::cases::langevin
