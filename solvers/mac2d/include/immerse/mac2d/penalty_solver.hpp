#pragma once
// The penalty solver on one execution space: owns the device fields (two time levels, swapped each
// step as in the patent's stateFluid), obstacles, dyes and streakline particles.
#include <Kokkos_Core.hpp>

#include "immerse/core/expression.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/mac2d/penalty_flow.hpp"
#include "immerse/mac2d/penalty_kernels.hpp"
#include "immerse/mac2d/transport_kernels.hpp"

namespace immerse::mac2d {

template <class Exec>
class PenaltySolver final : public PenaltyFlow {
 public:
  using device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using view = Kokkos::View<double*, device>;

  explicit PenaltySolver(const PenaltyParams& p);

  void step() override;
  HostFields fields(bool previous_level = false) const override;
  Streaklines streaklines() const override;
  FieldStatus status() const override;
  double time() const override { return time_; }
  long steps_done() const override { return steps_; }
  const PenaltyParams& params() const override { return p_; }
  Backend backend() const override;
  std::vector<std::pair<std::string, double>> phase_seconds() const override;
  void archive(StateArchive& a) override;

 private:
  void fill_inflow(double t);
  void apply_boundaries(int level);
  void update_obstacles(double t);
  void release_particles();
  template <class F>
  void timed(const char* phase, F&& f);

  PenaltyParams p_;
  Grid2<device> g_;
  view u_[2], v_[2], pres_[2];
  int cur_ = 0;  // the level holding the latest state
  view inflow_;
  Kokkos::View<unsigned char*, device> solid_;
  view solid_u_, solid_v_;
  Kokkos::View<ObstacleState*, device> shapes_;
  std::vector<Expression> ox_, oy_;
  std::vector<view> dye_, dye_next_;
  Kokkos::View<double* [2], device> particles_;
  Kokkos::View<double* [2], device> seeds_;
  std::vector<int> particle_seed_, particle_birth_;
  int next_slot_ = 0;
  int transport_every_ = 1;  // steps between dye/particle updates
  bool obstacles_move_ = false;
  Expression inflow_expr_;
  bool inflow_depends_on_t_;
  double time_ = 0;
  long steps_ = 0;
  PhaseTimer phases_;
};

}  // namespace immerse::mac2d
