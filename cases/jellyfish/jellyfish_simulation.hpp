#pragma once
// The paper's jellyfish scenes (solver "lbm3d.jellyfish"): the D3Q15 lattice (lbm3d) with the bell
// (bodies/jelly_bell), its cell groups recomputed every step (coupling/jelly_groups), the pushed-volume
// propulsion (coupling/jelly_propulsion), and optional tracers, algae and tentacles (bodies/jelly_passive).
// One frame = one step of the fluid and the body (the paper's unit of work: its frames/s are frames of
// the animation, each one lattice update and one body update).
#include <memory>

#include "immerse/bodies/jelly_bell.hpp"
#include "immerse/bodies/jelly_passive.hpp"
#include "immerse/cases/simulation.hpp"
#include "immerse/coupling/jelly_groups.hpp"
#include "immerse/coupling/jelly_propulsion.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"
#include "jellyfish_schema.hpp"
#include "tracer_audit.hpp"

namespace immerse::cases {

class JellyfishSimulation : public Simulation {
 public:
  JellyfishSimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return steps_; }
  void step() override;
  void check_health() override;
  double time() const override { return bell_->time(); }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  std::vector<std::string> series_columns() const override;
  std::vector<double> series_row() override;
  long series_every() const override { return series_every_; }
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  std::string precision() const override { return flow_->precision(); }
  json compare_tolerances() const override;

  bool supports_checkpoint() const override { return true; }
  bool runs_on_ranks() const override { return true; }
  void archive(StateArchive& a) override;

  const bodies::JellyBell& bell() const { return *bell_; }
  const coupling::JellyGroupStats& group_stats() const { return stats_; }
  const coupling::JellyGroups& groups() const { return *groups_; }
  lbm3d::LbmFlow& flow() { return *flow_; }

 protected:
  struct Sample {
    double t, v, diameter;
    bool contracting;
    double cavity_cm3, aperture_flux_cm3_s;  // cavity_volume(); aperture_flux() after the step
  };
  std::unique_ptr<lbm3d::LbmFlow> flow_;
  std::unique_ptr<bodies::JellyBell> bell_;
  std::unique_ptr<coupling::JellyGroups> groups_;
  std::unique_ptr<bodies::JellyTracers> tracers_;
  std::unique_ptr<bodies::JellyAlgae> algae_;
  std::unique_ptr<bodies::JellyAlgae> tentacles_;  // chains hanging from the bell margin
  std::unique_ptr<TracerAudit> tracer_audit_;      // the tracers' starts carried independently
  int tracer_every_ = 1;                           // lattice steps per tracer move
  coupling::JellyGroupStats stats_;
  coupling::JellyPropulsion prop_;
  lbm3d::LbmParams lattice_;
  std::string source_;
  double cell_cm_, dt_s_, coefficient_, calibrated_at_cell_cm_;
  bool propulsion_on_, exact_volume_, inward_radial_, clip_at_zero_;
  long steps_, series_every_;
  int frames_;
  double mass0_ = 0, travelled_cm_ = 0;
  double max_surface_speed_ = 0, max_border_speed_ = 0;  // cm/s over the run (border: at series rows)
  double max_wake_speed_ = 0;                            // cm/s over the run, at series rows
  void advance_passive();                                // tracers, algae and tentacles through this step's water
  double border_speed() const;                           // fastest water in the outermost cell layer, cm/s
  // Backward (-axis) water speed one relaxed radius behind the margin-plane centre on the axis, cm/s:
  // the jet the contraction pushes out of the bell.
  double wake_speed() const;
  // Water volume per second leaving the cavity through the margin plane (r < margin radius), relative
  // to the plane, which moves along the axis at `plane_speed` cm/s (swimming and deformation).
  double aperture_flux(double plane_speed) const;
  double margin_plane() const;
  // `count` points evenly around the bell margin (its largest radius, at its height): the tentacles'
  // anchors.
  std::vector<Eigen::Vector3d> tentacle_anchors(int count) const;  // the margin plane's position along the axis, cm
  double step_seconds_ = 0, body_seconds_ = 0, passive_seconds_ = 0, audit_seconds_ = 0;
  long passive_whole_fields_ = 0;  // steps whose particles left their box: run from the whole field
  long stepped_ = 0;
  std::vector<Eigen::Vector3d> tracer_start_;
  std::vector<Sample> history_;  // every step: for the metrics of the velocity curve
};

std::unique_ptr<Simulation> make_jellyfish(const json& r, const std::string& source, const RunOptions& opt);

}  // namespace immerse::cases
