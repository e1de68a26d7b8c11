// motorboat: full two-way interaction (sec. 3.3, Fig. 12): a 16.5 t motorboat, 12.7 x 2.4 x 3.85 m
// (456 triangles; paper 460), driven by a propeller thrust on a 200 x 200 water grid, then turned
// by a rudder force. Metrics: speed, the wake's half-angle behind the boat (measured on the depth
// field just before the turn), the heading change of the turn, and the two wake arms before, during
// and after the turn; VTK frames show the curved wake.
// The shallow-water equations have no dispersion: a boat faster than sqrt(g h) trails a Mach wedge
// of half-angle asin(sqrt(g h) / U), the reference the straight run's wake is checked against. On
// any path the disturbed water is the union of the circles of radius sqrt(g h) (t - tau) about the
// boat's positions at every earlier tau (Huygens): its edge is the reference of the curved wake.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "float_simulation.hpp"
#include "immerse/bodies/float_shapes.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {
namespace {
constexpr int kArmFields = 6;
constexpr int kOutline = 5;
constexpr double kBuoyMoved = 0.01;  // m: a buoy has moved

class Motorboat final : public FloatSimulation {
 public:
  Motorboat(const json& r, const std::string& source, const RunOptions& opt)
      : FloatSimulation(with_boat(r), source, opt) {
    const auto& m = r["motorboat"];
    thrust_ = m["thrust_N"];
    turn_at_ = m["turn_at_s"];
    rudder_ = m["rudder_N"];
    length_ = bodies::float_motorboat_spec().length;
    coupling::FloatExternalLoad t;
    t.body = 0;
    t.body_frame = true;
    t.force = {thrust_, 0, 0};
    t.point = {-0.45 * length_, 0, 0.5};  // the propeller: near the stern, low
    system_->external_loads() = {t};
  }

  void step() override {
    FloatSimulation::step();
    const double t = time();
    const auto st = system_->body_state(0);
    // The buoys (every body after the boat, Fig. 1): when each first moves 1 cm from where it started.
    for (int b = 1; b < system_->body_count(); ++b) {
      if (buoy_start_.size() < static_cast<size_t>(b)) {
        buoy_start_.push_back(system_->body_state(b).position);
        buoy_moved_.push_back(-1);
      }
      if (buoy_moved_[b - 1] < 0 && (system_->body_state(b).position - buoy_start_[b - 1]).norm() > kBuoyMoved)
        buoy_moved_[b - 1] = t;
    }
    path_.push_back(t);
    for (const auto& x : hull_outline()) {
      const Eigen::Vector3d w = st.position + st.rotation() * Eigen::Vector3d(x.x(), x.y(), 0);
      path_.insert(path_.end(), {w.x(), w.y()});
    }
    if (turned_ && arms_.size() == 1 && t >= 0.5 * (turn_at_ + end_time())) arms_.push_back(arms(scan_edges()));
    if (!turned_ && t >= turn_at_) {
      // Just before the rudder goes over: speed, heading and the wake of the straight run.
      const WakeEdges edges = scan_edges();
      measure_wake(edges);
      arms_.push_back(arms(edges));
      heading0_ = unwrapped_;
      system_->external_loads().push_back(rudder_load());
      turned_ = true;
    }
    if (t > turn_at_ - 2 && t < turn_at_) speed_sum_ += st.velocity.head<2>().norm(), ++speed_n_;
    // Unwrapped heading: the turn may pass +-180 deg.
    const double hd = heading(st);
    double dh = hd - last_heading_;
    while (dh > 180) dh -= 360;
    while (dh < -180) dh += 360;
    unwrapped_ += have_heading_ ? dh : 0.0;
    last_heading_ = hd;
    have_heading_ = true;
  }

