// dam_break: the shallow-water lattice alone on a dam break, against its exact solution (not an
// experiment of the paper: a check of its water model where the exact answer is known). The
// initial state must be one step of still water, h_l left of x0 and h_r < h_l right of it, on
// every row; the reference is Stoker's solution of that step (rarefaction, middle state, bore),
// computed by the exact Riemann solver of the up-front checks (swlbm/stability.hpp).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "float_simulation.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/swlbm/stability.hpp"

namespace immerse::cases {
namespace {

class DamBreak final : public FloatSimulation {
 public:
  DamBreak(const json& r, const std::string& source, const RunOptions& opt) : FloatSimulation(r, source, opt) {
    const swlbm::HostFields f = system_->water().fields();
    hl_ = f.h[f.at(0, 0)];
    hr_ = f.h[f.at(f.nx - 1, 0)];
    if (!(hr_ < hl_) || !(hr_ > 0))
      throw InputError(
          fmt::format("{}: key 'initial.h': the dam_break scene needs the deeper water on the left, "
                      "h_l > h_r > 0; got h_l = {:g} m, h_r = {:g} m",
                      source, hl_, hr_));
    for (int i = 1; i < f.nx; ++i)
      if (f.h[f.at(i, 0)] != f.h[f.at(i - 1, 0)]) {
        x0_ = i * f.dx;
        break;
      }
    for (int j = 0; j < f.ny; ++j)
      for (int i = 0; i < f.nx; ++i) {
        const size_t c = f.at(i, j);
        const double want = (i + 0.5) * f.dx < x0_ ? hl_ : hr_;
        if (f.h[c] != want || f.u[c] != 0 || f.v[c] != 0)
          throw InputError(fmt::format(
              "{}: keys 'initial.h'/'initial.u'/'initial.v': the dam_break scene needs still water in one step, "
              "the same on every row; cell ({}, {}) has h = {:g} m, u = {:g}, v = {:g} m/s",
              source, i, j, f.h[c], f.u[c], f.v[c]));
      }
    exact_ = swlbm::sw_riemann({hl_, 0}, {hr_, 0}, case_.water.g);
  }

  json metrics() override {
    json m = FloatSimulation::metrics();
    const swlbm::HostFields f = system_->water().fields();
    const double g = case_.water.g, L = f.nx * f.dx;
    const double t = fields_time();
    const double bore = swlbm::sw_dam_break_bore_speed(hr_, exact_), cm = std::sqrt(g * exact_.h);
    double error = 0, bore_x = 0;
    const double mid = 0.5 * (exact_.h + hr_);
    for (int i = 0; i < f.nx; ++i) {
      const double x = (i + 0.5) * f.dx, h = f.h[f.at(i, 0)];
      error += std::abs(h - swlbm::sw_dam_break_at(hl_, hr_, exact_, g, (x - x0_) / t).h) * f.dx / L;
      if (i > 0 && f.h[f.at(i - 1, 0)] >= mid && h < mid) bore_x = x;
    }
    // The plateau halfway between the fan's tail and the bore; the dam site is the face at x0.
    const int i_mid = static_cast<int>((x0_ + 0.5 * (exact_.u - cm + bore) * t) / f.dx);
    const int i_dam = static_cast<int>(std::lround(x0_ / f.dx));
    m["dam_break"] = {{"h_left_m", hl_},
                      {"h_right_m", hr_},
                      {"x0_m", x0_},
                      {"t_s", t},
                      {"transcritical", exact_.transcritical},
                      {"middle_froude", exact_.u / cm},
                      {"mean_abs_error_m", error},
                      {"plateau_depth_m", f.h[f.at(i_mid, 0)]},
                      {"exact_plateau_depth_m", exact_.h},
                      {"plateau_velocity_m_s", f.u[f.at(i_mid, 0)]},
                      {"exact_plateau_velocity_m_s", exact_.u},
                      {"bore_position_m", bore_x},
                      {"exact_bore_position_m", x0_ + bore * t},
                      {"dam_site_depth_m", 0.5 * (f.h[f.at(i_dam - 1, 0)] + f.h[f.at(i_dam, 0)])},
                      {"exact_dam_site_depth_m", swlbm::sw_dam_break_at(hl_, hr_, exact_, g, 0.0).h}};
    return m;
  }

