#include "langevin_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "immerse/bodies/langevin_meshes.hpp"
#include "immerse/bodies/langevin_voxelise.hpp"
#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/vtk.hpp"

namespace immerse::cases::langevin {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

Eigen::Matrix3d rotation(const bodies::LangevinBodyState& s) {
  Eigen::Matrix3d R;
  for (int i = 0; i < 9; ++i) R(i / 3, i % 3) = s.R[i];
  return R;
}

bodies::TriMesh build_mesh(const LangevinCase& c) {
  bodies::TriMesh m;
  const auto& a = c.semi_axes;
  if (c.from_mesh_file) {
    if (c.mesh_file.empty())
      throw InputError(fmt::format("{}: key 'body.mesh_file': required for shape mesh", c.source));
    m = bodies::read_obj(c.mesh_file);
  } else if (bodies::is_thin(c.shape) && !(c.thickness > 0)) {
    throw InputError(fmt::format("{}: key 'body.thickness': must be > 0 for a {}", c.source,
                                 bodies::langevin_shape_choices().name(c.shape)));
  } else {
    m = bodies::langevin_body_mesh(c.shape, a[0], a[1], a[2], c.thickness, c.faces);
  }
  bodies::check_closed(m, c.source + ": body");
  m.translate(-bodies::mass_properties(m).centroid);
  return m;
}

// The body's surface at one instant as VTK PolyData.
void write_mesh_vtp(const std::string& path, const bodies::TriMesh& m) {
  std::vector<std::array<double, 3>> points;
  points.reserve(m.vertices.size());
  for (const auto& v : m.vertices) points.push_back({v.x(), v.y(), v.z()});
  vtk::write_triangles(path, points, m.faces);
}

}  // namespace

