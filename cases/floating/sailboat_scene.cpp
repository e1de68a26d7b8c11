// sailboat: the centre-of-mass test (sec. 3.2, Fig. 11). A 29 t sailboat, 19 x 2.30 x 4.60 m with
// a mast, lies beam-on to a wave train H = A |sin(2 pi (x + c t) / L)|^n (eq. 10, A = 4 m, n = 8)
// made by a wave-maker border. Two runs: centre of mass 0.5 m above the base (heels and recovers)
// and 1.65 m (capsizes). Metrics for each: the largest roll, the mean |roll| over the run's last two
// wave periods (capsized: beyond 90 deg), and the roll curves.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "float_simulation.hpp"
#include "immerse/bodies/float_shapes.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {
namespace {
class Sailboat final : public Simulation {
 public:
  Sailboat(const json& r, const std::string& source, const RunOptions& opt)
      : case_(float_case_from_json(r, source)), opt_(opt), source_(source) {
    const auto& s = r["sailboat"];
    for (const auto& h : s["com_heights"]) heights_.push_back(h.get<double>());
    if (heights_.empty()) throw InputError(source + ": key 'sailboat.com_heights': give at least one height");
    mass_ = 1000 * s["mass_t"].get<double>();
    wave_period_s_ = case_.water.wave.L / std::abs(case_.water.wave.speed(case_.water.g));
    per_run_ = std::max(1L, std::lround(s["duration_s"].get<double>() / case_.water.dt));
    mast_ = 15;
    if (!r["bodies"].empty()) mast_ = r["bodies"][0]["mast_height"];
    hull_ = bodies::float_sailboat(mast_);
    trim_ = float_level_trim(hull_, mass_, case_.coupling.forces);
    roll_.assign(heights_.size(), {});
    max_roll_.assign(heights_.size(), 0.0);
    final_roll_.assign(heights_.size(), 0.0);
  }

  long total_steps() const override { return static_cast<long>(heights_.size()) * per_run_; }

  void step() override {
    const int run = static_cast<int>(n_ / per_run_);
    const long k = n_ % per_run_;
    if (k == 0) build(run);
    system_->step();
    // Roll about the hull's own length axis: the angle between the deck's up vector and the
    // vertical, signed by its sideways lean (valid through capsize, unlike Euler angles).
    const Eigen::Matrix3d R = system_->body_state(0).rotation();
    const Eigen::Vector3d up = R.col(2), side = R.col(1);
    const double roll = std::atan2(-side.z(), up.z()) * 180 / M_PI;
    if (k % 5 == 0) roll_[run].push_back({system_->water().time(), roll});
    max_roll_[run] = std::max(max_roll_[run], std::abs(roll));
    final_roll_[run] = roll;
    ++n_;
  }

  void check_health() override {
    if (!system_) return;
    const swlbm::FieldStatus s = system_->water().status();
    if (!s.healthy)
      throw NumericalError(
          fmt::format("{}: water field '{}' is bad at cell ({}, {}) at step {}. Hint: lower time.dt "
                      "or the wave height",
                      source_, s.field, s.i, s.j, system_->water().steps_done()));
  }
  double time() const override { return system_ ? system_->water().time() : 0.0; }
  int frame_count() const override { return 0; }
  // Each run's water is split among the ranks; every rank steps the boat alike.
  bool runs_on_ranks() const override { return true; }

  // Each centre-of-mass height is its own run from still water: the state is the step, the roll
  // curves and extremes so far, and the water and boat of the run that made the last step (one
  // body: no Bullet contact caches to lose). Loading builds that run's system and fills it.
  bool supports_checkpoint() const override { return true; }
  void archive(StateArchive& a) override {
    a.value("sailboat.step", n_);
    a.vector("sailboat.max_roll", max_roll_);
    a.vector("sailboat.final_roll", final_roll_);
    for (auto& curve : roll_) {
      std::vector<double> flat;
      for (const auto& [t, roll] : curve) flat.insert(flat.end(), {t, roll});
      a.vector("sailboat.roll", flat);
      if (!a.loading()) continue;
      curve.clear();
      for (size_t k = 0; k + 1 < flat.size(); k += 2) curve.emplace_back(flat[k], flat[k + 1]);
    }
    int run = n_ == 0 ? -1 : static_cast<int>((n_ - 1) / per_run_);
    a.value("sailboat.system_run", run);
    if (run < 0) return;
    if (a.loading()) build(run);
    system_->archive(a);
  }

