#pragma once
// The case runner's view of the D3Q15 solver for hand-written lattice cases (solver "lbm3d", scene
// "generic"): everything from the case file, lattice units throughout. Metrics: mass and its drift,
// kinetic energy, and, when `analysis.decay_wavelength` is set, the measured viscous decay rate of
// the kinetic energy against 2 nu k^2 (a single shear/vortex mode decays as exp(-nu k^2 t)).
#include <memory>

#include "immerse/cases/lattice_image.hpp"
#include "immerse/cases/simulation.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::cases {

class LatticeSimulation : public Simulation {
 public:
  LatticeSimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return steps_; }
  void step() override;
  void check_health() override;
  double time() const override { return static_cast<double>(flow_->steps_done()); }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  std::vector<std::string> series_columns() const override { return {"t", "mass", "kinetic_energy", "max_speed"}; }
  std::vector<double> series_row() override;
  long series_every() const override { return series_every_; }
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  std::string precision() const override { return flow_->precision(); }
  json compare_tolerances() const override;

  bool supports_checkpoint() const override { return true; }
  bool runs_on_ranks() const override { return true; }
  void archive(StateArchive& a) override {
    flow_->archive(a);
    a.value("lattice.mass0", mass0_);
    a.value("lattice.energy_warm", energy_warm_);
  }

  lbm3d::LbmFlow& flow() { return *flow_; }

 protected:
  std::unique_ptr<lbm3d::LbmFlow> flow_;
  lbm3d::LbmParams params_;
  long steps_;
  int frames_;
  long series_every_;
  double mass0_ = 0;
  double decay_wavelength_ = 0, decay_tolerance_ = 0;
  long warm_step_ = 0;  // the decay is measured from here (initial equilibrium transient excluded)
  double energy_warm_ = 0;
};

// The reusable NaN/instability report (exit 3) naming the cell, the step and what to change.
[[noreturn]] void throw_lattice_instability(const lbm3d::Health& h, const std::string& source, long step, double tau,
                                            const std::string& extra_hint);

}  // namespace immerse::cases
