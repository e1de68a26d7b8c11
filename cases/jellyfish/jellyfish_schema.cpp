// Case-file keys of the jellyfish scenes (solver "lbm3d.jellyfish"). Units: cm, s; the lattice
// relaxation time tau sets the lattice viscosity nu = (tau - 1/2)/3 cell^2/step.
#include "jellyfish_schema.hpp"

#include "immerse/lbm3d/lbm_params.hpp"

namespace immerse::cases {

const Choices<bool>& cell_speed_choices() {
  static const Choices<bool> c{{"inward_radial", true}, {"magnitude", false}};
  return c;
}

const Choices<bool>& body_volume_choices() {
  static const Choices<bool> c{{"cells", false}, {"exact", true}};
  return c;
}

Schema jellyfish_schema() {
  Schema lattice;
  lattice.number("cube_cm", 80, 1, 1e4, "cm", "edge of the cubic lattice (the paper: 80 cm)")
      .number("cell_cm", 2, 0.05, 100, "cm", "cell size (the paper: 2 cm and 1 cm)");
  lbm3d::add_storage_keys(lattice);  // the lattice's own storage keys, as in lbm3d
  Schema time;
  time.number("dt_s", 0.04, 1e-5, 10, "s", "time per frame (one lattice step and one body step)")
      .integer("steps", 1875, 0, 1e9, "frames (steps) to run");
  Schema water;
  water.number("tau", 0.6, 0.5, 20, "", "BGK relaxation time, stable range (0.5, 20]")
      .number("rho0", 1, 1e-6, 1e6, "", "water density in lattice units (C1 equilibria, outflow cells)");
  Schema borders;
  for (const char* f : lbm3d::kFaceNames)
    borders.choice(
        f, "outflow",
        lbm3d::border_choices().names({lbm3d::Border::periodic, lbm3d::Border::outflow, lbm3d::Border::bounce_back}),
        std::string("lattice border at ") + f);
  Schema bell;
  bell.vector("profile_r", json::array({0, 7, 13, 17, 19.5, 20.6, 19.6, 18, 15.5, 11.5, 6, 0}), 12, 0, 1e4, "cm",
              "radii of the 12 relaxed profile control vertices, outer apex -> margin -> inner apex")
      .vector("profile_h", json::array({12, 11.7, 10, 6.5, 3, 0.3, -0.3, 2, 4.8, 7.3, 8.6, 9}), 12, -1e4, 1e4, "cm",
              "heights along the axis of the profile control vertices (margin plane at 0)")
      .vector("origin_cm", json::array({40, 40, 22}), 3, -1e5, 1e5, "cm", "start position of the margin-plane centre")
      .vector("axis", json::array({0, 0, 1}), 3, -1, 1, "", "bell axis (swimming direction), normalised")
      .number("k_radial", 6.0, 0, 1e6, "1/s^2", "stiffness of the 10 radial ring-spring systems (unit masses)")
      .number("k_shape", 1.0, 0, 1e6, "1/s^2", "stiffness of the meridional and thickness springs")
      .number("damping", 4.5, 0, 1e6, "1/s", "particle velocity damping")
      .number("contraction", 0.09, 0, 0.9, "",
              "fraction of the relaxed radius taken off the radial rest lengths while contracting")
      .number("period_s", 7.5, 1e-3, 1e6, "s", "pulse period (contraction + relaxation)")
      .number("contraction_s", 2.0, 0, 1e6, "s", "contraction time at the start of each pulse")
      .choice("boundary", "ladd", lbm3d::body_boundary_choices().names(),
              "what water next to the bell receives from a bell cell (C3 rule): 'ladd' = moving-wall bounce-back; "
              "'paper' = the C1/C2 cells' populations, water's own absorbed (section 3.2's fictitious cells); "
              "'paper_literal' = both summed, as printed (mass grows until the run stops)");
  Schema propulsion;
  propulsion.boolean("enabled", true, "translate the bell by the pushed-volume model (section 3.3)")
      .number("coefficient", 0.11, 0, 1e6, "", "the paper's constant coefficient scaling v_j")
      .number("calibrated_at_cell_cm", 2, 0, 1e6, "cm",
              "cell size at which the coefficient was fitted to Fig. 6's peak: the peak check is a calibration "
              "there and a prediction at any other cell size")
      .choice(
          "cell_speed", "inward_radial", cell_speed_choices().names(),
          "v_i of a C1 cell in dV = sum (1/2) v_i l^2 dt: 'inward_radial' = the surface's inward radial speed (ours: "
          "negative while the bell opens); 'magnitude' = its speed, as the paper's 'cell velocity' reads")
      .boolean("clip_at_zero", true,
               "hold v_j >= 0 (ours: no backward swimming while the bell refills; the paper has no clip)")
      .choice("body_volume", "exact", body_volume_choices().names(),
              "V_j: 'cells' = l^3 #(A + C2) as in the paper; 'exact' = the closed NURBS bell's volume it approximates");
  Schema tracers;
  tracers.integer("count", 0, 0, 1e7, "passive particles (Fig. 8), on a regular grid in the box")
      .vector("box_min_cm", json::array({20, 20, 4}), 3, -1e5, 1e5, "cm", "tracer box corner")
      .vector("box_max_cm", json::array({60, 60, 20}), 3, -1e5, 1e5, "cm", "tracer box corner")
      .integer("every", 1, 1, 1000,
               "lattice steps per tracer move (each move spans them, through the field at its end: coarser, "
               "cheaper, less accurate)");
  Schema algae;
  algae.integer("chains", 0, 0, 1e5, "plants (Fig. 9): chains anchored on a grid on the floor z = cell/2")
      .vector("area_min_cm", json::array({10, 10}), 2, -1e5, 1e5, "cm", "anchor area corner (x, y)")
      .vector("area_max_cm", json::array({70, 70}), 2, -1e5, 1e5, "cm", "anchor area corner (x, y)")
      .integer("links", 6, 1, 1000, "springs per chain")
      .number("link_cm", 2.5, 1e-3, 1e4, "cm", "rest length of a link")
      .number("stiffness", 200, 0, 1e8, "1/s^2", "link spring stiffness (unit masses)")
      .number("drag", 4, 0, 1e6, "1/s", "relaxation rate toward the water velocity")
      .number("buoyancy", 20, 0, 1e6, "cm/s^2", "upward acceleration that keeps the plants standing");
  Schema tentacles;
  tentacles.integer("count", 0, 0, 1000, "tentacles, evenly around the bell margin (0: none)")
      .integer("links", 8, 1, 1000, "springs per tentacle")
      .number("link_cm", 2, 1e-3, 1e4, "cm", "rest length of a link")
      .number("stiffness", 200, 0, 1e8, "1/s^2", "link spring stiffness (unit masses)")
      .number("drag", 4, 0, 1e6, "1/s", "relaxation rate toward the water velocity")
      .number("weight", 5, 0, 1e6, "cm/s^2", "downward (against the bell axis) acceleration that makes them hang");
  Schema s;
  s.object("lattice", lattice, "lattice size and population storage")
      .object("time", time, "frames")
      .object("water", water, "lattice relaxation")
      .object("borders", borders, "per-face lattice borders (the paper: outflow)")
      .object("bell", bell, "the bell: NURBS profile, mass-spring systems, pulse schedule")
      .object("propulsion", propulsion, "pushed-volume propulsion")
      .object("tracers", tracers, "passive particles")
      .object("algae", algae, "algae chains")
      .object("tentacles", tentacles, "chains hanging from the bell margin (Fig. 8's text: moved by the water)");
  return s;
}

}  // namespace immerse::cases
