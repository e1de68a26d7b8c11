#pragma once
// Body -> lattice transfer of Alexandrova et al. (GRAPP 2006, sections 3 and 3.2): the cell groups
// A, B, C1, C2, C3 recomputed every step from the bell surface.
//  - C1: cells the surface passes through. The surface is sampled (NURBS evaluated at spacings of at most
//    half a cell, the paper's interpolation between control points) and each sample falls into the cell
//    floor(x / cell) (the paper's example: (-5.3, 2.6, 0.1) -> (-6, 2, 0)); a C1 cell carries the mean
//    velocity of its samples.
//  - inside cells (centre inside the closed bell): C2 when a D3Q15 neighbour is C1 (velocity: mean of
//    those C1 neighbours), A otherwise (velocity: the bell's swimming velocity).
//  - water cells: C3 when a D3Q15 neighbour is a body cell (C1, C2 or A), B otherwise.
// Velocities are handed to the lattice in lattice units (v dt / cell).
// Cost: only the cells of the body's box (and of the previous frame's) are touched; the surface samples,
// their cells, the inside tests, the neighbour marks (z layers three apart at once) and the counts run
// in parallel on the run's host execution space, each cell's sample velocities summed in sample order
// and the propulsion's inward speeds serially, so every backend gives the same bits.
#include <array>
#include <vector>

#include "immerse/bodies/jelly_bell.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"

namespace immerse::coupling {

struct JellyGroupStats {
  std::array<long, 5> count = {0, 0, 0, 0, 0};  // by lbm3d::Group: B, C3, C1, C2, A (whole lattice)
  double inward_speed_sum = 0;                  // sum over C1 cells of the inward radial surface speed v_i, cm/s
  double speed_sum = 0;                         // sum over C1 cells of the surface speed |v_i|, cm/s
  double max_surface_speed = 0;                 // cm/s
};

class JellyGroups {
 public:
  // `backend`: the run's backend; the per-sample and per-cell work runs on its host execution space
  // (identical groups and velocities on every backend).
  JellyGroups(int nx, int ny, int nz, double cell_cm, double dt_s, Backend backend = Backend::serial);
  // Recomputes the groups for the bell's current surface; `groups()` is then ready for set_groups.
  JellyGroupStats update(const bodies::JellyBell& bell);
  const lbm3d::CellGroups& groups() const { return g_; }
  // The groups of the latest update and the box they covered (the next update clears it), for
  // checkpoints.
  void archive(StateArchive& a) {
    a.vector("groups.group", g_.group);
    a.vector("groups.ub", g_.ub);
    a.vector("groups.region", g_.region);
    a.vector("groups.samples_in_cell", samples_in_cell_);
    a.value("groups.box", previous_);
    a.value("groups.stats", stats_);
  }
  long at(int i, int j, int k) const { return index(nx_, ny_, i, j, k); }

 private:
  using Box = std::array<int, 6>;  // i0, i1, j0, j1, k0, k1 (inclusive)
  // Cell (i, j, k) of an nx x ny x nz lattice (at(), and the parallel loops, which copy nx and ny).
  static long index(int nx, int ny, int i, int j, int k) {
    return i + static_cast<long>(nx) * (j + static_cast<long>(ny) * k);
  }
  int nx_, ny_, nz_;
  double cell_, dt_;
  Backend backend_;
  lbm3d::CellGroups g_;
  std::vector<int> samples_in_cell_;
  // Reused every frame (no per-frame allocation once they have grown): the lattice cell of each
  // surface sample (-1 outside the lattice), its velocity in lattice units, and the box of each
  // parameter row's samples.
  std::vector<long> sample_cell_;
  std::vector<float> sample_ub_;
  std::vector<Box> row_box_;
  std::vector<std::array<long, 5>> layer_counts_;  // cells per group in each z layer of the box
  Box previous_{0, -1, 0, -1, 0, -1};
  JellyGroupStats stats_;
};

}  // namespace immerse::coupling
