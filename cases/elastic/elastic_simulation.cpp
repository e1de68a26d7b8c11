#include "elastic_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>

#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/vtk.hpp"

namespace immerse::cases {
namespace {

bodies::FemMaterial material_from(const json& m) {
  bodies::FemMaterial mat;
  mat.lambda = m["lambda"];
  mat.mu = m["mu"];
  mat.lambda_d = m["lambda_d"];
  mat.mu_d = m["mu_d"];
  mat.density = m["density"];
  return mat;
}

// The explicit FEM's stable sub-step: elastic waves (speed sqrt((lambda + 2 mu)/rho)) must not cross
// more than half the shortest edge per sub-step, and the dashpots' diffusion number stays below 1/4.
void check_fem_stability(const bodies::FemBody& b, const bodies::FemMaterial& m, double dt_sub, int substeps,
                         const std::string& source) {
  double lmin = std::numeric_limits<double>::infinity();
  for (const auto& t : b.mesh().tris)
    for (int k = 0; k < 3; ++k) {
      const auto &p = b.x[t[k]], &q = b.x[t[(k + 1) % 3]];
      lmin = std::min(lmin, std::hypot(p[0] - q[0], p[1] - q[1]));
    }
  const double c = std::sqrt((m.lambda + 2 * m.mu) / m.density);
  double limit = 0.5 * lmin / c;
  if (m.lambda_d + 2 * m.mu_d > 0) limit = std::min(limit, 0.25 * m.density * lmin * lmin / (m.lambda_d + 2 * m.mu_d));
  if (dt_sub > limit)
    throw InputError(
        fmt::format("{}: key 'body.substeps': {} sub-steps make the FEM step {:.3g} s, above its stable "
                    "limit {:.3g} s (wave speed {:.3g} m/s over the shortest edge {:.3g} m); allowed range "
                    "substeps >= {}",
                    source, substeps, dt_sub, limit, c, lmin, static_cast<long>(std::ceil(dt_sub * substeps / limit))));
}

}  // namespace

ElasticSimulation::ElasticSimulation(const json& r, const std::string& source, const RunOptions& opt)
    : params_(r),
      scene_(elastic_scene_choices().parse(r["scene"], "scene")),
      fluid_(mac2d::stable_params_from_json(r, source)),
      backend_(opt.backend),
      steps_(r["time"]["steps"].get<long>()),
      frames_(r["output"]["frames"].get<int>()),
      series_every_(r["output"]["series_every"].get<long>()) {
  const json& b = r["body"];
  const BodyKind kind = body_kind_choices().parse(b["kind"], "body.kind");
  substeps_ = b["substeps"];
  alpha_ = r["coupling"]["alpha"];
  pressure_force_ = r["coupling"]["pressure_force"];
  const auto mode = coupling_mode_choices().parse(r["coupling"]["mode"], "coupling.mode");
  const int nruns = kind != BodyKind::none && r["coupling"]["compare"].get<bool>() ? 2 : 1;
  runs_.resize(nruns);
  for (int k = 0; k < nruns; ++k) {
    ElasticRun& run = runs_[k];
    run.flow = mac2d::make_stable_flow(opt.backend, fluid_);
    run.mode = k == 0 ? mode
                      : (mode == coupling::CouplingMode::staircase ? coupling::CouplingMode::boundary_map
                                                                   : coupling::CouplingMode::staircase);
    if (kind == BodyKind::none) continue;
    const bodies::FemMaterial mat = material_from(b["material"]);
    const Vec2 origin = {b["origin"][0], b["origin"][1]};
    std::vector<int> hub;
    bodies::FemMesh mesh;
    try {
      if (kind == BodyKind::bar)
        mesh = bodies::fem_bar(origin[0], origin[1], b["width"], b["length"], b["cells_across"], b["cells_along"],
                               b["pointed_tip"]);
      else if (kind == BodyKind::windmill)
        mesh = bodies::fem_windmill(origin[0], origin[1], b["hub_half_size"], b["blade_length"], b["blade_cells"], hub);
      else
        mesh = bodies::fem_read_mesh(b["mesh_file"]);
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: key 'body': {}", source, e.what()));
    }
    run.body.emplace(mesh, mat);
    const double fix_above = b["fix_above"];
    for (size_t n = 0; n < run.body->x.size(); ++n)
      if (run.body->x[n][1] >= fix_above - 1e-12) run.body->fix(static_cast<int>(n));
    if (!hub.empty()) run.body->set_hub(hub, origin);
    // Every node must lie inside the fluid domain for the map.
    for (const auto& p : run.body->x)
      if (p[0] <= 0 || p[1] <= 0 || p[0] >= fluid_.nx * fluid_.h || p[1] >= fluid_.ny * fluid_.h)
        throw InputError(
            fmt::format("{}: key 'body': node ({:g}, {:g}) lies outside the fluid domain [0, {:g}] x [0, {:g}]", source,
                        p[0], p[1], fluid_.nx * fluid_.h, fluid_.ny * fluid_.h));
    check_fem_stability(*run.body, mat, fluid_.dt / substeps_, substeps_, source);
    if (k == 0 && kind == BodyKind::bar) {
      // The tip: the lowest node (the free end hangs down into the jet).
      tip_node_ = 0;
      for (size_t n = 0; n < run.body->x.size(); ++n)
        if (run.body->x[n][1] < run.body->x[tip_node_][1]) tip_node_ = static_cast<int>(n);
    }
  }
}

void ElasticSimulation::step_run(ElasticRun& r) {
  const auto t0 = std::chrono::steady_clock::now();
  if (r.body) {
    for (size_t n = 0; n < r.body->x.size(); ++n)
      if (!std::isfinite(r.body->x[n][0]) || !std::isfinite(r.body->x[n][1]))
        throw NumericalError(
            fmt::format("{}: body node {} position is not finite at step {} (t = {:g} s): the explicit "
                        "FEM or the coupling went unstable. Hint: raise body.substeps, body.material.density "
                        "or lower the stiffness",
                        fluid_.source, n, r.flow->steps_done(), r.flow->time()));
    auto s = r.phases.scope("map_build");
    coupling::bmap_build(r.map, *r.body, fluid_.nx, fluid_.ny, fluid_.h);
    coupling::bmap_constraints(r.map, r.mode, fluid_.nx, fluid_.ny, r.constraints, backend_);
    r.flow->set_constraints(r.constraints);
  }
  r.flow->predict();
  if (r.body) {
    {
      auto s = r.phases.scope("force");
      for (auto& f : r.body->f_ext) f = {0, 0};
      coupling::bmap_apply_force(r.map, *r.flow, *r.body, alpha_, fluid_.rho, fluid_.dt);
      if (pressure_force_) coupling::bmap_apply_pressure(*r.flow, *r.body, fluid_.h);
    }
    auto s = r.phases.scope("fem");
    r.map_x = r.body->x;  // the state the fluid's constraints came from
    r.map_v = r.body->v;
    r.body->advance(fluid_.dt, substeps_);
  }
  r.flow->project();
  r.step_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++r.steps;
  r.max_speed_run = std::max(r.max_speed_run, r.flow->status().max_speed);
  if (r.body) {
    if (2 * r.steps > steps_) {
      const coupling::Leakage l = coupling::bmap_leakage(r.body->boundary(), r.map_x, r.map_v, *r.flow);
      r.leak_abs_sum += l.absolute, r.leak_net_sum += l.net, ++r.leak_samples;
      const coupling::Leakage c =
          coupling::bmap_cut_leakage(r.map, r.body->boundary(), r.map_x, r.map_v, *r.flow, fluid_.nx, fluid_.ny);
      r.leak_cut_abs_sum += c.absolute, r.leak_cut_net_sum += c.net;
      r.tip_dx_sum += tip_displacement(r)[0];
    }
    if (r.body->has_hub() && 4 * r.steps > 3 * steps_) r.omega_tail.push_back(r.body->hub_omega());
  }
}

void ElasticSimulation::archive(StateArchive& a) {
  // Per coupled run: the fluid, the body, and what the metrics accumulate. The boundary map and
  // the constraints are rebuilt from the body at the start of every step.
  for (auto& r : runs_) {
    r.flow->archive(a);
    if (r.body) r.body->archive(a);
    a.value("elastic.steps", r.steps);
    a.value("elastic.step_seconds", r.step_seconds);
    a.value("elastic.leak_abs_sum", r.leak_abs_sum);
    a.value("elastic.leak_net_sum", r.leak_net_sum);
    a.value("elastic.leak_samples", r.leak_samples);
    a.value("elastic.leak_cut_abs_sum", r.leak_cut_abs_sum);
    a.value("elastic.leak_cut_net_sum", r.leak_cut_net_sum);
    a.value("elastic.max_speed_run", r.max_speed_run);
    a.value("elastic.tip_dx_sum", r.tip_dx_sum);
    a.vector("elastic.omega_tail", r.omega_tail);
    a.vector("elastic.map_x", r.map_x);
    a.vector("elastic.map_v", r.map_v);
  }
}

void ElasticSimulation::step() {
  for (auto& r : runs_) step_run(r);
}

void ElasticSimulation::check_health() {
  for (auto& r : runs_) {
    const mac2d::FieldStatus s = r.flow->status();
    if (!s.finite)
      throw NumericalError(
          fmt::format("{}: field '{}' is not finite at face ({}, {}) at step {} (t = {:g} s). Hint: lower "
                      "time.dt, raise physics.nu or body.substeps",
                      fluid_.source, s.field, s.i, s.j, r.flow->steps_done(), r.flow->time()));
    if (r.body)
      for (size_t n = 0; n < r.body->x.size(); ++n)
        if (!std::isfinite(r.body->x[n][0]) || !std::isfinite(r.body->x[n][1]))
          throw NumericalError(
              fmt::format("{}: body node {} position is not finite at step {} (t = {:g} s): the explicit "
                          "FEM went unstable. Hint: raise body.substeps or lower body.material stiffness",
                          fluid_.source, n, r.flow->steps_done(), r.flow->time()));
  }
}

ElasticSimulation::Inflow ElasticSimulation::inflow() const {
  const mac2d::HostFields f = runs_[0].flow->fields();
  Inflow in;
  auto face = [&](double inward, double length) {
    in.flux += std::max(0.0, inward) * length;
    in.speed = std::max(in.speed, inward);
  };
  for (int j = 1; j <= f.ny; ++j) face(f.u[f.at(0, j)], f.dy), face(-f.u[f.at(f.nx, j)], f.dy);
  for (int i = 1; i <= f.nx; ++i) face(f.v[f.at(i, 0)], f.dx), face(-f.v[f.at(i, f.ny)], f.dx);
  return in;
}

Vec2 ElasticSimulation::tip_displacement(const ElasticRun& r) const {
  if (!r.body || tip_node_ < 0) return {0, 0};
  return {r.body->x[tip_node_][0] - r.body->mesh().nodes[tip_node_][0],
          r.body->x[tip_node_][1] - r.body->mesh().nodes[tip_node_][1]};
}

std::vector<std::string> ElasticSimulation::series_columns() const {
  std::vector<std::string> c = {"t", "max_speed", "max_divergence", "pressure_iterations"};
  for (size_t k = 0; k < runs_.size(); ++k) {
    const std::string p = k == 0 ? "" : coupling_mode_choices().name(runs_[k].mode) + "_";
    if (!runs_[k].body) continue;
    for (const char* n : {"tip_dx", "tip_dy", "omega", "angle", "leak_flux_rel", "leak_cut_rel"}) c.push_back(p + n);
  }
  return c;
}

std::vector<double> ElasticSimulation::series_row() {
  const auto& f = *runs_[0].flow;
  std::vector<double> row = {f.time(), f.status().max_speed, f.max_divergence(),
                             static_cast<double>(f.pressure_stats().last_iterations)};
  const double q = std::max(inflow().flux, 1e-300);
  for (auto& r : runs_) {
    if (!r.body) continue;
    const Vec2 tip = tip_displacement(r);
    const coupling::Leakage l = r.map_x.empty() ? coupling::bmap_leakage(*r.body, *r.flow)
                                                : coupling::bmap_leakage(r.body->boundary(), r.map_x, r.map_v, *r.flow);
    // Before the first step there is no map (nor a projected field to measure).
    const double cut = r.map_x.empty() ? 0.0
                                       : coupling::bmap_cut_leakage(r.map, r.body->boundary(), r.map_x, r.map_v,
                                                                    *r.flow, fluid_.nx, fluid_.ny)
                                             .absolute;
    row.insert(row.end(), {tip[0], tip[1], r.body->hub_omega(), r.body->hub_angle(), l.absolute / q, cut / q});
  }
  return row;
}

json ElasticSimulation::run_metrics(ElasticRun& r) {
  json m;
  const auto& f = *r.flow;
  const double n = std::max(1L, r.steps);
  m["frames_per_s"] = r.step_seconds > 0 ? r.steps / r.step_seconds : 0.0;
  for (const auto& [name, s] : f.phase_seconds()) m[name + "_ms"] = 1e3 * s / n;
  for (const char* name : {"map_build", "force", "fem"}) {
    const auto& t = r.phases.totals_s();
    m[std::string(name) + "_ms"] = t.count(name) ? 1e3 * t.at(name) / n : 0.0;
  }
  const auto& ps = f.pressure_stats();
  m["pressure_solver"] = to_string(fluid_.pressure_solver);
  m["advection"] = to_string(fluid_.advection);
  m["pressure_iterations_per_solve"] = ps.solves ? static_cast<double>(ps.iterations) / ps.solves : 0.0;
  m["pressure_solve_ms"] = ps.solves ? 1e3 * ps.seconds / ps.solves : 0.0;
  m["pressure_tol"] = fluid_.pressure_tol;
  const auto& vs = f.viscosity_stats();
  m["viscosity_iterations_per_solve"] = vs.solves ? static_cast<double>(vs.iterations) / vs.solves : 0.0;
  m["max_divergence"] = f.max_divergence();
  if (r.body) {
    const Vec2 tip = tip_displacement(r);
    m["elements"] = r.body->mesh().tris.size();
    m["tip_dx"] = tip[0];
    m["tip_dy"] = tip[1];
    m["tip_dx_mean_second_half"] = r.leak_samples ? r.tip_dx_sum / r.leak_samples : tip[0];
    m["omega"] = r.body->hub_omega();
    m["angle"] = r.body->hub_angle();
    if (!r.omega_tail.empty()) {
      double mean = 0, var = 0;
      for (double w : r.omega_tail) mean += w / r.omega_tail.size();
      for (double w : r.omega_tail) var += (w - mean) * (w - mean) / r.omega_tail.size();
      m["omega_mean_last_quarter"] = mean;
      m["omega_std_last_quarter"] = std::sqrt(var);
      // Still spinning up? The change of the mean from the first to the second half of the last
      // quarter, relative to the quarter's mean (a steady rotor's is ~0 whatever its fluctuation).
      const size_t half = r.omega_tail.size() / 2;
      double first = 0, second = 0;
      for (size_t k = 0; k < r.omega_tail.size(); ++k)
        (k < half ? first : second) += r.omega_tail[k] / (k < half ? half : r.omega_tail.size() - half);
      m["omega_drift_last_quarter"] = half ? (second - first) / std::max(std::abs(mean), 1e-300) : 0.0;
    }
    const Inflow in = inflow();
    const double q = std::max(in.flux, 1e-300);
    m["inflow_flux"] = q;
    m["max_speed_run"] = r.max_speed_run;
    // Only with an inflow to compare with (a case driven by its walls alone has none).
    if (in.speed > 0) m["max_speed_run_over_inflow"] = r.max_speed_run / in.speed;
    m["leak_flux_rel"] = r.leak_samples ? r.leak_abs_sum / r.leak_samples / q : 0.0;
    m["leak_net_rel"] = r.leak_samples ? r.leak_net_sum / r.leak_samples / q : 0.0;
    m["leak_cut_rel"] = r.leak_samples ? r.leak_cut_abs_sum / r.leak_samples / q : 0.0;
    m["leak_cut_net_rel"] = r.leak_samples ? r.leak_cut_net_sum / r.leak_samples / q : 0.0;
    m["coupling"] = coupling_mode_choices().name(r.mode);
  }
  return m;
}

json ElasticSimulation::metrics() {
  json m = run_metrics(runs_[0]);
  const auto& f = *runs_[0].flow;
  m["time"] = f.time();
  m["max_speed"] = f.status().max_speed;
  m["grid"] = fmt::format("{}x{}", fluid_.nx, fluid_.ny);
  m["dt"] = fluid_.dt;
  m["substeps"] = substeps_;
  m.update(scene_metrics());
  for (size_t k = 1; k < runs_.size(); ++k) {
    const std::string p = coupling_mode_choices().name(runs_[k].mode) + "_";
    const json other = run_metrics(runs_[k]);
    for (const auto& [key, value] : other.items()) m[p + key] = value;
  }
  return m;
}

json ElasticSimulation::phases_ms() const {
  json out = json::object();
  const ElasticRun& r = runs_[0];
  const double n = std::max(1L, r.steps);
  for (const auto& [name, s] : r.flow->phase_seconds()) out[name] = 1e3 * s / n;
  for (const auto& [name, s] : r.phases.totals_s()) out[name] = 1e3 * s / n;
  return out;
}

json ElasticSimulation::compare_tolerances() const {
  // Red-black SOR, multigrid and their max-norm residuals are order-independent, but mgcg's dot
  // products are sums whose order differs between backends, the iteration count decides where a
  // solve stops, and a coupled body amplifies round-off differences over hundreds of steps; the body
  // metrics agree to a few percent in --quick runs. Each metric also under both couplings' prefixes.
  json t = json::object();
  const std::string why =
      "reduction order (mgcg's dot products, the residual checks) differs between backends and can stop "
      "a solve one check earlier; the FEM body amplifies round-off";
  for (const char* k : {"max_divergence", "pressure_iterations_per_solve", "viscosity_iterations_per_solve"}) {
    t[k] = {{"rel", 0.5}, {"abs", fluid_.pressure_tol}, {"why", why}};
    t[std::string("staircase_") + k] = t[k];
    t[std::string("boundary_map_") + k] = t[k];
  }
  for (const char* k :
       {"tip_dx", "tip_dy", "omega", "angle", "leak_flux_rel", "leak_net_rel", "leak_cut_rel", "leak_cut_net_rel",
        "kinetic_energy", "max_speed", "max_speed_run", "max_speed_run_over_inflow", "tip_dx_mean_second_half",
        "omega_mean_last_quarter", "omega_std_last_quarter", "omega_drift_last_quarter"}) {
    t[k] = {{"rel", 0.05}, {"abs", 1e-6}, {"why", why}};
    t[std::string("staircase_") + k] = t[k];
    t[std::string("boundary_map_") + k] = t[k];
  }
  return t;
}

std::vector<std::string> ElasticSimulation::write_frame(const std::string& dir, int index) {
  const mac2d::HostFields f = runs_[0].flow->fields();
  vtk::ImageField u{"u", 1, {}}, v{"v", 1, {}}, p{"p", 1, {}}, speed{"speed", 1, {}}, solid{"solid", 1, {}};
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) {
      const double uc = f.uc(i, j), vc = f.vc(i, j);
      u.values.push_back(uc);
      v.values.push_back(vc);
      p.values.push_back(f.p[f.at(i, j)]);
      speed.values.push_back(std::hypot(uc, vc));
      solid.values.push_back(f.solid[f.at(i, j)]);
    }
  std::vector<std::string> files;
  const std::string name = fmt::format("field_{:05d}.vti", index);
  vtk::write_image((std::filesystem::path(dir) / name).string(), {f.nx, f.ny, 1}, {0, 0, 0}, {f.dx, f.dy, 1},
                   {vtk::vector_field("velocity", u.values, v.values), u, v, p, speed, solid});
  files.push_back(name);
  if (runs_[0].body) {
    const auto& b = *runs_[0].body;
    std::vector<std::array<double, 3>> pts;
    for (const auto& x : b.x) pts.push_back({x[0], x[1], 0});
    std::vector<std::vector<int>> lines;
    for (const auto& e : b.boundary()) lines.push_back({e.a, e.b});
    vtk::PointField speed_b{"speed", {}};
    for (const auto& w : b.v) speed_b.values.push_back(std::hypot(w[0], w[1]));
    const std::string bname = fmt::format("body_{:05d}.vtp", index);
    vtk::write_points((std::filesystem::path(dir) / bname).string(), pts, {speed_b}, lines);
    files.push_back(bname);
  }
  return files;
}

void ElasticSimulation::write_final(const std::string& dir) {
  const mac2d::HostFields f = runs_[0].flow->fields();
  CsvWriter out((std::filesystem::path(dir) / "final_fields.csv").string(), {"x", "y", "u", "v", "p", "speed", "solid"},
                fmt::format("cell-centre values at t = {:g} s", f.time));
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) {
      const double uc = f.uc(i, j), vc = f.vc(i, j);
      out.row({(i - 0.5) * f.dx, (j - 0.5) * f.dy, uc, vc, f.p[f.at(i, j)], std::hypot(uc, vc),
               static_cast<double>(f.solid[f.at(i, j)])});
    }
  if (!runs_[0].body) return;
  CsvWriter body((std::filesystem::path(dir) / "final_body.csv").string(), {"x0", "y0", "x1", "y1"},
                 fmt::format("body boundary edges at t = {:g} s", f.time));
  const auto& b = *runs_[0].body;
  for (const auto& e : b.boundary()) body.row({b.x[e.a][0], b.x[e.a][1], b.x[e.b][0], b.x[e.b][1]});
}

}  // namespace immerse::cases
