// channel: the patent's channel flow with physical boundaries, run to steady state and compared with
// the analytic plane Poiseuille profile.
#include <fmt/format.h>

#include <cmath>

#include "penalty_simulation.hpp"

namespace immerse::cases {
namespace {

class Channel final : public PenaltySimulation {
 public:
  using PenaltySimulation::PenaltySimulation;

  json metrics() override {
    json m = PenaltySimulation::metrics();
    const mac2d::HostFields f = flow_->fields(), prev = flow_->fields(/*previous_level=*/true);
    const double H = f.ny * f.dy;
    // Outlet face (x = L) and the flux through it.
    double Q = 0;
    for (int j = 1; j <= f.ny; ++j) Q += f.u[f.at(f.nx, j)] * f.dy;
    // Plane Poiseuille flow carrying the same flux: u(y) = 6 Q y (H - y) / H^3.
    json profile = json::array();
    double dev = 0, umax = 0;
    for (int j = 1; j <= f.ny; ++j) {
      const double y = (j - 0.5) * f.dy, u = f.u[f.at(f.nx, j)], up = 6 * Q * y * (H - y) / (H * H * H);
      profile.push_back({{"y", y}, {"u", u}, {"u_poiseuille", up}});
      dev = std::max(dev, std::abs(u - up));
      umax = std::max(umax, up);
    }
    // Steadiness: the largest change of any face velocity over the last step, per unit time,
    // relative to the peak speed and the viscous time H^2 Re (the slowest decay of the transient).
    double change = 0;
    for (size_t k = 0; k < f.u.size(); ++k)
      change = std::max({change, std::abs(f.u[k] - prev.u[k]), std::abs(f.v[k] - prev.v[k])});
    const double viscous_time = H * H * params_.Re;
    m["outlet_profile"] = profile;
    m["outlet_flux"] = Q;
    m["outlet_peak_poiseuille"] = umax;
    m["outlet_max_deviation_rel"] = dev / umax;
    m["steady_residual"] = change / params_.dt * viscous_time / umax;
    // The penalty closure's flux deficit predicted from the analytic Poiseuille pressure drop
    // (docs/patent.md, "The channel's flux deficit"): lubrication flow, Q' = -eps H p and
    // p' = -12 Q / (Re H^3), with Q(0) = Q_in and p = 0 at the ghost centre x = L + dx/2, gives
    // Q(L) / Q_in = cosh(lambda dx/2) / cosh(lambda (L + dx/2)), lambda^2 = 12 eps / (Re H^2).
    const double L = f.nx * f.dx, Lp = L + 0.5 * f.dx, lambda = std::sqrt(12 * params_.eps / params_.Re) / H;
    m["flux_deficit"] = 1 - m["flux_ratio_out_in"].get<double>();
    m["flux_deficit_poiseuille"] = 1 - std::cosh(lambda * (Lp - L)) / std::cosh(lambda * Lp);
    m["grid_h_over_H"] = f.dy / H;
    m["channel_height"] = H;
    return m;
  }

  std::vector<Check> checks(const json& m) const override {
    std::vector<Check> out = PenaltySimulation::checks(m);
    const double h = m["grid_h_over_H"];
    // The no-slip ghost u_0 = -u_1 makes the discrete steady profile the parabola plus a constant
    // (dy/H)^2 U: second order. Twice that bounds the deviation at any resolution.
    out.push_back(
        {"outlet profile max |u - u_Poiseuille| / U", m["outlet_max_deviation_rel"], 0.0, 2 * h * h,
         "analytic plane Poiseuille profile with the outlet's flux; tol 2 (dy/H)^2 (second-order wall treatment)",
         CheckKind::prediction});
    // The pressure drop the walls' friction needs, seen through the closure: tests the drop's size
    // (viscosity, no-slip) and eps together. The discrete no-slip profile carries (1 + 2 (dy/H)^2)
    // times the continuum flux at a given gradient (docs/patent.md); twice that, relative.
    const double deficit = m["flux_deficit_poiseuille"];
    out.push_back(
        {"flux deficit 1 - out/in", m["flux_deficit"], deficit, 4 * h * h * deficit,
         "penalty closure div u = -eps p with the analytic Poiseuille pressure (dp/dx = -12 Q / (Re H^3), p = 0 "
         "beyond the outlet); tol 4 (dy/H)^2 relative, twice the discrete profile's flux excess 2 (dy/H)^2; "
         "measured 1.0% at dy/H = 1/16, 3.2% at 1/8",
         CheckKind::prediction});
    // Transient modes decay as exp(-pi^2 t / (H^2 Re)); at steady state the scaled rate is ~0.
    out.push_back({"steady residual |du/dt| H^2 Re / U", m["steady_residual"], 0.0, 1e-2,
                   "steady state: transients decayed below 1% per viscous time", CheckKind::consistency});
    return out;
  }
};

}  // namespace

std::unique_ptr<Simulation> make_channel(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<Channel>(r, source, opt);
}

}  // namespace immerse::cases