  void write_final(const std::string& dir) override {
    if (world().rank() != 0) return;  // every rank holds the same roll curves
    std::vector<std::string> cols = {"t"};
    for (double h : heights_) cols.push_back(fmt::format("roll_deg_com_{:.2f}", h));
    CsvWriter out((std::filesystem::path(dir) / "sailboat_roll.csv").string(), cols,
                  "roll angle (deg, > 0: starboard down) of each centre-of-mass height");
    size_t rows = 0;
    for (const auto& r : roll_) rows = std::max(rows, r.size());
    for (size_t i = 0; i < rows; ++i) {
      std::vector<double> row = {roll_[0].size() > i ? roll_[0][i].first : 0.0};
      for (const auto& r : roll_) row.push_back(i < r.size() ? r[i].second : NAN);
      out.row(row);
    }
  }

  json metrics() override {
    json m = json::object(), runs = json::array();
    for (size_t k = 0; k < heights_.size(); ++k) {
      if (roll_[k].empty()) continue;
      const std::string tag = fmt::format("com_{:.2f}", heights_[k]);
      const double late = late_mean_abs_roll(roll_[k]);
      const bool capsized = late > 90;
      m["max_roll_deg_" + tag] = max_roll_[k];
      m["final_roll_deg_" + tag] = final_roll_[k];
      m["late_mean_abs_roll_deg_" + tag] = late;
      m["capsized_" + tag] = capsized;
      json curve = json::array();
      for (const auto& [t, r] : roll_[k]) curve.push_back({t, r});
      runs.push_back({{"com_height_m", heights_[k]},
                      {"max_roll_deg", max_roll_[k]},
                      {"late_mean_abs_roll_deg", late},
                      {"capsized", capsized},
                      {"final_roll_deg", final_roll_[k]},
                      {"roll_curve", curve}});
    }
    for (size_t k = 0; k < heights_.size(); ++k)
      m[fmt::format("vanishing_stability_deg_com_{:.2f}", heights_[k])] = vanishing_stability_deg(heights_[k]);
    m["runs"] = runs;
    m["hull_triangles"] = hull_.face_count();
    m["draft_m"] = trim_.draft;
    m["mass_kg"] = mass_;
    return m;
  }

  std::vector<Check> checks(const json& m) const override {
    // The paper's Fig. 11: 0.5 m heels and recovers, 1.65 m capsizes (heights in between: no claim).
    // Each claim is read twice, never from one frame (the roll is barely damped): where the boat
    // spends the run's last two wave periods (mean |roll| below or beyond 90 deg: upright or over),
    // and the largest roll against the hull's angle of vanishing stability at that height (from its
    // static righting-arm curve): a boat that recovers never passed it, one that capsizes did.
    struct Claim {
      double height;
      bool capsizes;
      const char* figure;
    };
    const Claim claims[] = {{0.5, false, "paper Fig. 11 (top): heels as the wave passes and recovers"},
                            {1.65, true, "paper Fig. 11 (bottom): the wave capsizes it"}};
    std::vector<Check> out;
    for (const Claim& c : claims) {
      const std::string tag = fmt::format("com_{:.2f}", c.height);
      if (!m.contains("late_mean_abs_roll_deg_" + tag)) continue;
      const std::string at = fmt::format("CoM {:g} m: ", c.height);
      // `excess` = how far the boat went past a threshold: >= 0 for a capsize, <= 0 for a recovery.
      auto claim = [&](const std::string& capsized_form, const std::string& recovered_form, double excess,
                       const std::string& reading) {
        out.push_back(at_least(at + (c.capsizes ? capsized_form : recovered_form), c.capsizes ? excess : -excess, 0,
                               360, std::string(c.figure) + "; " + reading, CheckKind::prediction));
      };
      claim("mean |roll| over the last two wave periods - 90 (deg)",
            "90 - mean |roll| over the last two wave periods (deg)",
            m["late_mean_abs_roll_deg_" + tag].get<double>() - 90,
            "where the boat spends the run's last two wave periods: the upright side (below 90 deg) or over");
      claim("max roll - vanishing-stability angle (deg)", "vanishing-stability angle - max roll (deg)",
            m["max_roll_deg_" + tag].get<double>() - m["vanishing_stability_deg_" + tag].get<double>(),
            "the largest roll against the angle of vanishing stability of the hull's static GZ curve (mesh "
            "hydrostatics, mast included)");
    }
    return out;
  }

  json phases_ms() const override { return float_phases_ms_per_frame(system_.get()); }

