// river: the patent's scene of internal boundaries (posts, an island, a moving boat) with the display
// quantities it describes: height field from pressure, streaklines and two blended dyes.
#include <fmt/format.h>

#include <cmath>

#include "immerse/core/expression.hpp"
#include "penalty_simulation.hpp"

namespace immerse::cases {
namespace {

class River final : public PenaltySimulation {
 public:
  using PenaltySimulation::PenaltySimulation;

  json metrics() override {
    json m = PenaltySimulation::metrics();
    const mac2d::HostFields f = flow_->fields();
    // Faces touching a solid cell must carry the obstacle's velocity: the largest departure.
    double wall_error = 0, hmin = 1e300, hmax = -1e300, dyed = 0;
    for (int j = 1; j <= f.ny; ++j)
      for (int i = 1; i <= f.nx; ++i) {
        const size_t c = f.at(i, j);
        hmin = std::min(hmin, f.p[c] * height_scale_);
        hmax = std::max(hmax, f.p[c] * height_scale_);
        if (!f.dyes.empty() && (f.dyes[0][c] > 0.1 || (f.dyes.size() > 1 && f.dyes[1][c] > 0.1))) dyed += 1;
        if (f.solid[c] && f.solid[f.at(i + 1, j)] && i < f.nx)
          wall_error = std::max(wall_error, std::abs(f.u[c] - solid_u(i, j)));
      }
    const auto s = flow_->streaklines();
    m["height_min"] = hmin;
    m["height_max"] = hmax;
    m["dyed_fraction"] = dyed / (f.nx * f.ny);
    m["streak_particles"] = s.position.size();
    m["obstacle_face_error"] = wall_error;
    m["solid_cells"] = std::count(f.solid.begin(), f.solid.end(), 1);
    return m;
  }

  std::vector<Check> checks(const json& m) const override {
    std::vector<Check> out = PenaltySimulation::checks(m);
    out.push_back({"faces inside obstacles - obstacle velocity", m["obstacle_face_error"], 0.0, 1e-12,
                   "internal boundary condition (patent FIG. 2 calcIntBoundary): solid faces move with the body; "
                   "reads the imposed condition back",
                   CheckKind::consistency});
    return out;
  }

 private:
  // The velocity the obstacle covering cell (i, j) prescribes, recomputed from the case's path formulas.
  double solid_u(int i, int j) const {
    const double x = (i - 0.5) * params_.dx, y = (j - 0.5) * params_.dy, t = flow_->time(), dt = params_.dt;
    double u = 0;
    for (size_t k = 0; k < params_.obstacles.size(); ++k) {
      const auto& o = params_.obstacles[k];
      Expression ox(o.x, "obstacle x"), oy(o.y, "obstacle y");
      const double cx = ox(0, 0, 0, t), cy = oy(0, 0, 0, t), th = o.angle_deg * M_PI / 180;
      const double lx = std::cos(th) * (x - cx) + std::sin(th) * (y - cy),
                   ly = -std::sin(th) * (x - cx) + std::cos(th) * (y - cy);
      const double b = o.shape == mac2d::ObstacleShape::circle ? o.a : o.b;
      const bool in = o.shape == mac2d::ObstacleShape::rectangle ? (std::abs(lx) <= o.a && std::abs(ly) <= b)
                                                                 : (lx * lx / (o.a * o.a) + ly * ly / (b * b) <= 1);
      if (in)
        u = (ox(0, 0, 0, t + 0.5 * dt) - ox(0, 0, 0, std::max(0.0, t - 0.5 * dt))) /
            (t + 0.5 * dt - std::max(0.0, t - 0.5 * dt));
    }
    return u;
  }
};

}  // namespace

std::unique_ptr<Simulation> make_river(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<River>(r, source, opt);
}

}  // namespace immerse::cases
