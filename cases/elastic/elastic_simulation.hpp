#pragma once
// The case runner's view of the elastic-body solver (solver "mac2d.stable"): Stable Fluids on the
// staggered grid, optionally with one explicit-FEM body coupled through the boundary map (or the
// staircase baseline). With coupling.compare the same case runs a second time with the other
// coupling alongside, and its metrics appear prefixed "staircase_" (or "boundary_map_").
#include <memory>
#include <optional>

#include "elastic_schema.hpp"
#include "immerse/bodies/fem_body.hpp"
#include "immerse/cases/simulation.hpp"
#include "immerse/core/choices.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/coupling/bmap_boundary_map.hpp"
#include "immerse/mac2d/stable_flow.hpp"

namespace immerse::cases {

using bodies::Vec2;

// One coupled run: fluid, body (optional), its boundary map and timings.
struct ElasticRun {
  std::unique_ptr<mac2d::StableFlow> flow;
  std::optional<bodies::FemBody> body;
  coupling::BoundaryMap map;
  std::vector<mac2d::FaceConstraint> constraints;  // the map's faces this step (storage reused)
  coupling::CouplingMode mode = coupling::CouplingMode::boundary_map;
  PhaseTimer phases;  // map_build, force, fem (the fluid's own phases come from the flow)
  double step_seconds = 0;
  long steps = 0;
  // Leakage averaged over the second half of the run (the first half carries the start-up).
  double leak_abs_sum = 0, leak_net_sum = 0;
  // The same measured through the cut cells' faces (coupling::bmap_cut_leakage).
  double leak_cut_abs_sum = 0, leak_cut_net_sum = 0;
  long leak_samples = 0;
  // The largest face speed seen after any step: an unstable coupling shows up here long before a
  // field turns non-finite (the final field alone can miss a burst).
  double max_speed_run = 0;
  // Tip displacement along x summed over the second half (the bar oscillates about its deflection);
  // its samples are leak_samples'.
  double tip_dx_sum = 0;
  // Hub angular velocity samples over the last quarter (steadiness).
  std::vector<double> omega_tail;
  // Body state at the last map build: the fluid after the projection honours this one.
  std::vector<Vec2> map_x, map_v;
};

class ElasticSimulation : public Simulation {
 public:
  ElasticSimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return steps_; }
  void step() override;
  void check_health() override;
  double time() const override { return runs_[0].flow->time(); }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  void write_final(const std::string& dir) override;
  std::vector<std::string> series_columns() const override;
  std::vector<double> series_row() override;
  long series_every() const override { return series_every_; }
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  json compare_tolerances() const override;
  bool supports_checkpoint() const override { return true; }
  void archive(StateArchive& a) override;

 protected:
  void step_run(ElasticRun& r);
  json run_metrics(ElasticRun& r);
  // Through every inflow face of the fields: the flux (m^2/s) and the largest normal speed (m/s).
  struct Inflow {
    double flux = 0, speed = 0;
  };
  Inflow inflow() const;
  Vec2 tip_displacement(const ElasticRun& r) const;
  json scene_metrics();  // elastic_checks.cpp: the cavity's centreline comparison

  json params_;
  ElasticScene scene_ = ElasticScene::generic;
  mac2d::StableParams fluid_;
  std::vector<ElasticRun> runs_;
  Backend backend_;  // the fluid's; the boundary map's faces use its host threads
  int substeps_ = 1;
  double alpha_ = 0.5;
  bool pressure_force_ = true;
  long steps_;
  int frames_;
  long series_every_;
  int tip_node_ = -1;
};

}  // namespace immerse::cases
