#include "float_case.hpp"

#include <fmt/format.h>

#include <cmath>

#include "immerse/bodies/float_shapes.hpp"
#include "immerse/core/choices.hpp"
#include "immerse/core/error.hpp"
#include "immerse/swlbm/sw_params.hpp"

namespace immerse::cases {
namespace {
Eigen::Vector3d vec3(const json& j) { return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()}; }
}  // namespace

coupling::FloatBodySpec float_body_from_json(const json& b, const std::string& source, const std::string& where,
                                             double* density_out) {
  coupling::FloatBodySpec s;
  s.name = b["name"];
  const double r = b["radius"];
  const Eigen::Vector3d size = vec3(b["size"]);
  switch (float_shape_choices().parse(b["shape"], where + ".shape")) {
    case BodyShape::sphere:
      s.mesh = bodies::float_sphere(r);
      s.sphere_radius = r;
      break;
    case BodyShape::box:
      s.mesh = bodies::make_box(size, 2);
      break;
    case BodyShape::complex:
      s.mesh = bodies::float_complex_object(r, 0.35 * r);
      break;
    case BodyShape::rowing_boat:
      s.mesh = bodies::float_hull(bodies::float_rowing_boat_spec());
      break;
    case BodyShape::motorboat:
      s.mesh = bodies::float_hull(bodies::float_motorboat_spec());
      break;
    case BodyShape::sailboat:
      s.mesh = bodies::float_sailboat(b["mast_height"]);
      break;
    case BodyShape::hull: {
      bodies::HullSpec h;
      h.length = size.x();
      h.beam = size.y();
      h.depth = size.z();
      s.mesh = bodies::float_hull(h);
      break;
    }
    case BodyShape::obj: {
      const std::string path = b["obj"];
      if (path.empty()) throw InputError(fmt::format("{}: key '{}.obj': shape 'obj' needs a file", source, where));
      s.mesh = bodies::read_obj(path);
      const double k = b["scale"];
      s.mesh.scale(Eigen::Vector3d::Constant(k));
      break;
    }
  }
  bodies::check_closed(s.mesh, fmt::format("{}: body '{}'", source, where));
  const double volume = bodies::mass_properties(s.mesh).volume;
  s.mass = b["mass"].get<double>() > 0 ? b["mass"].get<double>() : b["density"].get<double>() * volume;
  if (density_out) *density_out = s.mass / volume;
  if (!b["centre_of_mass"].empty()) {
    if (b["centre_of_mass"].size() != 3)
      throw InputError(fmt::format("{}: key '{}.centre_of_mass': expected [x, y, z] or []", source, where));
    s.centre_of_mass = vec3(b["centre_of_mass"]);
  }
  s.position = vec3(b["position"]);
  const Eigen::Vector3d a = vec3(b["orientation_deg"]) * M_PI / 180;
  s.orientation = Eigen::AngleAxisd(a.z(), Eigen::Vector3d::UnitZ()) *
                  Eigen::AngleAxisd(a.y(), Eigen::Vector3d::UnitY()) *
                  Eigen::AngleAxisd(a.x(), Eigen::Vector3d::UnitX());
  s.velocity = vec3(b["velocity"]);
  return s;
}

FloatCase float_case_from_json(const json& r, const std::string& source) {
  FloatCase c;
  c.water = swlbm::sw_params_from_json(r, source);
  c.rho = r["physics"]["rho"];
  const auto& k = r["coupling"];
  c.coupling.forces.rho = c.rho;
  c.coupling.forces.g = c.water.g;
  c.coupling.forces.drag = k["drag"];
  c.coupling.forces.lift = k["lift"];
  c.coupling.forces.buoyancy = k["buoyancy"];
  c.coupling.forces.buoyancy_torque = k["buoyancy_torque"];
  c.coupling.forces.alpha = k["alpha"];
  c.coupling.k_plus = k["k_plus"];
  c.coupling.k_minus = k["k_minus"];
  c.coupling.body_to_water = k["body_to_water"];
  c.coupling.overlap = k["overlap"];
  for (size_t i = 0; i < r["bodies"].size(); ++i) {
    double density = 0;
    c.bodies.push_back(float_body_from_json(r["bodies"][i], source, fmt::format("bodies.{}", i), &density));
    c.densities.push_back(density);
  }
  for (size_t i = 0; i < r["loads"].size(); ++i) {
    const auto& l = r["loads"][i];
    coupling::FloatExternalLoad e;
    e.body = l["body"];
    if (e.body >= static_cast<int>(c.bodies.size()))
      throw InputError(fmt::format("{}: key 'loads.{}.body': {} is not a body index (0..{})", source, i, e.body,
                                   static_cast<int>(c.bodies.size()) - 1));
    e.force = vec3(l["force"]);
    e.point = vec3(l["point"]);
    e.body_frame = float_load_frame_choices().parse(l["frame"], fmt::format("loads.{}.frame", i));
    c.loads.push_back(e);
  }
  return c;
}

FloatAngles float_angles(const Eigen::Quaterniond& q) {
  const Eigen::Matrix3d R = q.toRotationMatrix();
  // R = Rz(yaw) Ry(pitch) Rx(roll).
  const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  const double roll = std::atan2(R(2, 1), R(2, 2));
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  // Bow-down positive: the bow (+x) dips when the body rotates about +y by a positive angle.
  return {roll * 180 / M_PI, pitch * 180 / M_PI, yaw * 180 / M_PI};
}

}  // namespace immerse::cases

namespace immerse::cases {

FloatLevelTrim float_level_trim(const bodies::TriMesh& mesh, double mass, const coupling::FloatForceCoefficients& k) {
  const double flat[4] = {0, 0, 0, 0}, still[4] = {0, 0, 0, 0};
  const coupling::FloatWater w{2, 2, 1e9, flat, still, still};  // surface at z = 0
  const auto box = mesh.bounds();
  auto loads = [&](double z) {
    bodies::FloatBodyState st;
    st.position = {1e9, 1e9, z};
    st.orientation = Eigen::Quaterniond::Identity();
    st.velocity.setZero();
    st.angular_velocity.setZero();
    return coupling::float_body_loads(mesh, st, w, k, nullptr);
  };
  double deep = -box.max().z(), dry = -box.min().z();
  for (int it = 0; it < 80; ++it) {
    const double m = 0.5 * (deep + dry);
    (loads(m).force.z() > mass * k.g ? deep : dry) = m;
  }
  const double z = 0.5 * (deep + dry);
  const coupling::FloatLoads l = loads(z);
  return {-l.torque.y() / l.force.z(), -z};
}

}  // namespace immerse::cases
