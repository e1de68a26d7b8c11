#pragma once
// The case runner's view of the floating-bodies paper (solver "swlbm"): water alone or water with
// floating bodies. Generic metrics (volume, depth range, each body's draft, heel and trim against
// its hydrostatic equilibrium), health checks, series and VTK frames. Scenes derive from it.
#include <memory>

#include "float_case.hpp"
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

// Milliseconds per frame of each phase of a floating system (forces, physics update, wetted
// section, water step) so far; empty before the system exists. Shared by every floating scene.
json float_phases_ms_per_frame(const coupling::FloatSystem* system);

class FloatSimulation : public Simulation {
 public:
  // On several MPI ranks the water is split among them (float_water_of_rank).
  FloatSimulation(const json& resolved, const std::string& source, const RunOptions& opt);

  long total_steps() const override { return steps_; }
  void step() override;
  void check_health() override;
  double time() const override { return system_->water().time(); }
  int frame_count() const override { return frames_; }
  std::vector<std::string> write_frame(const std::string& dir, int index) override;
  void write_final(const std::string& dir) override;
  std::vector<std::string> series_columns() const override;
  std::vector<double> series_row() override;
  json metrics() override;
  std::vector<Check> checks(const json& metrics) const override;
  json phases_ms() const override;
  json compare_tolerances() const override;
  // The water and at most one body: Bullet's contact caches between bodies are not archived, so
  // a scene whose bodies may touch cannot be restored bit for bit.
  bool supports_checkpoint() const override { return system_->body_count() <= 1; }
  bool runs_on_ranks() const override { return true; }
  void archive(StateArchive& a) override;

 protected:
  // The draft at hydrostatic equilibrium of body b's mesh, upright.
  double hydrostatic_draft(int b) const;
  bool closed_water() const;  // no inflow/outflow/wave border: the volume must be conserved

  FloatCase case_;
  std::unique_ptr<coupling::FloatSystem> system_;
  json resolved_;
  std::string source_;
  long steps_;
  int frames_;
  double volume0_ = 0, still_level_ = 0;
  // Time means of each body's draft and CoM height over the last quarter of the run.
  std::vector<double> mean_draft_, mean_com_;  // draft; CoM height above the level under it
  long mean_count_ = 0;
};

std::unique_ptr<Simulation> make_fps_objects(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_boat_load(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_sailboat(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_motorboat(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_dam_break(const json& r, const std::string& source, const RunOptions& opt);
std::unique_ptr<Simulation> make_ring_wave(const json& r, const std::string& source, const RunOptions& opt);

// Writes a body's surface (world coordinates) with its per-face pressure as VTK PolyData.
void write_float_body_vtp(const std::string& path, const coupling::FloatSystem& s, int body);
// The bottom of body b on its own vertical axis (world z): its centre of mass less the depth of the
// mesh's lowest vertex below it in the body frame, so level - bottom is the draft Archimedes
// predicts for the upright body. For a wall-sided body heeled by a small angle t this is the bottom
// under the centre of mass to O(t^2), whereas the lowest corner of a box of half-width a dips by
// a sin t: 8 mm for floating_box's 2 x 2 m box rocking by 0.45 deg, beyond its check's 5 mm.
double float_axis_bottom(const coupling::FloatSystem& s, int body);
// The water depth under body b's centre of mass.
double float_level_under(const coupling::FloatSystem& s, int body);
// This rank's water: the whole lattice on one process, its block of rows on several MPI ranks
// (swlbm/sw_blocks.hpp). The scenes step their bodies alike on every rank.
swlbm::SwParams float_water_of_rank(const swlbm::SwParams& whole, const RunOptions& opt);
// The water's depth at (x, y) m, sampled as the coupling does (collective on a split lattice).
double float_water_depth(const swlbm::SwFlow& water, double x, double y);

}  // namespace immerse::cases