LangevinSimulation::LangevinSimulation(const json& r, const std::string& source, const RunOptions& opt)
    : c_(langevin_case_from_json(r, source)), frames_(r["output"]["frames"].get<int>()) {
  mesh_ = build_mesh(c_);
  const Eigen::AlignedBox3d box = mesh_.bounds();
  const Eigen::Vector3d half = 0.5 * (box.max() - box.min());
  half.maxCoeff(&major_axis_);

  // Added mass (timed: precompute_added_mass_ms).
  bodies::AddedMassOptions am;
  am.fluid_density = c_.fluid_density;
  am.thickness = c_.thickness;
  // A sheet's system defeats BiCGSTAB (it stalls and falls back to the dense LU after 10
  // iterations), so a sheet goes to the LU at once: the same matrix, 10 % less time.
  am.iterative = c_.thickness <= 0;
  am.model = c_.added_mass_method;
  std::optional<bodies::TriMesh> coarse;
  if (c_.added_mass_richardson && !c_.from_mesh_file) {
    const auto& a = c_.semi_axes;
    coarse = bodies::langevin_coarser_mesh(c_.shape, a[0], a[1], a[2], c_.faces);
  }
  added_ = bodies::langevin_added_mass(mesh_, coarse, am);

  // Falling speed scale and Reynolds number (the paper's eq. 1): U0 = sqrt((rho_bar - 1) g b),
  // Re = U0 d / nu, b the thickness (thin bodies) or the smallest extent, d the largest extent.
  const double rho_bar = c_.body_density / std::max(c_.fluid_density, 1e-300);
  const double b = c_.thickness > 0 ? c_.thickness : 2 * half.minCoeff(), d = 2 * half.maxCoeff();
  U0_ = std::sqrt(std::max(rho_bar - 1, 0.0) * 9.81 * b);
  Re_ = c_.Re > 0 ? c_.Re : std::max(U0_ * d / c_.viscosity, 1e-6);

  // Turbulence precompute on the MAC grid, the body voxelised with flow_axis facing the inflow.
  if (c_.turbulence && U0_ > 0) {
    mac3d::TurbulenceParams tp = c_.turb;
    tp.U0 = U0_;
    tp.h = c_.domain_lengths * d / tp.nx;
    // l of eps0: given, the MAC cell (the paper's: TurbulenceParams' own default) or the body length.
    if (!(tp.length > 0)) tp.length = c_.length_scale_cell ? tp.h : d;
    if (!(tp.dt > 0)) tp.dt = tp.h / U0_;
    mac3d::check_turbulence_params(tp, source);
    bodies::TriMesh tunnel = mesh_;
    Eigen::Matrix3d P = Eigen::Matrix3d::Zero();  // cyclic permutation: body flow_axis -> x
    for (int a = 0; a < 3; ++a) P(a, (c_.flow_axis + a) % 3) = 1;
    tunnel.transform(P, Eigen::Vector3d(tp.nx * tp.h / 3, tp.ny * tp.h / 2, tp.nz * tp.h / 2));
    const auto t0 = Clock::now();
    const auto solid = bodies::langevin_voxelise(tunnel, tp.nx, tp.ny, tp.nz, tp.h, Eigen::Vector3d::Zero());
    voxelise_ms_ = ms_since(t0);
    turb_ = mac3d::run_turbulence(opt.backend, tp, solid);
    series_.chi = turb_.chi;
    series_.eps = turb_.eps;
    series_.dt = tp.dt;
    // the series starts at t = 0 with the initial state
    const double k0 = tp.k0 >= 0 ? tp.k0 : 1.5 * U0_ * U0_;
    const double l = tp.length > 0 ? tp.length : tp.h;
    const double e0 = std::pow(tp.C_mu, 0.75) * std::pow(k0, 1.5) / l;
    series_.chi.insert(series_.chi.begin(), e0 / k0);
    series_.eps.insert(series_.eps.begin(), e0);
  }

  params_ = bodies::langevin_body_params(mesh_, c_.body_density, c_.fluid_density, added_.matrix, Re_, c_.langevin);
  params_.ground_z = c_.ground_z;
  params_.relax_angular = c_.relax_angular ? 1 : 0;
  if (c_.lift)
    bodies::langevin_set_lift(params_, mesh_, c_.lift_nose.data(), c_.lift_normal.data(),
                              fmt::format("{}: key 'lift.normal'", source));
  params_without_ = params_;
  params_without_.langevin = 0;
  double e[3], vb[3] = {0, 0, 0};
  for (int a = 0; a < 3; ++a) e[a] = c_.euler_deg[a] * M_PI / 180;
  state_ = bodies::langevin_initial_state(c_.position.data(), e, vb, c_.omega.data());
  const Eigen::Vector3d v_body =
      rotation(state_).transpose() * Eigen::Vector3d(c_.velocity[0], c_.velocity[1], c_.velocity[2]);
  for (int a = 0; a < 3; ++a) state_.xi[a] = v_body[a];
  state_without_ = state_;
  initial_ = state_;
  traj_.push_back({0, state_});
  if (c_.compare_without) traj_without_.push_back({0, state_without_});
}

void LangevinSimulation::step() {
  const double t = step_ * c_.dt;
  const auto t0 = Clock::now();
  bodies::langevin_step(params_, series_.view(), state_, t, c_.dt, uint64_t(c_.seed), 0, uint64_t(step_));
  step_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
  if (c_.compare_without)
    bodies::langevin_step(params_without_, series_.view(), state_without_, t, c_.dt, uint64_t(c_.seed), 0,
                          uint64_t(step_));
  ++step_;
  traj_.push_back({step_ * c_.dt, state_});
  if (c_.compare_without) traj_without_.push_back({step_ * c_.dt, state_without_});
}

void LangevinSimulation::check_health() {
  const auto& s = state_;
  const char* names[4] = {"R", "x", "v", "omega"};
  for (int k = 0; k < 18; ++k) {
    const double v = k < 9 ? s.R[k] : (k < 12 ? s.x[k - 9] : s.xi[k - 12]);
    if (!std::isfinite(v))
      throw NumericalError(
          fmt::format("{}: field '{}' is not finite at component {} at step {} (t = {:g}). Hint: lower time.dt",
                      c_.source, names[k < 9 ? 0 : (k < 12 ? 1 : (k < 15 ? 2 : 3))], k, step_, time()));
  }
}

