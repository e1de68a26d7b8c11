#pragma once
// The case runner's view of the Langevin-rigid family (solver "langevin.rigid"): the precompute
// (added mass by the panel method, the k-epsilon series on the 3D MAC grid) in the constructor, then
// one RK4 Kirchhoff-Langevin step per runner step; trajectory CSV, body-mesh VTK frames, metrics and
// the per-scene checks (falling_paper, paper_airplane, rubber_ellipsoid).
#include <memory>
#include <optional>

#include "immerse/bodies/langevin_body.hpp"
#include "immerse/cases/simulation.hpp"
#include "immerse/mac3d/turbulence.hpp"
#include "langevin_params.hpp"

namespace immerse::cases::langevin {

struct TrajectorySample {
  double t;
  bodies::LangevinBodyState s;
};

class LangevinSimulation : public Simulation {
 public:
  LangevinSimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return c_.steps; }
  void step() override;
  void check_health() override;
  double time() const override { return step_ * c_.dt; }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  // trajectory.csv (t, position, quaternion, velocities; also without Langevin when compared) and
  // turbulence.csv (t, chi, eps, k of the precompute).
  void write_final(const std::string& dir) override;
  std::vector<std::string> series_columns() const override;
  std::vector<double> series_row() override;
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  json compare_tolerances() const override;
  // The turbulence series is recomputed (deterministically) on construction and the random kicks
  // are counter-based (seed, step), so the state is the bodies and their trajectories.
  bool supports_checkpoint() const override { return true; }
  void archive(StateArchive& a) override {
    a.value("langevin.step", step_);
    a.value("langevin.state", state_);
    a.value("langevin.state_without", state_without_);
    a.vector("langevin.trajectory", traj_);
    a.vector("langevin.trajectory_without", traj_without_);
    a.value("langevin.step_seconds", step_seconds_);
  }

 private:
  double tilt_deg(const bodies::LangevinBodyState& s) const;
  json trajectory_metrics(const std::vector<TrajectorySample>& traj) const;
  // Mean of alpha(t) P_z / weight over a fall up to sample `end`: 1 when the relaxation carries the weight.
  std::optional<double> momentum_balance(const std::vector<TrajectorySample>& traj, size_t end) const;
  // The fall with another seed from the same release state, to the same number of steps.
  std::vector<TrajectorySample> fall_with_seed(long seed) const;
  // Metrics of the falls with seeds seed .. seed + ensemble (the main run's included).
  json ensemble_metrics(const json& main) const;

  LangevinCase c_;
  bodies::TriMesh mesh_;  // body frame, metres, centroid at the origin
  bodies::AddedMassResult added_;
  mac3d::TurbulenceResult turb_;
  bodies::LangevinSeries series_;
  bodies::LangevinBodyParams params_, params_without_;
  bodies::LangevinBodyState state_{}, state_without_{}, initial_{};
  std::vector<TrajectorySample> traj_, traj_without_;
  long step_ = 0;
  int frames_ = 0;
  int major_axis_ = 0;
  double U0_ = 0, Re_ = 0, voxelise_ms_ = 0, step_seconds_ = 0;
  static constexpr double heading_window = 0.1;  // s, displacement window of the heading
  // A helical fall (Fig. 3): its heading turns round at least once, on a path whose radius is at
  // least this fraction of the leaf's half-length. The single-fall checks and the ensemble share it.
  static constexpr double helix_min_turns = 1.0, helix_min_radius = 0.25;
};

}  // namespace immerse::cases::langevin
