// boat_load: the weight-distribution test (sec. 3.1, Fig. 10). The paper's boat (3.23 x 0.43 x
// 1.23 m) carries a 90 kg weight at the centre, bow, stern, port and starboard in turn; each
// position is its own run, the heel and trim read as time means once the boat has settled.
// Checks: each settled angle against the static equilibrium of the same hull and load, computed from
// the mesh's hydrostatics (a box-barge metacentric estimate is reported beside it).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "float_simulation.hpp"
#include "immerse/bodies/float_shapes.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/error.hpp"
#include "immerse/swlbm/stability.hpp"

namespace immerse::cases {
namespace {
// Settled heel and trim against the hull's static equilibrium on still water. Measured: the side
// loads heel 7 % further than the equilibrium (15.74 against 14.71 deg), the end loads trim within
// 1 % of it (bow 2.727 against 2.722 deg, stern -4.594 against -4.560). The excess heel is not
// explained yet (the water the hull has displaced is not flat under it; the equilibrium assumes it
// is); 10 % bounds it, and a buoyancy 10 % weak (15 % more heel) fails. The trims get 3 %, four
// times their larger error: a buoyancy 5 % weak trims the bow 3.3 % and the stern 5.1 % further.
constexpr double kSettledTolerance = 0.10;
constexpr double kTrimTolerance = 0.03;

struct Position {
  const char* name;
  double fx, fy;  // offset as a fraction of the half length (bow +) and half beam (port +)
};
const Position kPositions[5] = {
    {"centre", 0, 0}, {"bow", 1, 0}, {"stern", -1, 0}, {"port", 0, 1}, {"starboard", 0, -1}};

struct Result {
  double heel = 0, trim = 0, z = 0;
  long samples = 0;
  bool done = false;
};

class BoatLoad final : public Simulation {
 public:
  BoatLoad(const json& r, const std::string& source, const RunOptions& opt)
      : case_(float_case_from_json(r, source)), opt_(opt), source_(source) {
    const auto& b = r["boat_load"];
    load_ = b["load_kg"];
    boat_mass_ = b["boat_mass_kg"];
    frac_ = b["offset_fraction"];
    per_run_ = std::max(1L, std::lround(b["settle_s"].get<double>() / case_.water.dt));
    spec_ = bodies::float_rowing_boat_spec();
    hull_ = bodies::float_hull(spec_);
    level_ = swlbm::flow_scales(case_.water).h_max;
    com_ = level_trim_centre_of_mass();
  }

  long total_steps() const override { return 5 * per_run_; }

  void step() override {
    const int run = static_cast<int>(n_ / per_run_);
    const long k = n_ % per_run_;
    if (k == 0) build(run);
    system_->step();
    if (k >= per_run_ * 3 / 4) {  // the settled state: time mean over the last quarter
      const auto st = system_->body_state(0);
      const FloatAngles a = float_angles(st.orientation);
      Result& r = results_[run];
      r.heel += a.roll_deg;
      r.trim += a.pitch_deg;
      r.z += st.position.z();
      ++r.samples;
    }
    if (k == per_run_ - 1) {
      Result& r = results_[run];
      r.heel /= r.samples;
      r.trim /= r.samples;
      r.z /= r.samples;
      r.done = true;
    }
    ++n_;
  }

  void check_health() override {
    if (!system_) return;
    const swlbm::FieldStatus s = system_->water().status();
    if (!s.healthy)
      throw NumericalError(fmt::format("{}: water field '{}' is bad at cell ({}, {}) at step {}. Hint: lower time.dt",
                                       source_, s.field, s.i, s.j, system_->water().steps_done()));
  }
  double time() const override { return system_ ? system_->water().time() : 0.0; }
  int frame_count() const override { return 0; }
  // Each run's water is split among the ranks; every rank steps the boat alike.
  bool runs_on_ranks() const override { return true; }

  // Each position is its own run from still water, so the state is the step, the finished
  // positions' results and the water and boat of the run that made the last step (one body: no
  // Bullet contact caches to lose). Loading builds that run's system and fills it.
  bool supports_checkpoint() const override { return true; }
  void archive(StateArchive& a) override {
    a.value("boat_load.step", n_);
    a.value("boat_load.results", results_);
    int run = n_ == 0 ? -1 : static_cast<int>((n_ - 1) / per_run_);
    a.value("boat_load.system_run", run);
    if (run < 0) return;
    if (a.loading()) build(run);
    system_->archive(a);
  }

  void write_final(const std::string& dir) override {
    // The hull pressure of the last position (starboard), as the paper's Fig. 10 shows it.
    if (system_ && world().rank() == 0) write_float_body_vtp(dir + "/hull_pressure.vtp", *system_, 0);
  }

