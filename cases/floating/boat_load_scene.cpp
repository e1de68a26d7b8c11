// boat_load: the weight-distribution test (sec. 3.1, Fig. 10). The paper's boat (3.23 x 0.43 x
// 1.23 m) carries a 90 kg weight at the centre, bow, stern, port and starboard in turn; each
// position is its own run, the heel and trim read as time means once the boat has settled.
// Checks: the sign each position implies and the rough size of a box-barge metacentric estimate.
#include <fmt/format.h>

#include <cmath>

#include "float_simulation.hpp"
#include "immerse/bodies/float_shapes.hpp"
#include "immerse/core/error.hpp"
#include "immerse/swlbm/stability.hpp"

namespace immerse::cases {
namespace {
constexpr double kPi = 3.14159265358979323846;

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

  void write_final(const std::string& dir) override {
    // The hull pressure of the last position (starboard), as the paper's Fig. 10 shows it.
    if (system_) write_float_body_vtp(dir + "/hull_pressure.vtp", *system_, 0);
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
    const double heel = m["estimate_side_heel_deg"], trim = m["estimate_end_trim_deg"];
    const char* src = "box-barge metacentric estimate atan(w d / (W GM)); rough size: within a factor 3";
    // Centre: symmetric load, no heel or trim beyond a tenth of the side/end estimates.
    out.push_back({"centre: |heel| (deg)", std::abs(m["centre_heel_deg"].get<double>()), 0.0, 0.1 * heel,
                   "symmetry: a centred load neither heels nor trims; tol 10% of the side-load estimate",
                   CheckKind::prediction});
    out.push_back({"centre: |trim| (deg)", std::abs(m["centre_trim_deg"].get<double>()), 0.0, 0.1 * trim,
                   "symmetry: a centred load neither heels nor trims; tol 10% of the end-load estimate",
                   CheckKind::prediction});
    // Signs: roll > 0 dips starboard (-y), pitch > 0 dips the bow (+x). Sizes: the log of the
    // ratio to the estimate within log(3).
    auto ratio = [](double ours, double est) { return ours * est > 0 ? std::log(ours / est) : 1e9; };
    out.push_back({"port: log(heel / estimate)", ratio(m["port_heel_deg"], -heel), 0.0, std::log(3.0), src,
                   CheckKind::prediction});
    out.push_back({"starboard: log(heel / estimate)", ratio(m["starboard_heel_deg"], heel), 0.0, std::log(3.0), src,
                   CheckKind::prediction});
    out.push_back(
        {"bow: log(trim / estimate)", ratio(m["bow_trim_deg"], trim), 0.0, std::log(3.0), src, CheckKind::prediction});
    out.push_back({"stern: log(trim / estimate)", ratio(m["stern_trim_deg"], -trim), 0.0, std::log(3.0), src,
                   CheckKind::prediction});
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
    return {std::atan(load_ * frac_ * B / 2 / (m * gm_t)) * 180 / kPi,
            std::atan(load_ * frac_ * L / 2 / (m * gm_l)) * 180 / kPi, gm_t, gm_l};
  }

  // A boat is built to float level: its centre of mass lies above the centre of buoyancy of its
  // level-trim waterline. Found on still water: bisection on the draft for the weight, then the
  // buoyancy's moment gives the centre of buoyancy's x. Height: the hull's centroid (uniform solid).
  Eigen::Vector3d level_trim_centre_of_mass() const {
    const double flat[4] = {1, 1, 1, 1}, still[4] = {0, 0, 0, 0};
    const coupling::FloatWater w{2, 2, 1e9, flat, still, still};
    auto loads = [&](double z) {
      bodies::FloatBodyState st;
      st.position = {1e9, 1e9, z};
      st.orientation = Eigen::Quaterniond::Identity();
      st.velocity.setZero();
      st.angular_velocity.setZero();
      return coupling::float_body_loads(hull_, st, w, case_.coupling.forces, nullptr);
    };
    double deep = 1 - spec_.depth, dry = 1.0;
    for (int it = 0; it < 80; ++it) {
      const double m = 0.5 * (deep + dry);
      (loads(m).force.z() > boat_mass_ * case_.water.g ? deep : dry) = m;
    }
    const coupling::FloatLoads l = loads(0.5 * (deep + dry));
    return {-l.torque.y() / l.force.z(), 0.0, bodies::mass_properties(hull_).centroid.z()};
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
    system_ = coupling::make_float_system(opt_.backend, p, {s}, case_.coupling);
    const Position& q = kPositions[run];
    coupling::FloatExternalLoad w;
    w.body = 0;
    w.force = {0, 0, -load_ * p.g};  // the 90 kg weight, world frame, on the deck
    // Offsets from the boat's centre of mass (above its centre of flotation): "centre" balances it.
    w.point = {com_.x() + q.fx * frac_ * spec_.length / 2, q.fy * frac_ * spec_.beam / 2, spec_.depth};
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