  json compare_tolerances() const override {
    json t = json::object();
    const char* why =
        "a capsize is a large nonlinear motion: Bullet's single precision and the water's round-off "
        "move the roll curve by a few degrees between backends";
    for (double h : heights_) {
      t[fmt::format("max_roll_deg_com_{:.2f}", h)] = {{"rel", 0.1}, {"abs", 3}, {"why", why}};
      t[fmt::format("final_roll_deg_com_{:.2f}", h)] = {{"rel", 0.2}, {"abs", 10}, {"why", why}};
      t[fmt::format("late_mean_abs_roll_deg_com_{:.2f}", h)] = {{"rel", 0.1}, {"abs", 5}, {"why", why}};
    }
    // The per-run copies (matched by leaf name) and the roll curves, like the final roll.
    t["max_roll_deg"] = {{"rel", 0.1}, {"abs", 3}, {"why", why}};
    t["final_roll_deg"] = {{"rel", 0.2}, {"abs", 10}, {"why", why}};
    t["late_mean_abs_roll_deg"] = {{"rel", 0.1}, {"abs", 5}, {"why", why}};
    t["roll_curve"] = t["final_roll_deg"];
    return t;
  }

 private:
  // The righting arm GZ of the hull (mast included) heeled by `deg` about its length axis, floating
  // at the level that displaces its mass: the horizontal distance from the centre of buoyancy
  // (bodies::submerged_part, the mesh's own geometry) to the centre of mass; > 0 rights the boat.
  double righting_arm(double deg, double com_height) const {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(deg * M_PI / 180, Eigen::Vector3d::UnitX()).toRotationMatrix();
    bodies::TriMesh h = hull_;
    for (auto& v : h.vertices) v = R * v;
    const Eigen::Vector3d B =
        bodies::submerged_part(h, bodies::level_displacing(h, mass_ / case_.coupling.forces.rho)).centroid;
    const Eigen::Vector3d G = R * Eigen::Vector3d(trim_.com_x, 0, com_height);
    return G.y() - B.y();
  }

  // Mean |roll| (deg) over the curve's last two wave periods (the whole curve if it is shorter).
  double late_mean_abs_roll(const std::vector<std::pair<double, double>>& curve) const {
    if (curve.empty()) return 0;
    const double from = curve.back().first - 2 * wave_period_s_;
    double sum = 0;
    long n = 0;
    for (const auto& [t, roll] : curve)
      if (t >= from) sum += std::abs(roll), ++n;
    return sum / std::max(1L, n);
  }

  // The angle of vanishing stability: the first heel past which GZ turns negative (1-degree scan,
  // then bisection); 180 when the boat rights itself from any heel.
  double vanishing_stability_deg(double com_height) const {
    double prev = 1;
    for (int deg = 2; deg <= 180; ++deg) {
      if (righting_arm(deg, com_height) <= 0) {
        double lo = prev, hi = deg;
        for (int it = 0; it < 30; ++it) {
          const double mid = 0.5 * (lo + hi);
          (righting_arm(mid, com_height) > 0 ? lo : hi) = mid;
        }
        return 0.5 * (lo + hi);
      }
      prev = deg;
    }
    return 180;
  }

  void build(int run) {
    const auto& p = case_.water;
    coupling::FloatBodySpec s;
    s.name = "sailboat";
    s.mesh = hull_;
    s.mass = mass_;
    s.centre_of_mass = Eigen::Vector3d(trim_.com_x, 0, heights_[run]);
    // Beam-on to the waves: the hull's length along y, amidships in the basin, at its draft.
    const double level = p.wave.depth;
    s.orientation = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ());
    s.position = {0.4 * p.nx * p.dx, 0.5 * p.ny * p.dx, level - trim_.draft};
    s.sphere_radius = 0;
    system_.reset();
    system_ = coupling::make_float_system(opt_.backend, float_water_of_rank(p, opt_), {s}, case_.coupling);
  }

  FloatCase case_;
  RunOptions opt_;
  std::string source_;
  std::vector<double> heights_, max_roll_, final_roll_;
  std::vector<std::vector<std::pair<double, double>>> roll_;
  double mass_ = 29000, mast_ = 15;
  double wave_period_s_ = 1;  // L / c of the wave train
  bodies::TriMesh hull_;
  FloatLevelTrim trim_{0, 0};
  long per_run_ = 1, n_ = 0;
  std::unique_ptr<coupling::FloatSystem> system_;
};

}  // namespace

std::unique_ptr<Simulation> make_sailboat(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<Sailboat>(r, source, opt);
}

}  // namespace immerse::cases
