#include "added_mass_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>

#include "immerse/bodies/langevin_added_mass.hpp"
#include "immerse/bodies/langevin_meshes.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {
namespace {

struct AddedMassArgs {
  std::vector<double> ellipsoid;
  std::string mesh, method = "green";
  int faces = 1280;
  double fluid_density = 1000, thickness = 0;
  bool json = false, no_richardson = false, no_mirrors = false;
};

nlohmann::json matrix_json(const bodies::Matrix6d& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < 6; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int j = 0; j < 6; ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

int run_added_mass(const AddedMassArgs& a) {
  if (a.ellipsoid.empty() == a.mesh.empty())
    throw InputError("added-mass: give exactly one of --ellipsoid A,B,C and --mesh F.obj");
  bodies::TriMesh mesh;
  std::optional<bodies::TriMesh> coarse;
  if (!a.mesh.empty()) {
    mesh = bodies::read_obj(a.mesh);
  } else {
    if (a.ellipsoid.size() != 3) throw InputError("added-mass: --ellipsoid needs three semi-axes A,B,C");
    const auto shape = bodies::LangevinShape::ellipsoid;
    const auto& e = a.ellipsoid;
    mesh = bodies::langevin_body_mesh(shape, e[0], e[1], e[2], 0, a.faces);
    if (!a.no_richardson) coarse = bodies::langevin_coarser_mesh(shape, e[0], e[1], e[2], a.faces);
  }
  bodies::check_closed(mesh, a.mesh.empty() ? "ellipsoid" : a.mesh);
  bodies::AddedMassOptions opt;
  opt.fluid_density = a.fluid_density;
  opt.thickness = a.thickness;
  opt.model = bodies::source_model_choices().parse(a.method, "--method");
  opt.use_mirrors = !a.no_mirrors;
  const bool richardson = coarse && opt.model == bodies::SourceModel::green;
  const auto r = bodies::langevin_added_mass(mesh, coarse, opt);
  nlohmann::json out = {{"faces", r.faces},
                        {"volume", r.volume},
                        {"solve_ms", r.solve_ms},
                        {"assemble_ms", r.assemble_ms},
                        {"iterations", r.iterations},
                        {"mirror_order", r.mirror_order},
                        {"method", a.method},
                        {"richardson", richardson},
                        {"fluid_density", a.fluid_density},
                        {"matrix", matrix_json(r.matrix)},
                        {"raw_asymmetry", r.raw_asymmetry}};
  bodies::Matrix6d lamb = bodies::Matrix6d::Zero();
  if (!a.ellipsoid.empty()) {
    lamb = bodies::lamb_ellipsoid_added_mass(a.ellipsoid[0], a.ellipsoid[1], a.ellipsoid[2], a.fluid_density);
    for (int k = 0; k < 6; ++k) out["lamb_diagonal"].push_back(lamb(k, k));
  }
  if (a.json) {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("added mass ({} method{}, {} faces, fluid density {}): translation x y z, rotation x y z\n", a.method,
             richardson ? fmt::format(", Richardson-extrapolated with {} faces", coarse->face_count()) : "", r.faces,
             a.fluid_density);
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) fmt::print("{:>14.6g}", r.matrix(i, j));
    fmt::print("\n");
  }
  if (!a.ellipsoid.empty()) {
    fmt::print("Lamb (exact ellipsoid) diagonal:\n");
    for (int i = 0; i < 6; ++i) fmt::print("{:>14.6g}", lamb(i, i));
    fmt::print("\nratio ours/Lamb:\n");
    for (int i = 0; i < 6; ++i) {
      if (lamb(i, i) > 1e-12 * lamb.diagonal().maxCoeff())
        fmt::print("{:>14.4f}", r.matrix(i, i) / lamb(i, i));
      else
        fmt::print("{:>14}", "(Lamb: 0)");
    }
    fmt::print("\n");
  }
  fmt::print("body volume {:.6g} (mesh), solve time {:.2f} ms ({})\n", r.volume, r.solve_ms,
             r.mirror_order > 1 ? fmt::format("{} symmetry elements: one block per motion class", r.mirror_order)
                                : "the whole system");
  return 0;
}

}  // namespace

FamilyCommand add_added_mass_command(CLI::App& app) {
  auto args = std::make_shared<AddedMassArgs>();
  auto* c =
      app.add_subcommand("added-mass", "6x6 added-mass matrix of a body (boundary elements), volume and solve time");
  c->add_option("--ellipsoid", args->ellipsoid, "semi-axes A,B,C along x, y, z (length unit L)")
      ->delimiter(',')
      ->expected(3);
  c->add_option("--faces", args->faces, "ellipsoid faces: 80, 320, 1280 or 5120 (default 1280)");
  c->add_option("--mesh", args->mesh, "closed triangle mesh (Wavefront OBJ) instead of an ellipsoid");
  c->add_option("--thickness", args->thickness, "thin bodies: sheet thickness (point_sources offset cap), default 0");
  c->add_option("--fluid-density", args->fluid_density, "fluid density (mass / L^3; default 1000, water in kg/m^3)");
  c->add_option("--method", args->method,
                "green (default: Green's identity, second order), panels (source panels, first order) or "
                "point_sources (the paper's offset point sources)")
      ->check(CLI::IsMember(bodies::source_model_choices().names()));
  c->add_flag("--no-richardson", args->no_richardson,
              "ellipsoid with green: the mesh's own result, without the extrapolation from faces/4");
  c->add_flag("--no-mirrors", args->no_mirrors,
              "solve the whole system, not one block per symmetry class of a mirror-symmetric mesh");
  c->add_flag("--json", args->json, "machine-readable output");
  return {c, [args] { return run_added_mass(*args); }};
}

}  // namespace immerse::cases
