#include "penalty_simulation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/vtk.hpp"
#include "immerse/mac2d/stability.hpp"

namespace immerse::cases {

PenaltySimulation::PenaltySimulation(const json& r, const std::string& source, const RunOptions& opt)
    : params_(mac2d::penalty_params_from_json(r, source)),
      steps_(r["time"]["steps"].get<long>()),
      frames_(r["output"]["frames"].get<int>()),
      height_scale_(r["output"]["height_scale"].get<double>()) {
  flow_ = mac2d::make_penalty_flow(opt.backend, params_);
}

void PenaltySimulation::check_health() {
  const mac2d::FieldStatus s = flow_->status();
  const auto lim = mac2d::stability_limits(params_, s.max_speed);
  if (!s.finite)
    throw NumericalError(fmt::format(
        "{}: field '{}' is not finite at cell ({}, {}) at step {} (t = {:g}); the explicit scheme went unstable. "
        "Hint: lower time.dt (the a-priori limit is {:.4g}), raise physics.eps, or check the inflow/obstacle speeds",
        params_.source, s.field, s.i, s.j, flow_->steps_done(), flow_->time(),
        mac2d::stability_limits(params_, mac2d::effective_velocity_scale(params_)).dt_max()));
  // Instability detector: the flow became faster than the time step can carry (CFL / FTCS limits).
  if (params_.dt > lim.dt_max() * 1.0000001 && (lim.cfl < params_.dt || lim.ftcs < params_.dt))
    throw NumericalError(fmt::format(
        "{}: instability detector: max face speed {:.4g} at step {} (t = {:g}) makes dt = {:g} exceed the {}. "
        "Hint: lower time.dt or set stability.velocity_scale to the real peak speed",
        params_.source, s.max_speed, flow_->steps_done(), flow_->time(), params_.dt, lim.limiting()));
}

std::array<double, 3> PenaltySimulation::blended_colour(const mac2d::HostFields& f, size_t cell) const {
  // Each dye paints its colour over white water in proportion to its concentration, in order.
  std::array<double, 3> rgb = {1, 1, 1};
  for (size_t d = 0; d < f.dyes.size(); ++d) {
    const double c = std::clamp(f.dyes[d][cell], 0.0, 1.0);
    for (int k = 0; k < 3; ++k) rgb[k] = (1 - c) * rgb[k] + c * params_.dyes[d].rgb[k];
  }
  return rgb;
}

std::vector<std::string> PenaltySimulation::write_frame(const std::string& dir, int index) {
  const mac2d::HostFields f = flow_->fields();
  const int nx = f.nx, ny = f.ny;
  vtk::ImageField u{"u", 1, {}}, v{"v", 1, {}}, p{"p", 1, {}}, h{"height", 1, {}}, speed{"speed", 1, {}},
      solid{"solid", 1, {}}, colour{"colour", 3, {}};
  std::vector<vtk::ImageField> dyes(f.dyes.size());
  for (size_t d = 0; d < dyes.size(); ++d) dyes[d] = {fmt::format("dye{}", d), 1, {}};
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      const double uc = f.uc(i, j), vc = f.vc(i, j), pc = f.p[f.at(i, j)];
      u.values.push_back(uc);
      v.values.push_back(vc);
      p.values.push_back(pc);
      h.values.push_back(pc * height_scale_);
      speed.values.push_back(std::hypot(uc, vc));
      solid.values.push_back(f.solid[f.at(i, j)]);
      for (size_t d = 0; d < f.dyes.size(); ++d) dyes[d].values.push_back(std::clamp(f.dyes[d][f.at(i, j)], 0.0, 1.0));
      for (double c : blended_colour(f, f.at(i, j))) colour.values.push_back(c);
    }
  std::vector<vtk::ImageField> all = {vtk::vector_field("velocity", u.values, v.values), u, v, p, h, speed, solid};
  for (auto& d : dyes) all.push_back(d);
  if (!f.dyes.empty()) all.push_back(colour);
  std::vector<std::string> files;
  const std::string name = fmt::format("field_{:05d}.vti", index);
  vtk::write_image((std::filesystem::path(dir) / name).string(), {nx, ny, 1}, {0, 0, 0}, {f.dx, f.dy, 1}, all);
  files.push_back(name);
  if (!params_.streak_seeds.empty()) {
    const mac2d::Streaklines s = flow_->streaklines();
    // One polyline per seed, particles ordered by release time (a streakline).
    std::vector<std::vector<int>> lines(params_.streak_seeds.size());
    std::vector<size_t> order(s.position.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.birth[a] > s.birth[b]; });
    std::vector<std::array<double, 3>> pts;
    vtk::PointField age{"age", {}}, seed{"seed", {}};
    for (size_t k : order) {
      lines[s.seed[k]].push_back(static_cast<int>(pts.size()));
      pts.push_back({s.position[k][0], s.position[k][1], 0});
      age.values.push_back((flow_->steps_done() - s.birth[k]) * params_.dt);
      seed.values.push_back(s.seed[k]);
    }
    lines.erase(std::remove_if(lines.begin(), lines.end(), [](const auto& l) { return l.size() < 2; }), lines.end());
    const std::string sname = fmt::format("streaklines_{:05d}.vtp", index);
    vtk::write_points((std::filesystem::path(dir) / sname).string(), pts, {age, seed}, lines);
    files.push_back(sname);
  }
  return files;
}