  // The water's tolerances, and the dam break's figures: devices contract multiply-adds the host
  // rounds separately (last bits of every cell), which the smooth flow does not amplify.
  json compare_tolerances() const override {
    json t = FloatSimulation::compare_tolerances();
    t["dam_break"] = {{"rel", 1e-6},
                      {"abs", 1e-9},
                      {"why",
                       "round-off of the lattice arithmetic (fused multiply-adds on devices); a smooth, "
                       "non-chaotic flow"}};
    return t;
  }

  // final_water.csv, and the first row beside the exact solution: dam_break_profile.csv.
  void write_final(const std::string& dir) override {
    FloatSimulation::write_final(dir);
    const swlbm::HostFields f = system_->water().fields();
    if (world().rank() != 0) return;
    const double t = fields_time();
    CsvWriter out(
        (std::filesystem::path(dir) / "dam_break_profile.csv").string(), {"x", "h", "h_exact", "u", "u_exact"},
        fmt::format("row 0 at t = {:g} s against the exact solution of the dam break at x0 = {:g} m", t, x0_));
    for (int i = 0; i < f.nx; ++i) {
      const double x = (i + 0.5) * f.dx;
      const swlbm::SwState e = swlbm::sw_dam_break_at(hl_, hr_, exact_, case_.water.g, (x - x0_) / t);
      out.row({x, f.h[f.at(i, 0)], e.h, f.u[f.at(i, 0)], e.u});
    }
  }

  std::vector<Check> checks(const json& m) const override {
    std::vector<Check> out = FloatSimulation::checks(m);
    const json& d = m["dam_break"];
    const double dx = case_.water.dx, L = case_.water.nx * dx;
    const bool half = case_.water.storage == swlbm::Storage::fp16s,
               fp16c = case_.water.storage == swlbm::Storage::fp16c;
    const std::string exact = "exact solution (Stoker 1957; Toro's Riemann solver)";
    // Tolerances: measured at 400 cells, v = 20 m/s, tau 0.6 for h_r = 0.1 and 0.02 m (fp64; fp32
    // within 1e-5), tests/swlbm/test_sw_dambreak.cpp.
    out.push_back({"mean |h - exact| (m)", d["mean_abs_error_m"], 0.0, 4 * dx * (hl_ - hr_) / L,
                   exact + ": the bore and the fan's head and tail each smear over a few cells; tol 4 cells of the "
                           "jump over the domain (measured 0.0053, 0.0066 m)",
                   CheckKind::prediction});
    out.push_back({"plateau depth (m)", d["plateau_depth_m"], d["exact_plateau_depth_m"],
                   (fp16c  ? 0.025
                    : half ? 0.012
                           : 0.003) *
                       exact_.h,
                   exact + (fp16c  ? ": tol 2.5% (FP16C rounding; measured 0.37, 1.77%)"
                            : half ? ": tol 1.2% (binary16 rounding; measured 0.67, 0.98%)"
                                   : ": tol 0.3% (measured 0.11, 0.04%)"),
                   CheckKind::prediction});
    out.push_back({"plateau velocity (m/s)", d["plateau_velocity_m_s"], d["exact_plateau_velocity_m_s"],
                   (fp16c  ? 0.03
                    : half ? 0.02
                           : 0.01) *
                       exact_.u,
                   exact + (fp16c  ? ": tol 3% (FP16C rounding; measured 0.34, 2.62%)"
                            : half ? ": tol 2% (binary16 rounding; measured 0.36, 1.55%)"
                                   : ": tol 1% (measured 0.36, 0.74%)"),
                   CheckKind::prediction});
    out.push_back({"bore position (m)", d["bore_position_m"], d["exact_bore_position_m"], 4 * dx,
                   exact + ": tol 4 cells (measured 0.5, 3.4 cells behind)", CheckKind::prediction});
    out.push_back({"depth at the dam site (m)", d["dam_site_depth_m"], d["exact_dam_site_depth_m"],
                   0.05 * d["exact_dam_site_depth_m"].get<double>(),
                   exact + ": the critical depth 4/9 h_l where the fan is transonic; the viscous fan lags the "
                           "inviscid one by O(nu): tol 5% (measured 4.2, 2.1%)",
                   CheckKind::prediction});
    return out;
  }

 private:
  // The time of the water fields: those the last step started from, one step before time().
  double fields_time() const { return time() - case_.water.dt; }

  double hl_ = 0, hr_ = 0, x0_ = 0;
  swlbm::SwRiemann exact_;
};

}  // namespace

std::unique_ptr<Simulation> make_dam_break(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<DamBreak>(r, source, opt);
}

}  // namespace immerse::cases