  json metrics() override {
    json m = json::object(), table = json::array();
    const Estimate e = estimate();
    for (int p = 0; p < 5; ++p) {
      if (!results_[p].done) continue;
      const std::string n = kPositions[p].name;
      m[n + "_heel_deg"] = results_[p].heel;
      m[n + "_trim_deg"] = results_[p].trim;
      table.push_back({{"position", n},
                       {"heel_deg", results_[p].heel},
                       {"trim_deg", results_[p].trim},
                       {"com_z_m", results_[p].z}});
    }
    m["positions"] = table;
    for (int p = 1; p < 5; ++p) {
      const bool side = kPositions[p].fy != 0;
      m[std::string(kPositions[p].name) + (side ? "_hydrostatic_heel_deg" : "_hydrostatic_trim_deg")] =
          equilibrium_deg(kPositions[p], side);
    }
    m["estimate_side_heel_deg"] = e.heel_deg;
    m["estimate_end_trim_deg"] = e.trim_deg;
    m["estimate_GM_T_m"] = e.gm_t;
    m["estimate_GM_L_m"] = e.gm_l;
    m["hull_triangles"] = hull_.face_count();
    m["boat_centre_of_mass"] = {com_.x(), com_.y(), com_.z()};
    return m;
  }

  std::vector<Check> checks(const json& m) const override {
    std::vector<Check> out;
    if (!m.contains("starboard_heel_deg")) return out;
    const double heel = m["starboard_hydrostatic_heel_deg"], trim = m["bow_hydrostatic_trim_deg"];
    // Centre: no heel or trim beyond a tenth of the side/end equilibrium. The hull and the centred
    // load are mirror images about the centreplane, so zero heel is the set-up's own symmetry (no
    // wrong model we can switch keeps the symmetry and heels): a consistency check that catches a
    // bug breaking that symmetry. The hull is not fore-aft symmetric, so the trim is predicted.
    out.push_back({"centre: |heel| (deg)", std::abs(m["centre_heel_deg"].get<double>()), 0.0, 0.1 * std::abs(heel),
                   "symmetry: hull and centred load are mirror images about the centreplane, so no heel; tol 10% "
                   "of the side-load heel. The set-up's symmetry, not a prediction",
                   CheckKind::consistency});
    out.push_back({"centre: |trim| (deg)", std::abs(m["centre_trim_deg"].get<double>()), 0.0, 0.1 * std::abs(trim),
                   "symmetry: a centred load neither heels nor trims; tol 10% of the end-load trim",
                   CheckKind::prediction});
    // Roll > 0 dips starboard (-y), pitch > 0 dips the bow (+x).
    auto source = [](double tol, const char* why) {
      return fmt::format(
          "static equilibrium of the same hull and load from the mesh's hydrostatics (centre of buoyancy by the "
          "divergence theorem; not the simulation's buoyancy code); tol {:g}% ({})",
          100 * tol, why);
    };
    const std::string heel_src = source(kSettledTolerance, "the side loads heel 7% further; see kSettledTolerance");
    const std::string trim_src = source(kTrimTolerance, "4x the end loads' measured 0.8%; see kTrimTolerance");
    for (const char* side : {"port", "starboard"}) {
      const double ref = m[std::string(side) + "_hydrostatic_heel_deg"];
      out.push_back({fmt::format("{}: heel (deg)", side), m[std::string(side) + "_heel_deg"], ref,
                     kSettledTolerance * std::abs(ref), heel_src, CheckKind::prediction});
    }
    for (const char* end : {"bow", "stern"}) {
      const double ref = m[std::string(end) + "_hydrostatic_trim_deg"];
      out.push_back({fmt::format("{}: trim (deg)", end), m[std::string(end) + "_trim_deg"], ref,
                     kTrimTolerance * std::abs(ref), trim_src, CheckKind::prediction});
    }
    return out;
  }

  json phases_ms() const override { return float_phases_ms_per_frame(system_.get()); }

  json compare_tolerances() const override {
    json t = json::object();
    const char* why = "Bullet's single precision and the water's round-off: settled angles agree to ~0.01 deg";
    for (const auto& p : kPositions)
      for (const char* q : {"_heel_deg", "_trim_deg"})
        t[std::string(p.name) + q] = {{"rel", 0.02}, {"abs", 0.02}, {"why", why}};
    t["positions"] = {{"rel", 0.02}, {"abs", 0.02}, {"why", why}};
    return t;
  }

