#pragma once
// An independent computation to check the tracers against (Fig. 8: particles "advected by the LBM
// velocity"). The same starting points are carried by classical RK4 through the lattice velocity,
// linear in time between the fields before and after each lattice step and trilinear in space
// between cell centres, with sampling code of its own (not bodies::JellyVelocityField, whose
// midpoint rule freezes the field after the step). Where the tracers follow the lattice's water,
// their paths stay within a small fraction of a cell of these.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "immerse/bodies/eigen.hpp"
#include "immerse/core/state_archive.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::cases {

class TracerAudit {
 public:
  // Points in cm; the lattice's cells per axis, cell size (cm) and lattice velocity -> cm/s.
  TracerAudit(std::vector<Eigen::Vector3d> start, std::array<int, 3> cells, double cell_cm, double to_cm_s);
  // The box of cells [lo, hi) that one step's samples need: every point's stencil plus a margin
  // far larger than a step's travel (a tracer moves a small fraction of a cell per step).
  std::pair<std::array<int, 3>, std::array<int, 3>> box() const;
  // One lattice step of dt seconds through the velocity `before` and `after` it (over box()).
  void advance(const lbm3d::Macro& before, const lbm3d::Macro& after, double dt);
  // Distance (cm) of each of `points` (the tracers, in the same order) from these paths, sorted.
  std::vector<double> sorted_distances_cm(const std::vector<Eigen::Vector3d>& points) const;
  void archive(StateArchive& a, const std::string& name = "tracer_audit");

 private:
  // Velocity (cm/s) at x, time fraction s in [0, 1] of the step: (1 - s) before + s after.
  Eigen::Vector3d velocity(const lbm3d::Macro& before, const lbm3d::Macro& after, const Eigen::Vector3d& x,
                           double s) const;
  Eigen::Vector3d trilinear(const lbm3d::Macro& m, const Eigen::Vector3d& x) const;

  std::vector<Eigen::Vector3d> x_;
  std::array<int, 3> cells_;
  double cell_cm_, to_cm_s_;
};

}  // namespace immerse::cases