double LangevinSimulation::tilt_deg(const bodies::LangevinBodyState& s) const {
  // angle between the body axis facing the flow (the falling direction at release) and the vertical
  const double c = std::abs(s.R[6 + c_.flow_axis]);
  return std::acos(std::min(1.0, c)) * 180 / M_PI;
}

std::vector<std::string> LangevinSimulation::write_frame(const std::string& dir, int index) {
  bodies::TriMesh m = mesh_;
  m.transform(rotation(state_), Eigen::Vector3d(state_.x[0], state_.x[1], state_.x[2]));
  const std::string name = fmt::format("body_{:05d}.vtp", index);
  write_mesh_vtp((std::filesystem::path(dir) / name).string(), m);
  return {name};
}

void LangevinSimulation::write_final(const std::string& dir) {
  auto write = [&](const std::vector<TrajectorySample>& traj, const std::string& file) {
    CsvWriter w((std::filesystem::path(dir) / file).string(),
                {"t", "x", "y", "z", "qw", "qx", "qy", "qz", "vx_world", "vy_world", "vz_world", "omega_x", "omega_y",
                 "omega_z", "tilt_deg"},
                fmt::format("{}: trajectory, SI units; orientation as the quaternion of R (body -> world)", c_.source));
    const size_t every = std::max<size_t>(1, traj.size() / 5000);
    for (size_t k = 0; k < traj.size(); k += every) {
      const auto& s = traj[k].s;
      const Eigen::Matrix3d R = rotation(s);
      const Eigen::Quaterniond q(R);
      const Eigen::Vector3d v = R * Eigen::Vector3d(s.xi[0], s.xi[1], s.xi[2]);
      w.row({traj[k].t, s.x[0], s.x[1], s.x[2], q.w(), q.x(), q.y(), q.z(), v[0], v[1], v[2], s.xi[3], s.xi[4], s.xi[5],
             tilt_deg(s)});
    }
  };
  write(traj_, "trajectory.csv");
  if (c_.compare_without) write(traj_without_, "trajectory_no_langevin.csv");
  CsvWriter t((std::filesystem::path(dir) / "turbulence.csv").string(), {"t", "chi", "eps", "k"},
              fmt::format("{}: k-epsilon precompute, means over the sampled region", c_.source));
  for (size_t k = 0; k < turb_.k.size(); ++k) t.row({turb_.time[k], turb_.chi[k], turb_.eps[k], turb_.k[k]});
}

std::vector<std::string> LangevinSimulation::series_columns() const {
  std::vector<std::string> c = {"t", "x", "y", "z", "speed", "tilt_deg", "omega_major"};
  if (c_.compare_without) c.insert(c.end(), {"z_no_langevin", "tilt_deg_no_langevin"});
  return c;
}

std::vector<double> LangevinSimulation::series_row() {
  const auto& s = state_;
  std::vector<double> row = {time(),
                             s.x[0],
                             s.x[1],
                             s.x[2],
                             std::sqrt(s.xi[0] * s.xi[0] + s.xi[1] * s.xi[1] + s.xi[2] * s.xi[2]),
                             tilt_deg(s),
                             s.xi[3 + major_axis_]};
  if (c_.compare_without) row.insert(row.end(), {state_without_.x[2], tilt_deg(state_without_)});
  return row;
}