void PenaltySimulation::write_final(const std::string& dir) {
  const mac2d::HostFields f = flow_->fields();
  std::vector<std::string> cols = {"x", "y", "u", "v", "p", "height", "solid"};
  for (size_t d = 0; d < f.dyes.size(); ++d) cols.push_back(fmt::format("dye{}", d));
  if (!f.dyes.empty()) cols.insert(cols.end(), {"r", "g", "b"});
  CsvWriter out((std::filesystem::path(dir) / "final_fields.csv").string(), cols,
                fmt::format("cell-centre values at t = {:g}", f.time));
  for (int j = 1; j <= f.ny; ++j)
    for (int i = 1; i <= f.nx; ++i) {
      const size_t c = f.at(i, j);
      std::vector<double> row = {(i - 0.5) * f.dx,
                                 (j - 0.5) * f.dy,
                                 f.uc(i, j),
                                 f.vc(i, j),
                                 f.p[c],
                                 f.p[c] * height_scale_,
                                 static_cast<double>(f.solid[c])};
      for (const auto& dye : f.dyes) row.push_back(std::clamp(dye[c], 0.0, 1.0));
      if (!f.dyes.empty())
        for (double k : blended_colour(f, c)) row.push_back(k);
      out.row(row);
    }
  if (params_.streak_seeds.empty()) return;
  const mac2d::Streaklines s = flow_->streaklines();
  CsvWriter lines((std::filesystem::path(dir) / "final_streaklines.csv").string(), {"x", "y", "seed", "age"},
                  fmt::format("streakline particles at t = {:g}", f.time));
  for (size_t k = 0; k < s.position.size(); ++k)
    lines.row({s.position[k][0], s.position[k][1], static_cast<double>(s.seed[k]),
               (flow_->steps_done() - s.birth[k]) * params_.dt});
}

PenaltySimulation::Summary PenaltySimulation::summarize() const {
  // One host copy of each level: the latest, and the previous one the mass identity pairs with it.
  const mac2d::HostFields now = flow_->fields(), prev = flow_->fields(/*previous_level=*/true);
  Summary s{now.time, 0, 0, 0, {0, 0, 0}};
  for (int j = 1; j <= now.ny; ++j)
    for (int i = 1; i <= now.nx; ++i) {
      const double uc = now.uc(i, j), vc = now.vc(i, j);
      s.kinetic_energy += 0.5 * (uc * uc + vc * vc) * now.dx * now.dy;
      s.max_speed = std::max(s.max_speed, std::hypot(uc, vc));
      if (!now.solid[now.at(i, j)])
        s.max_abs_divergence =
            std::max(s.max_abs_divergence, std::abs((now.u[now.at(i, j)] - now.u[now.at(i - 1, j)]) / now.dx +
                                                    (now.v[now.at(i, j)] - now.v[now.at(i, j - 1)]) / now.dy));
      s.mass.penalty_source -= params_.eps * now.p[now.at(i, j)] * now.dx * now.dy;
    }
  for (int j = 1; j <= prev.ny; ++j) {
    s.mass.inflow += prev.u[prev.at(0, j)] * prev.dy;
    s.mass.outflow += prev.u[prev.at(prev.nx, j)] * prev.dy;
  }
  for (int i = 1; i <= prev.nx; ++i) s.mass.outflow += (prev.v[prev.at(i, prev.ny)] - prev.v[prev.at(i, 0)]) * prev.dx;
  return s;
}

std::vector<std::string> PenaltySimulation::series_columns() const {
  return {"t", "max_speed", "kinetic_energy", "inflow_flux", "outflow_flux"};
}

std::vector<double> PenaltySimulation::series_row() {
  const Summary s = summarize();
  return {s.time, s.max_speed, s.kinetic_energy, s.mass.inflow, s.mass.outflow};
}

json PenaltySimulation::metrics() {
  const Summary s = summarize();
  return {{"time", s.time},
          {"max_speed", s.max_speed},
          {"kinetic_energy", s.kinetic_energy},
          {"max_abs_divergence", s.max_abs_divergence},
          {"inflow_flux", s.mass.inflow},
          {"outflow_flux", s.mass.outflow},
          {"flux_ratio_out_in", s.mass.inflow != 0 ? s.mass.outflow / s.mass.inflow : 0.0},
          {"penalty_mass_source", s.mass.penalty_source},
          {"mass_balance_residual", s.mass.residual()}};
}

std::vector<Check> PenaltySimulation::checks(const json& metrics) const {
  // Discrete divergence theorem: round-off only. The scale is the largest single term summed.
  const double scale = std::max(
      {std::abs(metrics["inflow_flux"].get<double>()), std::abs(metrics["outflow_flux"].get<double>()), 1e-300});
  return {{"mass balance residual / flux", metrics["mass_balance_residual"].get<double>() / scale, 0.0, 1e-9,
           "eps p + div u = 0 summed over the cells (divergence theorem); tolerance = round-off. An identity of "
           "the pressure update, true for any momentum equation: a health check",
           CheckKind::consistency}};
}

json PenaltySimulation::compare_tolerances() const {
  // Every field is computed cell by cell with the same arithmetic on each backend, and the host sums
  // the copied fields in one order, so metrics agree bitwise; the mass-balance residual alone is
  // pure rounding (a difference of sums ~1e-16 of the fluxes), so it is compared in absolute terms.
  // 1e-12 absolute is ~1e4 ulps of the O(1) fluxes of the canned cases.
  return {{"mass_balance_residual",
           {{"rel", 0.0},
            {"abs", 1e-12},
            {"why", "round-off residual of the discrete divergence theorem, compared in absolute terms"}}}};
}

json PenaltySimulation::phases_ms() const {
  json out = json::object();
  const double n = std::max(1L, flow_->steps_done());
  for (const auto& [name, s] : flow_->phase_seconds()) out[name] = 1e3 * s / n;
  return out;
}

}  // namespace immerse::cases
