// Case-file keys of solver "swlbm": the water's (solvers/swlbm sw_params), the floating bodies, the
// coupling, held loads and each floating-body scene's own block.
#include "float_schema.hpp"

#include "immerse/swlbm/sw_params.hpp"

namespace immerse::cases {

const Choices<BodyShape>& float_shape_choices() {
  static const Choices<BodyShape> c = {{"sphere", BodyShape::sphere},           {"box", BodyShape::box},
                                       {"complex", BodyShape::complex},         {"hull", BodyShape::hull},
                                       {"rowing_boat", BodyShape::rowing_boat}, {"motorboat", BodyShape::motorboat},
                                       {"sailboat", BodyShape::sailboat},       {"obj", BodyShape::obj}};
  return c;
}
const Choices<bool>& float_load_frame_choices() {
  static const Choices<bool> c = {{"world", false}, {"body", true}};
  return c;
}

Schema float_schema() {
  Schema body;
  body.string("name", "", "label")
      .choice(
          "shape", "sphere", float_shape_choices().names(),
          "sphere: icosphere of 80 triangles; box; complex: the 520-triangle object of Table 1; hull: lofted hull of "
          "size [length, beam, depth]; rowing_boat/motorboat/sailboat: the paper's boats; obj: a mesh file")
      .string("obj", "", "Wavefront OBJ file (shape obj), closed and outward-oriented, metres after `scale`")
      .number("scale", 1, 1e-9, 1e9, "", "scale applied to the OBJ mesh")
      .number("radius", 0.5, 1e-6, 1e4, "m", "sphere radius; complex: ring radius (tube 0.35 of it)")
      .vector("size", json::array({1, 1, 1}), 3, 1e-6, 1e4, "m", "box [x, y, z]; hull [length, beam, depth]")
      .number("mast_height", 15, 0, 1e3, "m", "sailboat: mast above the deck")
      .number("mass", 0, 0, 1e9, "kg", "mass (0: density x the mesh's volume)")
      .number("density", 500, 1e-6, 1e6, "kg/m^3", "density when mass is 0")
      .vector("centre_of_mass", json::array(), 0, -1e4, 1e4, "m",
              "[x, y, z] in the mesh frame (empty: the solid's centroid)")
      .vector("position", json::array({0, 0, 0}), 3, -1e7, 1e7, "m", "world position of the mesh frame's origin")
      .vector("orientation_deg", json::array({0, 0, 0}), 3, -360, 360, "deg", "roll, pitch, yaw (about x, y, z)")
      .vector("velocity", json::array({0, 0, 0}), 3, -1e4, 1e4, "m/s", "initial velocity");
  Schema coupling;
  coupling.number("drag", 1.0, 0, 100, "", "drag coefficient C_d (eq. 4)")
      .number("lift", 0.5, 0, 100, "", "lift coefficient C_l (eq. 5)")
      .number("alpha", 0.5, 0, 1, "",
              "effective-area weight alpha (Yuksel et al.; eq. 6 as corrected in docs/floating.md)")
      .number("buoyancy", 1.0, 0, 10, "",
              "scale of the buoyancy (eq. 3): 1 is the paper's model; another value breaks it on purpose "
              "(a counterexample the draft checks must catch)")
      .boolean("buoyancy_torque", true,
               "eq. 3's pressure acts at each wetted piece (true: the paper's model); false applies it at the centre "
               "of mass, without its righting moment (a counterexample the heel and capsize checks must catch)")
      .number("k_plus", 10, 0, 1e4, "1/s", "body -> water forcing rate when the body pushes (eq. 7)")
      .number("k_minus", 1, 0, 1e4, "1/s", "body -> water forcing rate when the body drags (eq. 7)")
      .boolean("body_to_water", true, "bodies move the water (false: one-way coupling)")
      .boolean("overlap", false,
               "run Bullet's step while the device runs the water step (host backends: the same arithmetic "
               "in turn); the water is then forced with the bodies' velocities of the frame's start");
  Schema load;
  load.integer("body", 0, 0, 1e6, "index in bodies")
      .vector("force", json::array({0, 0, 0}), 3, -1e9, 1e9, "N", "force")
      .vector("point", json::array({0, 0, 0}), 3, -1e4, 1e4, "m", "point of application, mesh frame")
      .choice("frame", "world", float_load_frame_choices().names(),
              "world: a weight; body: turns with the body (thrust)");
  Schema fps;
  fps.integer("frames_per_column", 300, 1, 1e7, "frames timed per column of Table 1")
      .integer("warmup_frames", 20, 0, 1e6, "frames run before timing each column")
      .number("spacing", 2.2, 0.1, 100, "m", "distance between neighbouring objects")
      .number("drop_height", 0.15, -10, 10, "m", "objects start up to this far above their floating height")
      .number("sphere_radius", 0.5, 1e-3, 100, "m", "radius of the 80-triangle spheres")
      .number("complex_radius", 0.6, 1e-3, 100, "m", "ring radius of the 520-triangle complex objects")
      .number("density", 500, 1, 1e5, "kg/m^3", "density of every object (500: floats half immersed)");
  Schema boat;
  boat.number("load_kg", 90, 0, 1e5, "kg", "the load (weight) placed on the boat")
      .number("boat_mass_kg", 120, 1, 1e6, "kg", "the boat's own mass")
      .number("settle_s", 12, 0.1, 1e4, "s", "time run per load position before reading the angles")
      .number("offset_fraction", 0.8, 0, 1, "", "load offset towards bow/stern/side as a fraction of half length/beam");
  Schema sail;
  sail.vector("com_heights", json::array({0.5, 1.65}), 0, 0, 100, "m",
              "centre of mass heights above the base, one run each")
      .number("mass_t", 29, 0.01, 1e5, "t", "displacement")
      .number("duration_s", 40, 0.1, 1e4, "s", "time run per centre of mass");
  Schema motor;
  motor.number("thrust_N", 60000, 0, 1e8, "N", "propeller thrust (body frame, at the stern)")
      .number("turn_at_s", 12, 0, 1e5, "s", "time the rudder is put over")
      .number("rudder_N", 15000, -1e8, 1e8, "N",
              "rudder side force at the stern after turn_at_s (positive: turns to port)");
  Schema ring;
  ring.vector("centre", json::array({20, 20}), 2, -1e6, 1e6, "m", "centre of the hump")
      .number("amplitude", 0.02, 1e-9, 1e3, "m", "height of the hump above the still water")
      .number("radius", 2, 1e-6, 1e6, "m", "R of the hump amplitude exp(-r^2 / R^2)")
      .number("depth", 1, 1e-6, 1e4, "m", "still water depth");
  Schema s = swlbm::sw_schema();
  s.list("bodies", body, "floating bodies (empty: water only)")
      .object("coupling", coupling, "water <-> body coupling coefficients")
      .list("loads", load, "forces held on bodies (weights, thrust)")
      .object("fps", fps, "fps_objects scene: the performance table")
      .object("boat_load", boat, "boat_load scene: the weight-distribution test")
      .object("sailboat", sail, "sailboat scene: centre of mass in a wave train")
      .object("motorboat", motor, "motorboat scene: thrust and turn")
      .object("ring_wave", ring, "ring_wave scene: the hump the initial depth must hold, for linear theory");
  return s;
}

}  // namespace immerse::cases