json LangevinSimulation::trajectory_metrics(const std::vector<TrajectorySample>& traj) const {
  // Until the landing (or the end): descent, lateral excursion, heading of the horizontal motion
  // (unwrapped; from displacements over heading_window so the per-step kicks do not count as
  // turns), rotation about the body's major axis, tilt statistics.
  size_t end = traj.size() - 1;
  for (size_t k = 0; k < traj.size(); ++k)
    if (traj[k].s.landed) {
      end = k;
      break;
    }
  const double T = traj[end].t;
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300, spin = 0, spin_abs = 0, other_abs = 0;
  double tilt_sum = 0, tilt_sum2 = 0;
  for (size_t k = 0; k <= end; ++k) {
    const auto& s = traj[k].s;
    xmin = std::min(xmin, s.x[0]);
    xmax = std::max(xmax, s.x[0]);
    ymin = std::min(ymin, s.x[1]);
    ymax = std::max(ymax, s.x[1]);
    if (k > 0) {
      const double dt = traj[k].t - traj[k - 1].t;
      spin += s.xi[3 + major_axis_] * dt;
      spin_abs += std::abs(s.xi[3 + major_axis_]) * dt;
      for (int a = 0; a < 3; ++a)
        if (a != major_axis_) other_abs += std::abs(s.xi[3 + a]) * dt;
    }
    const double tl = tilt_deg(s);
    tilt_sum += tl;
    tilt_sum2 += tl * tl;
  }
  const long window = std::max(1L, std::lround(heading_window / c_.dt));
  double heading = 0, prev = NAN, turn_extreme = 0, turn_dir = 0;
  int turns = 0;
  for (size_t k = window; k <= end; k += window) {
    const double dx = traj[k].s.x[0] - traj[k - window].s.x[0], dy = traj[k].s.x[1] - traj[k - window].s.x[1];
    if (std::hypot(dx, dy) < 1e-9) continue;
    const double a = std::atan2(dy, dx);
    if (!std::isnan(prev)) heading += std::remainder(a - prev, 2 * M_PI);
    prev = a;
    // A turning motion: the heading sweeps 90 degrees in one sense from the last extreme.
    const double dev = heading - turn_extreme;
    if (std::abs(dev) >= M_PI / 2 && dev * turn_dir <= 0) {
      ++turns;
      turn_dir = dev > 0 ? 1 : -1;
      turn_extreme = heading;
    }
    if (turn_dir * (heading - turn_extreme) > 0) turn_extreme = heading;
  }
  const double n = double(end + 1), mean_tilt = tilt_sum / n;
  json out = {{"mean_descent_speed", T > 0 ? (traj[0].s.x[2] - traj[end].s.x[2]) / T : 0.0},
              {"lateral_amplitude", 0.5 * std::max(xmax - xmin, ymax - ymin)},
              {"heading_turns", std::abs(heading) / (2 * M_PI)},
              {"turns", turns},
              {"rotation_about_major_axis_turns", spin_abs / (2 * M_PI)},
              {"rotation_about_major_axis_net_turns", std::abs(spin) / (2 * M_PI)},
              {"major_axis_rotation_share", spin_abs / std::max(spin_abs + other_abs, 1e-300)},
              {"oscillation_amplitude_deg", std::sqrt(2 * std::max(0.0, tilt_sum2 / n - mean_tilt * mean_tilt))},
              {"glide_ratio", std::hypot(traj[end].s.x[0] - traj[0].s.x[0], traj[end].s.x[1] - traj[0].s.x[1]) /
                                  std::max(traj[0].s.x[2] - traj[end].s.x[2], 1e-12)},
              {"fall_time", T},
              {"landed", traj[end].s.landed != 0}};
  if (const auto balance = momentum_balance(traj, end)) out["momentum_balance"] = *balance;
  return out;
}

