#pragma once
// The case runner's view of the patent's penalty solver (solver "mac2d.penalty"): generic metrics,
// health checks, series and VTK frames. Scenes (channel5x5, channel, river) derive from it.
#include <array>
#include <memory>

#include "immerse/cases/simulation.hpp"
#include "immerse/mac2d/penalty_flow.hpp"

namespace immerse::cases {

class PenaltySimulation : public Simulation {
 public:
  PenaltySimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return steps_; }
  void step() override { flow_->step(); }
  void check_health() override;
  double time() const override { return flow_->time(); }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  // final_fields.csv (cell centres: x, y, u, v, p, height, solid, dyes, blended colour) and, with
  // streaklines, final_streaklines.csv (x, y, seed, age).
  void write_final(const std::string& dir) override;
  std::vector<std::string> series_columns() const override;
  std::vector<double> series_row() override;
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  json compare_tolerances() const override;

  bool supports_checkpoint() const override { return true; }
  void archive(StateArchive& a) override { flow_->archive(a); }

  mac2d::PenaltyFlow& flow() { return *flow_; }

 protected:
  // Mass balance of the penalty closure: p^{n+1} = -div(u^n)/eps in every interior cell, so the net
  // outflow of the previous level through the domain boundary equals -eps * sum(p^{n+1}) dA exactly
  // (divergence theorem on the discrete grid).
  struct MassBalance {
    double inflow, outflow, penalty_source;
    double residual() const { return outflow - inflow - penalty_source; }
  };
  // Whole-field numbers of the latest state (host copies taken once): series rows and metrics.
  struct Summary {
    double time, max_speed, kinetic_energy, max_abs_divergence;  // divergence over fluid cells
    MassBalance mass;
  };
  Summary summarize() const;
  // The display colour of a cell: the dyes blended over white water.
  std::array<double, 3> blended_colour(const mac2d::HostFields& f, size_t cell) const;

  std::unique_ptr<mac2d::PenaltyFlow> flow_;
  mac2d::PenaltyParams params_;
  long steps_;
  int frames_;
  double height_scale_;
};

std::unique_ptr<Simulation> make_channel5x5(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_channel(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_river(const json& r, const std::string& source, const RunOptions& opt);

}  // namespace immerse::cases