  // The boat is one body, so it checkpoints (FloatSimulation); the scene adds its turn and wake.
  void archive(StateArchive& a) override {
    FloatSimulation::archive(a);
    for (auto* v : {&heading0_, &wake_deg_, &speed_sum_, &unwrapped_, &last_heading_}) a.value("motorboat.value", *v);
    a.value("motorboat.have_heading", have_heading_);
    a.value("motorboat.speed_n", speed_n_);
    a.value("motorboat.turned", turned_);
    std::vector<double> wake;
    for (const auto& w : wake_samples_)
      for (const auto& x : w) wake.push_back(x.get<double>());
    a.vector("motorboat.wake_samples", wake);
    a.vector("motorboat.path", path_);
    std::vector<double> arms;
    for (const auto& r : arms_) arms.insert(arms.end(), r.begin(), r.end());
    a.vector("motorboat.arms", arms);
    if (a.loading()) {
      arms_.clear();
      for (size_t k = 0; k + kArmFields <= arms.size(); k += kArmFields) {
        arms_.emplace_back();
        std::copy(arms.begin() + k, arms.begin() + k + kArmFields, arms_.back().begin());
      }
    }
    if (!a.loading()) return;
    wake_samples_ = json::array();
    for (size_t k = 0; k + 2 < wake.size(); k += 3) wake_samples_.push_back({wake[k], wake[k + 1], wake[k + 2]});
    if (turned_) system_->external_loads().push_back(rudder_load());
  }

  json metrics() override {
    json m = FloatSimulation::metrics();
    const auto st = system_->body_state(0);
    const double U = speed_n_ ? speed_sum_ / speed_n_ : st.velocity.head<2>().norm();
    const double c = std::sqrt(case_.water.g * still_level_);
    m["speed_m_s"] = U;
    m["depth_froude"] = U / c;
    m["wake_half_angle_deg"] = wake_deg_;
    m["mach_half_angle_deg"] = U > c ? std::asin(c / U) * 180 / M_PI : 90.0;
    m["turn_heading_change_deg"] = turned_ ? unwrapped_ - heading0_ : 0.0;
    m["wake_samples"] = wake_samples_;
    // The arms before the rudder, halfway through the turn and at the end.
    if (turned_ && arms_.size() == 2) arms_.push_back(arms(scan_edges()));
    const char* when[3] = {"before_turn", "during_turn", "after_turn"};
    for (size_t k = 0; k < arms_.size() && k < 3; ++k) {
      const auto& r = arms_[k];
      m["wake_arms"][when[k]] = {{"t", r[0]},
                                 {"port_deg", r[1]},
                                 {"starboard_deg", r[2]},
                                 {"huygens_port_deg", r[3]},
                                 {"huygens_starboard_deg", r[4]},
                                 {"edge_rms_m", r[5]}};
    }
    // Halfway through the turn: how much wider the inner (port) arm opens than the outer one.
    const bool during = arms_.size() >= 2;
    m["wake_arm_asymmetry_deg"] = during ? arms_[1][1] - arms_[1][2] : 0.0;
    m["huygens_arm_asymmetry_deg"] = during ? arms_[1][3] - arms_[1][4] : 0.0;
    if (!buoy_moved_.empty()) {
      // Each buoy's first motion and the time the boat's disturbance reaches its hull by the Huygens
      // envelope (the earliest tau + (|x - outline(tau)| - r) / sqrt(g h) over the path). The boat's
      // bow wave is a bore, faster than sqrt(g h), so the buoys move earlier than the envelope says;
      // the wedge moves with the boat, so the intervals between buoys do not depend on that speed:
      // they are what is checked.
      const double c = std::sqrt(case_.water.g * still_level_);
      json buoys = json::array();
      std::vector<std::pair<double, double>> reached;  // (moved, predicted) of buoys both reached
      for (size_t k = 0; k < buoy_moved_.size(); ++k) {
        const int b = static_cast<int>(k) + 1;
        const double r = 0.5 * system_->body(b).local.bounds().sizes().x();
        const double predicted = arrival_time(buoy_start_[k].head<2>(), r, c);
        buoys.push_back({{"moved_s", buoy_moved_[k]}, {"huygens_arrival_s", predicted}});
        if (buoy_moved_[k] >= 0 && predicted < time()) reached.emplace_back(buoy_moved_[k], predicted);
      }
      double interval = 0, lead = 0;
      for (size_t k = 0; k < reached.size(); ++k) {
        lead += (reached[k].second - reached[k].first) / static_cast<double>(reached.size());
        if (k > 0)
          interval +=
              std::abs((reached[k].first - reached[k - 1].first) - (reached[k].second - reached[k - 1].second)) /
              static_cast<double>(reached.size() - 1);
      }
      m["buoys"] = buoys;
      m["buoys_reached"] = reached.size();
      m["buoy_interval_error_s"] = reached.size() >= 2 ? interval : time();  // none: fails
      m["buoy_lead_s"] = lead;  // how much earlier than the envelope the buoys moved, mean
    }
    return m;
  }

