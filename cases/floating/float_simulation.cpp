#include "float_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "immerse/cases/lattice_image.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/vtk.hpp"
#include "immerse/swlbm/sw_blocks.hpp"

namespace immerse::cases {

double float_axis_bottom(const coupling::FloatSystem& s, int b) {
  double lowest = std::numeric_limits<double>::infinity();  // below the CoM, in the body's frame
  for (const auto& v : s.body(b).local.vertices) lowest = std::min(lowest, v.z());
  return s.body_state(b).position.z() + lowest;
}

double float_level_under(const coupling::FloatSystem& s, int b) {
  const auto st = s.body_state(b);
  return float_water_depth(s.water(), st.position.x(), st.position.y());
}

swlbm::SwParams float_water_of_rank(const swlbm::SwParams& whole, const RunOptions& opt) {
  return swlbm::sw_params_on_ranks(opt.backend, whole, world(), opt.decompose);
}

double float_water_depth(const swlbm::SwFlow& water, double x, double y) {
  // The two rows the bilinear sample reads (FloatWaterOf clamps y to the grid): on a lattice split
  // among ranks only those are gathered.
  const swlbm::SwParams& p = water.params();
  const int whole_ny = p.whole().ny;
  const int row = static_cast<int>(coupling::float_sample_coord(y, p.dx, whole_ny));
  const int lo = row, hi = std::min(whole_ny, row + 2);
  const swlbm::HostFields f = water.fields(lo, hi);
  const coupling::FloatWater w{f.nx, whole_ny, f.dx, f.h.data(), f.u.data(), f.v.data(), lo};
  return w.depth(x, y);
}

FloatSimulation::FloatSimulation(const json& r, const std::string& source, const RunOptions& opt)
    : case_(float_case_from_json(r, source)),
      resolved_(r),
      source_(source),
      steps_(r["time"]["steps"].get<long>()),
      frames_(r["output"]["frames"].get<int>()) {
  // On several MPI ranks the bodies are stepped alike on every rank, from the rows under them
  // gathered (coupling/float_system.cpp).
  system_ =
      coupling::make_float_system(opt.backend, float_water_of_rank(case_.water, opt), case_.bodies, case_.coupling);
  system_->external_loads() = case_.loads;
  volume0_ = system_->water().volume();
  const auto& p = case_.water;
  still_level_ = volume0_ / (p.nx * p.ny * p.dx * p.dx);
  mean_draft_.assign(system_->body_count(), 0.0);
  mean_com_.assign(system_->body_count(), 0.0);
}

void FloatSimulation::step() {
  system_->step();
  // Time mean of each body's draft over the last quarter of the run (the settled state).
  if (system_->body_count() > 0 && system_->frames_done() > steps_ * 3 / 4) {
    for (int b = 0; b < system_->body_count(); ++b) {
      const auto st = system_->body_state(b);
      const double level = float_level_under(*system_, b);
      mean_draft_[b] += level - float_axis_bottom(*system_, b);
      mean_com_[b] += st.position.z() - level;
    }
    ++mean_count_;
  }
}

void FloatSimulation::check_health() {
  const swlbm::FieldStatus s = system_->water().status();
  const long n = system_->water().steps_done();
  if (!s.healthy)
    throw NumericalError(fmt::format(
        "{}: water field '{}' is {} at cell ({}, {}) at step {} (t = {:g} s). Hint: lower time.dt (the lattice speed "
        "dx/dt must stay well above |u| + sqrt(g h)), raise physics.tau, or lower the body forcing coupling.k_plus{}",
        source_, s.field, s.field == "h" ? "not a positive depth" : "not finite", s.i, s.j, n, time(),
        system_->water().params().collision == swlbm::Collision::bgk
            ? "; for water faster than sqrt(g h), set physics.collision = corrected"
            : ""));
  if (s.max_lattice_courant >= 1)
    throw NumericalError(fmt::format(
        "{}: instability detector: (|u| + sqrt(g h)) / v reached {:.3g} >= 1 at step {} (t = {:g} s): the flow became "
        "supercritical for the lattice. Hint: lower time.dt or set stability.velocity_scale to the real peak speed",
        source_, s.max_lattice_courant, n, time()));
  for (int b = 0; b < system_->body_count(); ++b) {
    const auto st = system_->body_state(b);
    if (!st.position.allFinite() || !st.velocity.allFinite())
      throw NumericalError(
          fmt::format("{}: body {} ('{}') has a non-finite position or velocity at step {}. Hint: lower "
                      "time.dt or the drag/lift coefficients",
                      source_, b, case_.bodies[b].name, n));
  }
}

std::vector<std::string> FloatSimulation::write_frame(const std::string& dir, int index) {
  const swlbm::HostFields f = system_->water().own_fields();
  // The mask of the same rows (a block's local lattice starts at its ghost row, if any).
  const std::vector<int> mask = system_->mask();
  const size_t first = static_cast<size_t>(f.j0 - system_->water().params().block.origin_y) * f.nx;
  vtk::ImageField h{"h", 1, f.h}, u{"u", 1, f.u}, v{"v", 1, f.v}, eta{"elevation", 1, {}}, m{"section", 1, {}};
  for (double x : f.h) eta.values.push_back(x - still_level_);
  for (size_t c = 0; c < f.h.size(); ++c) m.values.push_back(mask[first + c]);
  std::vector<std::string> files;
  files.push_back(write_lattice_image(dir, "water", index, {case_.water.nx, case_.water.ny, 1}, {f.dx, f.dx, 1},
                                      {{0, f.j0, 0}, {f.nx, f.ny, 1}},
                                      {h, vtk::vector_field("velocity", f.u, f.v), u, v, eta, m}));
  for (int b = 0; b < system_->body_count(); ++b) {  // the same on every rank: rank 0 writes
    const std::string bn = fmt::format("body{}_{:05d}.vtp", b, index);
    if (world().rank() == 0) write_float_body_vtp((std::filesystem::path(dir) / bn).string(), *system_, b);
    files.push_back(bn);
  }
  return files;
}

void FloatSimulation::write_final(const std::string& dir) {
  const swlbm::HostFields f = system_->water().fields();  // gathered on every rank, written by rank 0
  if (world().rank() != 0) return;
  CsvWriter out((std::filesystem::path(dir) / "final_water.csv").string(), {"x", "y", "h", "u", "v"},
                fmt::format("cell-centre water state at t = {:g} s", f.time));
  for (int j = 0; j < f.ny; ++j)
    for (int i = 0; i < f.nx; ++i) {
      const size_t c = f.at(i, j);
      out.row({(i + 0.5) * f.dx, (j + 0.5) * f.dx, f.h[c], f.u[c], f.v[c]});
    }
}

std::vector<std::string> FloatSimulation::series_columns() const {
  std::vector<std::string> c = {"t", "volume_rel_change", "max_speed"};
  for (int b = 0; b < std::min(4, system_->body_count()); ++b)
    for (const char* q : {"z", "roll_deg", "pitch_deg"}) c.push_back(fmt::format("body{}_{}", b, q));
  return c;
}

std::vector<double> FloatSimulation::series_row() {
  const swlbm::FieldStatus s = system_->water().status();
  std::vector<double> row = {time(), system_->water().volume() / volume0_ - 1, s.max_speed};
  for (int b = 0; b < std::min(4, system_->body_count()); ++b) {
    const auto st = system_->body_state(b);
    const FloatAngles a = float_angles(st.orientation);
    row.insert(row.end(), {st.position.z(), a.roll_deg, a.pitch_deg});
  }
  return row;
}

double FloatSimulation::hydrostatic_draft(int b) const {
  // Archimedes from the mesh's geometry alone (bodies::submerged_volume), the body upright (its
  // mesh frame): the draft at which the displaced water weighs what the body does. Upright is the
  // equilibrium of the canned bodies (box, ball); the settled orientation would fold the body's
  // last wobble into the reference (0.3 deg of tilt adds 9 mm to the box's draft).
  const auto& rt = system_->body(b);
  const bodies::TriMesh& hull = rt.local;
  const double displaced = rt.mass.mass / case_.coupling.forces.rho;
  if (displaced >= rt.mass.volume) return std::numeric_limits<double>::infinity();  // sinks
  return bodies::level_displacing(hull, displaced) - hull.bounds().min().z();
}

bool FloatSimulation::closed_water() const {
  const auto& p = case_.water;
  for (swlbm::Border b : {p.left, p.right, p.bottom, p.top})
    if (b != swlbm::Border::wall && b != swlbm::Border::periodic) return false;
  return true;
}

json FloatSimulation::metrics() {
  const swlbm::FieldStatus s = system_->water().status();
  json m = {{"time", time()},
            {"volume_rel_change", system_->water().volume() / volume0_ - 1},
            {"min_depth", s.min_h},
            {"max_speed", s.max_speed},
            {"max_lattice_courant", s.max_lattice_courant}};
  json bodies = json::array();
  for (int b = 0; b < system_->body_count(); ++b) {
    const auto st = system_->body_state(b);
    const FloatAngles a = float_angles(st.orientation);
    const double draft_now = float_level_under(*system_, b) - float_axis_bottom(*system_, b);
    bodies.push_back({{"name", case_.bodies[b].name},
                      {"mass_kg", system_->body(b).mass.mass},
                      {"density", case_.densities[b]},
                      {"position", {st.position.x(), st.position.y(), st.position.z()}},
                      {"speed", st.velocity.norm()},
                      {"roll_deg", a.roll_deg},
                      {"pitch_deg", a.pitch_deg},
                      {"yaw_deg", a.yaw_deg},
                      {"draft_m", draft_now},
                      {"mean_draft_m", mean_count_ ? mean_draft_[b] / mean_count_ : draft_now},
                      {"hydrostatic_draft_m", hydrostatic_draft(b)},
                      {"mean_com_rel_level_m", mean_count_ ? mean_com_[b] / mean_count_ : 0.0},
                      {"height_m", system_->body(b).local.bounds().sizes().z()}});
  }
  m["bodies"] = bodies;
  return m;
}

std::vector<Check> FloatSimulation::checks(const json& m) const {
  std::vector<Check> out;
  if (closed_water())
  // Walls and periodic borders: streaming, bounce-back, collision and the force term conserve
  // sum h; round-off of the cell sums over the run only.
  {
    const auto vt = swlbm::volume_roundoff_tolerance(case_.water.storage);
    out.push_back({"water volume relative change", m["volume_rel_change"], 0.0, vt.tol,
                   "conservation of sum h (closed borders, no sources); tol = round-off (" + vt.why +
                       "). An identity of streaming and collision: a health check",
                   CheckKind::consistency});
  }
  for (const auto& b : m["bodies"]) {
    const double H = b["height_m"];
    // The settled draft (time mean over the last quarter) against hydrostatic equilibrium of the
    // same mesh on still water. Measured: 0.12 % (box) and 0.05 % (ball) of the height; 1 % of the
    // height leaves room for the residual bobbing, the waves the body made and the quadratic drag's
    // asymmetry on other cases, and still catches a buoyancy off by 5 % (a 2 % draft error on the box).
    out.push_back({fmt::format("body '{}' mean draft (m)", b["name"].get<std::string>()), b["mean_draft_m"],
                   b["hydrostatic_draft_m"], 0.01 * H,
                   "Archimedes: the displaced volume of the mesh (its own geometry code, not the simulation's "
                   "buoyancy) weighs what the body does; tol 1% of height",
                   CheckKind::prediction});
  }
  return out;
}

json float_phases_ms_per_frame(const coupling::FloatSystem* system) {
  json out = json::object();
  if (!system) return out;
  const double n = std::max(1L, system->frames_done());
  for (const auto& [name, s] : system->phase_seconds()) out[name] = 1e3 * s / n;
  return out;
}

json FloatSimulation::phases_ms() const { return float_phases_ms_per_frame(system_.get()); }

json FloatSimulation::compare_tolerances() const {
  const char* why =
      "rigid bodies run in Bullet's single precision; round-off differences of the water's parallel "
      "reductions reach the bodies through the forces and grow with the motion";
  json t = json::object();
  for (const char* k : {"volume_rel_change", "min_depth", "max_speed", "max_lattice_courant"})
    t[k] = {{"rel", 1e-6}, {"abs", 1e-9}, {"why", why}};
  t["bodies"] = {{"rel", 1e-3}, {"abs", 1e-4}, {"why", why}};
  return t;
}

void FloatSimulation::archive(StateArchive& a) {
  system_->archive(a);
  a.value("float.volume0", volume0_);
  a.value("float.still_level", still_level_);
  a.vector("float.mean_draft", mean_draft_);
  a.vector("float.mean_com", mean_com_);
  a.value("float.mean_count", mean_count_);
}

}  // namespace immerse::cases