std::optional<double> LangevinSimulation::momentum_balance(const std::vector<TrajectorySample>& traj,
                                                           size_t end) const {
  // In the world frame the Kirchhoff terms drop out of the linear momentum P = R (K xi)_v: with the
  // relaxation -alpha v of eq. 10, dP/dt = (m - rho_f V) g - alpha(t) P + L + kicks of zero mean (L the
  // lift, zero in the paper's model). Once the release has relaxed (5 / alpha), the fall's mean of
  // (alpha(t) P_z - L_z) / ((m - rho_f V) g) is 1: the weight is carried by the relaxation and the
  // lift. The window ends at 20 / alpha, a fixed time before any fall lands: up to the landing, fast
  // falls (which end sooner) would bias the mean (measured +2.7 % on 1024 falls). alpha comes from the
  // case's turbulence series whether or not the runtime uses it, so a fall without the relaxation
  // fails. A fall that lands before 5 / alpha was never carried by the relaxation: NaN (a failed
  // check). A run that ends in the air before then has no value.
  const double weight = (params_.mass - params_.fluid_density * params_.volume) * params_.gravity[2];
  double sum = 0;
  long samples = 0;
  for (size_t k = 0; k < end; ++k) {
    double chi = 0, eps = 0;
    bodies::langevin_turbulence_at(series_.view(), traj[k].t, chi, eps);
    const double alpha = chi * (0.5 + 0.75 * params_.C0);
    if (!(alpha > 0) || traj[k].t < 5 / alpha) continue;
    if (traj[k].t > 20 / alpha) break;
    const auto& s = traj[k].s;
    double Pz = 0, Lz = 0, lift[3] = {0, 0, 0}, torque[3];
    if (params_.lift_k > 0) bodies::langevin_lift_force(params_, s.xi, lift, torque);
    for (int i = 0; i < 3; ++i) {
      double p = 0;  // (K xi)_i, the body-frame linear momentum
      for (int b = 0; b < 6; ++b) p += params_.K[i * 6 + b] * s.xi[b];
      Pz += s.R[2 * 3 + i] * p;
      Lz += s.R[2 * 3 + i] * lift[i];
    }
    sum += (alpha * Pz - Lz) / weight;
    ++samples;
  }
  if (samples > 0) return sum / samples;
  if (traj[end].s.landed) return NAN;
  return std::nullopt;
}

std::vector<TrajectorySample> LangevinSimulation::fall_with_seed(long seed) const {
  bodies::LangevinBodyState s = initial_;
  std::vector<TrajectorySample> traj = {{0, s}};
  traj.reserve(step_ + 1);
  for (long k = 0; k < step_ && !s.landed; ++k) {
    bodies::langevin_step(params_, series_.view(), s, k * c_.dt, c_.dt, uint64_t(seed), 0, uint64_t(k));
    traj.push_back({(k + 1) * c_.dt, s});
  }
  return traj;
}

json LangevinSimulation::ensemble_metrics(const json& main) const {
  // One fall per seed; the statistics are of the outcomes the paper's figures show.
  const double half_length = c_.semi_axes[0];
  json falls = json::array({main});
  for (int k = 1; k <= c_.ensemble; ++k) falls.push_back(trajectory_metrics(fall_with_seed(c_.seed + k)));
  const size_t n = falls.size();
  std::vector<double> turns, heading, lateral, major_turns, glide;
  size_t helical = 0;
  double balance_sum = 0, balance_sum2 = 0;
  size_t balanced = 0;
  for (const auto& f : falls) {
    if (f.contains("momentum_balance")) {
      const double b = f["momentum_balance"].is_number() ? f["momentum_balance"].get<double>() : NAN;
      balance_sum += b;
      balance_sum2 += b * b;
      ++balanced;
    }
    turns.push_back(f["turns"].get<double>());
    heading.push_back(f["heading_turns"].get<double>());
    lateral.push_back(f["lateral_amplitude"].get<double>() / half_length);
    major_turns.push_back(f["rotation_about_major_axis_net_turns"].get<double>());
    glide.push_back(f["glide_ratio"].get<double>());
    if (f["heading_turns"].get<double>() >= helix_min_turns &&
        f["lateral_amplitude"].get<double>() >= helix_min_radius * half_length)
      ++helical;
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  };
  // Wilson score interval (95 %) of the fraction of helical falls.
  const double p = double(helical) / n, z = 1.96, d = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / d, half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
  json out = {{"falls", n},
              {"seeds", {c_.seed, c_.seed + c_.ensemble}},
              {"helical_fraction", p},
              {"helical_fraction_ci95", {std::max(0.0, centre - half), std::min(1.0, centre + half)}},
              {"turns_median", median(turns)},
              {"turns", turns},
              {"heading_turns_median", median(heading)},
              {"heading_turns", heading},
              {"lateral_amplitude_median", median(lateral)},  // in half-lengths
              {"major_axis_net_turns_median", median(major_turns)},
              {"glide_ratio_median", median(glide)}};
  if (balanced > 1) {  // NaN when a fall landed before the relaxation could carry it
    const double mean = balance_sum / balanced;
    const double var = std::max(0.0, balance_sum2 / balanced - mean * mean) * balanced / (balanced - 1);
    out["momentum_balance_mean"] = mean;
    out["momentum_balance_stderr"] = std::sqrt(var / balanced);
  }
  return out;
}