 private:
  struct Estimate {
    double heel_deg, trim_deg, gm_t, gm_l;
  };
  // Box-barge hydrostatics of the hull's main dimensions (an independent, textbook estimate):
  // waterplane L x B x C (C the hull's block coefficient), draft T = V / (L B C), KB = T / 2,
  // BM_T = C B^2 / (12 T), BM_L = C L^2 / (12 T); KG of hull (uniform solid) + weight on the deck.
  Estimate estimate() const {
    const auto mp = bodies::mass_properties(hull_);
    const double L = spec_.length, B = spec_.beam, D = spec_.depth, C = mp.volume / (L * B * D);
    const double m = boat_mass_ + load_, V = m / case_.rho, T = V / (L * B * C);
    const double KG = (boat_mass_ * com_.z() + load_ * D) / m;
    const double gm_t = T / 2 + C * B * B / (12 * T) - KG, gm_l = T / 2 + C * L * L / (12 * T) - KG;
    return {std::atan(load_ * frac_ * B / 2 / (m * gm_t)) * 180 / M_PI,
            std::atan(load_ * frac_ * L / 2 / (m * gm_l)) * 180 / M_PI, gm_t, gm_l};
  }

  // A boat is built to float level: its centre of mass lies above the centre of buoyancy of its
  // level-trim waterline (the hull's own hydrostatics, bodies::submerged_part). Height: the hull's
  // centroid (uniform solid).
  Eigen::Vector3d level_trim_centre_of_mass() const {
    const double V = boat_mass_ / case_.rho;
    const Eigen::Vector3d B = bodies::submerged_part(hull_, bodies::level_displacing(hull_, V)).centroid;
    return {B.x(), 0.0, bodies::mass_properties(hull_).centroid.z()};
  }

  // Where the weight stands on the deck, in the boat's frame: offsets from its centre of mass.
  Eigen::Vector3d load_point(const Position& q) const {
    return {com_.x() + q.fx * frac_ * spec_.length / 2, q.fy * frac_ * spec_.beam / 2, spec_.depth};
  }

  // Static equilibrium of the loaded boat from the hull's geometry alone: heeled by `deg` about x
  // (roll) or trimmed about y (pitch), floating at the level that displaces boat and load, the
  // buoyancy's moment about that axis balances the weights'. Returns the angle where it vanishes.
  double equilibrium_deg(const Position& q, bool roll) const {
    const double m = boat_mass_ + load_, V = m / case_.rho;
    const Eigen::Vector3d P = load_point(q);
    const int c = roll ? 1 : 0;  // the horizontal coordinate the moment arms lie along
    auto moment = [&](double deg) {
      const Eigen::Matrix3d R =
          Eigen::AngleAxisd(deg * M_PI / 180, roll ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY())
              .toRotationMatrix();
      bodies::TriMesh h = hull_;
      for (auto& v : h.vertices) v = R * v;
      const Eigen::Vector3d B = bodies::submerged_part(h, bodies::level_displacing(h, V)).centroid;
      return m * B[c] - boat_mass_ * (R * com_)[c] - load_ * (R * P)[c];
    };
    double lo = -30, hi = 30;
    const double f_lo = moment(lo);
    if (f_lo * moment(hi) > 0) return std::numeric_limits<double>::quiet_NaN();  // no balance within 30 deg
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      (moment(mid) * f_lo > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }

  void build(int run) {
    const auto& p = case_.water;
    coupling::FloatBodySpec s;
    s.name = "rowing_boat";
    s.mesh = hull_;
    s.mass = boat_mass_;
    s.centre_of_mass = com_;
    // Keel a little below the still level, amidships.
    s.position = {0.5 * p.nx * p.dx, 0.5 * p.ny * p.dx, level_ - 0.08};
    system_.reset();
    system_ = coupling::make_float_system(opt_.backend, float_water_of_rank(p, opt_), {s}, case_.coupling);
    const Position& q = kPositions[run];
    coupling::FloatExternalLoad w;
    w.body = 0;
    w.force = {0, 0, -load_ * p.g};  // the 90 kg weight, world frame, on the deck
    w.point = load_point(q);         // offsets from the centre of mass (above the centre of flotation)
    system_->external_loads() = {w};
  }

  FloatCase case_;
  RunOptions opt_;
  std::string source_;
  bodies::HullSpec spec_;
  bodies::TriMesh hull_;
  Eigen::Vector3d com_;
  double load_ = 90, boat_mass_ = 120, frac_ = 0.8, level_ = 1;
  long per_run_ = 1, n_ = 0;
  std::unique_ptr<coupling::FloatSystem> system_;
  Result results_[5];
};

}  // namespace

std::unique_ptr<Simulation> make_boat_load(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<BoatLoad>(r, source, opt);
}

}  // namespace immerse::cases
