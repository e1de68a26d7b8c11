// Case-file keys of solver "mac2d.stable": the fluid's (solvers/mac2d stable_params) plus the body
// and the coupling.
#include "elastic_schema.hpp"

#include "immerse/mac2d/stable_params.hpp"

namespace immerse::cases {

const Choices<ElasticScene>& elastic_scene_choices() {
  static const Choices<ElasticScene> c = {{"generic", ElasticScene::generic},
                                          {"cavity", ElasticScene::cavity},
                                          {"elastic_bar", ElasticScene::elastic_bar},
                                          {"windmill", ElasticScene::windmill}};
  return c;
}

const Choices<BodyKind>& body_kind_choices() {
  static const Choices<BodyKind> c = {
      {"none", BodyKind::none}, {"bar", BodyKind::bar}, {"windmill", BodyKind::windmill}, {"mesh", BodyKind::mesh}};
  return c;
}

const Choices<coupling::CouplingMode>& coupling_mode_choices() {
  static const Choices<coupling::CouplingMode> c = {{"boundary_map", coupling::CouplingMode::boundary_map},
                                                    {"staircase", coupling::CouplingMode::staircase},
                                                    {"one_way", coupling::CouplingMode::one_way}};
  return c;
}

Schema elastic_schema() {
  Schema material;
  material.number("lambda", 40, 0, 1e12, "Pa", "Lame lambda (2D, plane strain)")
      .number("mu", 60, 1e-12, 1e12, "Pa", "Lame mu (shear modulus)")
      .number("lambda_d", 0.02, 0, 1e12, "Pa s", "Voigt dashpot lambda'")
      .number("mu_d", 0.02, 0, 1e12, "Pa s", "Voigt dashpot mu'")
      .number("density", 2, 1e-12, 1e12, "kg/m^2", "mass per unit area");
  Schema body;
  body.choice("kind", "none", body_kind_choices().names(),
              "the elastic body: none (fluid only), the paper's bar or windmill, or a triangle mesh file")
      .string("mesh_file", "", "kind mesh: 'nodes N triangles M' then N lines 'x y' and M lines 'a b c' (m, 0-based)")
      .vector("origin", json::array({0.47, 0.4}), 2, -1e9, 1e9, "m",
              "bar: lower-left corner; windmill: the pin (hub centre)")
      .number("width", 0.06, 1e-9, 1e9, "m", "bar width")
      .number("length", 0.5, 1e-9, 1e9, "m", "bar length (the top end is fixed)")
      .integer("cells_across", 2, 1, 1000,
               "bar: cells across (2 with pointed_tip: the paper's 194 elements with 48 along)")
      .integer("cells_along", 48, 1, 100000, "bar: cells along")
      .boolean("pointed_tip", true, "bar: two extra triangles making a pointed free end")
      .number("hub_half_size", 0.02, 1e-9, 1e9, "m", "windmill: half-size of the square hub (also the blade width)")
      .number("blade_length", 0.2, 1e-9, 1e9, "m", "windmill: blade length beyond the hub")
      .integer("blade_cells", 19, 1, 100000, "windmill: cells along each blade (19: the paper's 160 elements)")
      .number("fix_above", 1e9, -1e9, 1e9, "m", "nodes with y >= this are fixed (the bar's clamped top; mesh bodies)")
      .integer("substeps", 35, 1, 1000000, "explicit FEM sub-steps per fluid step")
      .object("material", material, "Voigt material");
  Schema coupling;
  coupling
      .choice("mode", "boundary_map", coupling_mode_choices().names(),
              "fluid-body coupling: the paper's boundary map (cut cells), the voxelised staircase baseline, or "
              "one_way (the fluid ignores the body and flows through it; the body still feels the fluid)")
      .number("alpha", 0.5, 0, 1, "", "eq. 8 coupling strength (the paper: 0.5)")
      .boolean("pressure_force", true,
               "add the pressure traction -p n on the body's edges to eq. 8's force (not in the paper; eq. 8 alone "
               "hardly loads the body)")
      .boolean("compare", false, "also run the other coupling alongside and report its metrics with a prefix");
  Schema cavity;
  cavity.choice("ghia_table", "re100", {"re100", "re1000"},
                "scene cavity: the Ghia, Ghia & Shin (1982) column the centrelines are compared with (Re 100 or "
                "1000; the case's own Re = U L / nu is reported beside it)");
  Schema s = mac2d::stable_fluid_schema();
  s.object("body", body, "elastic body (explicit FEM)")
      .object("coupling", coupling, "fluid-body coupling")
      .object("cavity", cavity, "lid-driven cavity reference");
  return s;
}

}  // namespace immerse::cases