json LangevinSimulation::metrics() {
  json m = trajectory_metrics(traj_);
  if (c_.ensemble > 0) m["ensemble"] = ensemble_metrics(m);
  if (c_.compare_without) {
    const json w = trajectory_metrics(traj_without_);
    for (const auto& [k, v] : w.items()) m[k + "_no_langevin"] = v;
  }
  m["precompute_added_mass_ms"] = added_.solve_ms;
  m["precompute_turbulence_ms"] = turb_.precompute_ms;
  m["runtime_step_us"] = step_ > 0 ? 1e6 * step_seconds_ / step_ : 0.0;
  m["faces"] = added_.faces;
  m["body_volume"] = added_.volume;
  m["body_mass"] = params_.mass;
  json diag = json::array();
  for (int k = 0; k < 6; ++k) diag.push_back(added_.matrix(k, k));
  m["added_mass_diagonal"] = diag;
  m["U0"] = U0_;
  m["Re"] = Re_;
  m["C0"] = params_.C0;
  if (!turb_.k.empty()) {
    m["chi_final"] = turb_.chi.back();
    m["eps_final"] = turb_.eps.back();
    m["turbulence_sampled_cells"] = turb_.sampled_cells;
    m["turbulence_max_divergence"] = turb_.max_divergence;
  }
  return m;
}