  std::vector<Check> checks(const json& m) const override {
    std::vector<Check> out;
    // A buoy's first motion is read to a step (dt), so an interval between two of them to two steps.
    if (m.contains("buoy_interval_error_s"))
      out.push_back({"buoys: intervals between first motions against the wave's, mean |difference| (s)",
                     m["buoy_interval_error_s"], 0.0, 2 * case_.water.dt,
                     "shallow water: the Huygens envelope of the hull's path (circles of radius sqrt(g h) (t - tau)) "
                     "sweeps the buoy line with the boat; tol two steps (each first motion is read to a step)",
                     CheckKind::prediction});
    if (!turned_) return out;
    // The wedge edge is smeared over a few cells by the lattice viscosity and the hull is 12.7 m
    // long on a 1 m grid: the measured half-angle within 6 deg of the Mach angle.
    out.push_back({"wake half-angle (deg)", m["wake_half_angle_deg"], m["mach_half_angle_deg"], 6.0,
                   "shallow water: Mach wedge asin(sqrt(g h) / U) of a supercritical boat; tol 6 deg (smeared edge)",
                   CheckKind::prediction});
    // The curved wake halfway through the turn: the inner arm opens, the outer closes. The measured
    // edge (10% of the largest deviation) and the envelope of the hull outline's path differ by a
    // few degrees per arm before and during the turn (as the straight wedge does): tol 6 deg.
    out.push_back(
        {"port - starboard wake arm half-angle halfway through the turn (deg)", m["wake_arm_asymmetry_deg"],
         m["huygens_arm_asymmetry_deg"], 6.0,
         "shallow water: the disturbed water is the union of circles of radius sqrt(g h) (t - tau) about the "
         "hull outline's earlier positions (Huygens), its arms measured the same way; tol 6 deg (smeared edge)",
         CheckKind::prediction});
    // The rudder turns the boat to port (positive yaw).
    out.push_back({"heading change after the turn > 0 (1 = yes)",
                   m["turn_heading_change_deg"].get<double>() > 10 ? 1.0 : 0.0, 1.0, 0.0,
                   "a rudder force to starboard at the stern turns the bow to port", CheckKind::prediction});
    return out;
  }

  json compare_tolerances() const override {
    json t = FloatSimulation::compare_tolerances();
    const char* why = "Bullet's single precision and the water's round-off move the boat by millimetres";
    for (const char* k :
         {"speed_m_s", "depth_froude", "wake_half_angle_deg", "mach_half_angle_deg", "turn_heading_change_deg"})
      t[k] = {{"rel", 0.02}, {"abs", 0.5}, {"why", why}};
    // The wake edge's positions are read on the 1 m grid: one cell.
    t["wake_samples"] = {{"rel", 0.0}, {"abs", 1.0}, {"why", "wake edge positions on the 1 m grid: one cell"}};
    // The arms are slopes through edge positions read on the 1 m grid, the Huygens ones through the
    // boat's path: a one-cell move of one edge sample tilts an arm by about a degree.
    for (const char* k : {"port_deg", "starboard_deg", "huygens_port_deg", "huygens_starboard_deg",
                          "wake_arm_asymmetry_deg", "huygens_arm_asymmetry_deg"})
      t[k] = {{"rel", 0.0}, {"abs", 2.0}, {"why", "arm slopes through edge positions on the 1 m grid"}};
    t["edge_rms_m"] = {{"rel", 0.0}, {"abs", 1.0}, {"why", "wake edge positions on the 1 m grid: one cell"}};
    // A buoy's first motion is read to a step; the envelope's arrival follows the boat's path.
    for (const char* k : {"moved_s", "buoy_interval_error_s", "buoy_lead_s"})
      t[k] = {{"rel", 0.0}, {"abs", 2 * case_.water.dt}, {"why", "first motions read to a step: two steps"}};
    t["huygens_arrival_s"] = {{"rel", 0.0}, {"abs", 0.01}, {"why", "the boat's path, millimetres apart: 0.01 s"}};
    return t;
  }

 private:
  static json with_boat(json r) {
    // The boat: the paper's motorboat at its level-trim draft, heading +x from the left third.
    if (r["bodies"].empty()) throw InputError("motorboat: the case needs its boat in 'bodies'");
    return r;
  }

  coupling::FloatExternalLoad rudder_load() const {
    coupling::FloatExternalLoad r;
    r.body = 0;
    r.body_frame = true;
    r.force = {0, -rudder_, 0};  // stern pushed to starboard: the bow swings to port for rudder_ > 0
    r.point = {-0.45 * length_, 0, 0.5};
    return r;
  }

  static double heading(const bodies::FloatBodyState& st) {
    const Eigen::Vector3d d = st.rotation().col(0);
    return std::atan2(d.y(), d.x()) * 180 / M_PI;
  }

  // The smallest f(tau, x, y) over the hull outline's recorded path (every step, every outline point).
  template <class F>
  double min_over_path(F f) const {
    double out = 1e300;
    constexpr size_t row = 1 + 2 * kOutline;
    for (size_t k = 0; k + row <= path_.size(); k += row)
      for (int o = 0; o < kOutline; ++o) out = std::min(out, f(path_[k], path_[k + 1 + 2 * o], path_[k + 2 + 2 * o]));
    return out;
  }

  // When the envelope of circles of radius c (t - tau) about the hull outline's path first reaches
  // a disc of radius r at x (the run's end if it never does).
  double arrival_time(const Eigen::Vector2d& x, double r, double c) const {
    return std::min(time(), min_over_path([&](double tau, double px, double py) {
                      return tau + std::max(0.0, std::hypot(x.x() - px, x.y() - py) - r) / c;
                    }));
  }

  double end_time() const { return static_cast<double>(steps_) * case_.water.dt; }

  // The hull's waterline outline points that send out the disturbance (body frame, m): the stem, the
  // shoulders where the bow taper ends, the transom corners.
  std::array<Eigen::Vector2d, kOutline> hull_outline() const {
    const auto& h = bodies::float_motorboat_spec();
    const double x = 0.5 * h.length, b = 0.5 * h.beam, xs = x - h.bow_fraction * h.length;
    return {Eigen::Vector2d(x, 0), Eigen::Vector2d(xs, b), Eigen::Vector2d(xs, -b),
            Eigen::Vector2d(-x, h.stern_width * b), Eigen::Vector2d(-x, -h.stern_width * b)};
  }

  // Distance of water point q outside the disturbed region at time t (<= 0: inside): the smallest
  // |q - x(tau)| - c (t - tau) over the recorded outline points.
  double outside_envelope(const Eigen::Vector2d& q, double t, double c) const {
    return min_over_path(
        [&](double tau, double px, double py) { return std::hypot(q.x() - px, q.y() - py) - c * (t - tau); });
  }