std::vector<Check> LangevinSimulation::checks(const json& m) const {
  // Qualitative outcomes as lower bounds (at_least: min(value, cap) against the middle of [lo, cap]).
  auto at_least = [](const std::string& q, double v, double lo, double cap, const std::string& why,
                     CheckKind kind = CheckKind::prediction) { return cases::at_least(q, v, lo, cap, why, kind); };
  std::vector<Check> out;
  const LangevinScene scene = c_.scene;
  if (scene == LangevinScene::falling_paper) {
    // One fall's heading turns are not checked: with the paper's eq. 10 the trajectory is chaotic
    // enough that a 1e-16 change of the turbulence statistics (their summation order) moved seed 1
    // from 0.57 to 1.12 turns. The ensemble's helical fraction below checks it.
    // The helix's radius and the spin about the major axis, as medians over the ensemble when it
    // runs (one fall is chaotic: seed 1's net turns went from 4.5 to 0.04 with a 0.2% change of the
    // added mass), else of the one fall.
    const bool ensemble = m.contains("ensemble");
    const std::string of = ensemble ? fmt::format("median of {} falls: ", m["ensemble"]["falls"].get<int>()) : "";
    out.push_back(
        at_least(of + "lateral_amplitude/half-length",
                 ensemble ? m["ensemble"]["lateral_amplitude_median"].get<double>()
                          : m["lateral_amplitude"].get<double>() / c_.semi_axes[0],
                 helix_min_radius, 100,
                 "paper Fig. 3: the helix's radius is a sizeable fraction of the leaf (>= 1/4 of its half-length)"));
    out.push_back(at_least(of + "rotation_about_major_axis_net_turns",
                           ensemble ? m["ensemble"]["major_axis_net_turns_median"].get<double>()
                                    : m["rotation_about_major_axis_net_turns"].get<double>(),
                           1.0, 1e6,
                           "paper Fig. 3: the paper rotates about its major axis while falling (at least one full net "
                           "turn, |integral of omega_major dt|: back-and-forth jitter does not count)"));
    if (ensemble) {
      const json& e = m["ensemble"];
      out.push_back(at_least(
          fmt::format("helical fraction of {} falls", e["falls"].get<int>()), e["helical_fraction"], 0.5, 1,
          fmt::format("paper Fig. 3: the leaf falls helically (most falls); helical = heading turns >= 1 and "
                      "lateral amplitude >= 1/4 half-length; seeds {}-{}, 95% CI [{:.2f}, {:.2f}]",
                      e["seeds"][0].get<long>(), e["seeds"][1].get<long>(), e["helical_fraction_ci95"][0].get<double>(),
                      e["helical_fraction_ci95"][1].get<double>())));
    }
  } else if (scene == LangevinScene::paper_airplane) {
    if (m.contains("ensemble")) {
      const json& e = m["ensemble"];
      out.push_back({fmt::format("median turning motions of {} falls", e["falls"].get<int>()), e["turns_median"], 2.0,
                     1.0,
                     fmt::format("paper Fig. 4: two turning motions; tol one turn (a count, the 90-degree definition "
                                 "is ours); seeds {}-{}",
                                 e["seeds"][0].get<long>(), e["seeds"][1].get<long>()),
                     CheckKind::prediction});
    }
    out.push_back(
        at_least("turns", m["turns"].get<double>(), 2, 1e6,
                 "paper Fig. 4: the airplane makes (at least) two turning motions; a turn = the heading of the "
                 "horizontal motion (0.1 s displacements) sweeps >= 90 deg one way. The model has no lift, so "
                 "the count is set by the kicks, not by a glide: see the report"));
  } else if (scene == LangevinScene::rubber_ellipsoid && c_.compare_without) {
    const double with = m["oscillation_amplitude_deg"], without = m["oscillation_amplitude_deg_no_langevin"];
    out.push_back(at_least("oscillation ratio with/without Langevin", with / std::max(without, 1e-9), 1.5, 1e6,
                           "paper Fig. 5: with the Langevin terms the ellipsoid oscillates clearly more (>= 1.5x) than "
                           "the pure Kirchhoff flutter"));
  }
  if (m.contains("ensemble") && m["ensemble"].contains("momentum_balance_mean")) {
    // Sampling error of the ensemble mean, measured in the same run (standard error over the falls):
    // 4 of them leave room for the e^-5 remainder of the release; a fall without the relaxation gives
    // alpha t, i.e. 5-20.
    const json& e = m["ensemble"];
    const double se = e["momentum_balance_stderr"];
    out.push_back({fmt::format("mean (alpha P_z - L_z) / ((m - rho_f V) g) of {} falls", e["falls"].get<int>()),
                   e["momentum_balance_mean"], 1.0, std::max(0.02, 4 * se),
                   fmt::format("eq. 10's momentum balance in the world frame: the relaxation (and the lift L, "
                               "where on) carries the buoyant weight (mean over t in [5, 20] / alpha); tol 4 "
                               "standard errors of the ensemble mean ({:.3f}), at least 0.02",
                               se),
                   CheckKind::conservation});
  }
  return out;
}

json LangevinSimulation::phases_ms() const {
  return {{"added_mass", added_.solve_ms},
          {"added_mass_assembly", added_.assemble_ms},
          {"voxelise", voxelise_ms_},
          {"turbulence", turb_.precompute_ms},
          {"runtime", 1e3 * step_seconds_}};
}

json LangevinSimulation::compare_tolerances() const {
  // The turbulence series are means computed by parallel reductions (order differs between backends,
  // ~1e-15 relative); the trajectory amplifies that through the chaotic fall. The runtime itself is
  // the same host code on every backend, so only the turbulence-driven quantities may move.
  const json chaotic = {{"rel", 0.05},
                        {"abs", 1e-3},
                        {"why", "chaotic fall amplifies reduction-order differences of the turbulence means"}};
  json t = json::object();
  for (const char* k :
       {"mean_descent_speed", "lateral_amplitude", "heading_turns", "turns", "rotation_about_major_axis_turns",
        "oscillation_amplitude_deg", "fall_time", "landed", "chi_final", "eps_final", "turbulence_max_divergence",
        "rotation_about_major_axis_net_turns", "major_axis_rotation_share", "momentum_balance", "glide_ratio"})
    t[k] = chaotic;
  t["ensemble"] = chaotic;  // the other seeds' falls (measured 1e-9 apart on the quick runs)
  return t;
}

}  // namespace immerse::cases::langevin