  // The wake's edges now, behind the boat along its current heading: at each distance s, per side
  // (0: port, +e; 1: starboard), the outermost lateral offset where the surface still deviates from
  // the still level by 10% of the largest deviation, and the outermost offset inside the Huygens
  // envelope of the hull's path.
  struct WakeEdges {
    std::vector<double> s, side[2], envelope[2];
  };
  WakeEdges scan_edges() const {
    const swlbm::HostFields f = system_->water().fields();
    const coupling::FloatWater w{f.nx, f.ny, f.dx, f.h.data(), f.u.data(), f.v.data()};
    const auto st = system_->body_state(0);
    const Eigen::Vector2d d = st.rotation().col(0).head<2>().normalized(), e(-d.y(), d.x());
    const Eigen::Vector2d P = st.position.head<2>();
    const double t = time(), c = std::sqrt(case_.water.g * still_level_);
    double peak = 0;
    for (double s = 0; s < 80; s += 1)
      for (double eta = -60; eta <= 60; eta += 0.5) {
        const Eigen::Vector2d q = P - s * d + eta * e;
        peak = std::max(peak, std::abs(w.depth(q.x(), q.y()) - still_level_));
      }
    const double threshold = 0.1 * peak;
    const double travelled = std::max(0.0, (P - start_).norm());
    WakeEdges out;
    for (double s = length_; s < std::min(60.0, 0.8 * travelled); s += 2) {
      out.s.push_back(s);
      for (int k = 0; k < 2; ++k) {
        double edge = 0, predicted = 0;
        for (double eta = 0; eta <= 60; eta += 0.5) {
          const Eigen::Vector2d q = P - s * d + (k ? -eta : eta) * e;
          if (q.x() < 0 || q.y() < 0 || q.x() > f.nx * f.dx || q.y() > f.ny * f.dx) break;
          if (std::abs(w.depth(q.x(), q.y()) - still_level_) > threshold) edge = eta;
          if (outside_envelope(q, t, c) <= 0) predicted = eta;
        }
        out.side[k].push_back(edge);
        out.envelope[k].push_back(predicted);
      }
    }
    return out;
  }

  // Half-angle (deg) of the least-squares line of offsets y against the distance s behind the boat.
  static double slope_deg(const std::vector<double>& s, const std::vector<double>& y) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      sx += s[i];
      sy += y[i];
      sxx += s[i] * s[i];
      sxy += s[i] * y[i];
    }
    const double n = static_cast<double>(s.size());
    return n > 1 ? std::atan((n * sxy - sx * sy) / (n * sxx - sx * sx)) * 180 / M_PI : 0.0;
  }

  // Both arms of the edges e: measured and by the envelope, and the rms distance between their edges.
  std::array<double, kArmFields> arms(const WakeEdges& e) const {
    double sq = 0;
    for (size_t i = 0; i < e.s.size(); ++i)
      for (int k = 0; k < 2; ++k) sq += (e.side[k][i] - e.envelope[k][i]) * (e.side[k][i] - e.envelope[k][i]);
    const size_t n = 2 * e.s.size();
    return {time(),
            slope_deg(e.s, e.side[0]),
            slope_deg(e.s, e.side[1]),
            slope_deg(e.s, e.envelope[0]),
            slope_deg(e.s, e.envelope[1]),
            n > 0 ? std::sqrt(sq / static_cast<double>(n)) : 0.0};
  }

  // The straight run's wedge from the edges e: their samples and the half-angle of both sides' mean.
  void measure_wake(const WakeEdges& e) {
    std::vector<double> mean;
    for (size_t i = 0; i < e.s.size(); ++i) {
      mean.push_back(0.5 * (e.side[0][i] + e.side[1][i]));
      wake_samples_.push_back({e.s[i], e.side[0][i], e.side[1][i]});
    }
    wake_deg_ = slope_deg(e.s, mean);
  }

  double thrust_ = 0, turn_at_ = 0, rudder_ = 0, length_ = 12.7, heading0_ = 0, wake_deg_ = 0;
  double speed_sum_ = 0, unwrapped_ = 0, last_heading_ = 0;
  bool have_heading_ = false;
  long speed_n_ = 0;
  bool turned_ = false;
  Eigen::Vector2d start_ = Eigen::Vector2d::Zero();
  json wake_samples_ = json::array();
  std::vector<double> path_;                 // t and the outline's x, y (hull_outline) after every step
  std::vector<Eigen::Vector3d> buoy_start_;  // bodies 1.. (the buoys): start positions
  std::vector<double> buoy_moved_;           // time each first moved kBuoyMoved, -1: not yet
  // t, port and starboard half-angles measured and by the Huygens envelope (deg), edge rms (m)
  std::vector<std::array<double, kArmFields>> arms_;

 public:
  void set_start(const Eigen::Vector2d& s) { start_ = s; }
};

}  // namespace

std::unique_ptr<Simulation> make_motorboat(const json& r, const std::string& source, const RunOptions& opt) {
  auto m = std::make_unique<Motorboat>(r, source, opt);
  const auto& p = r["bodies"][0]["position"];
  m->set_start({p[0].get<double>(), p[1].get<double>()});
  return m;
}

}  // namespace immerse::cases
