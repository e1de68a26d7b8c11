#pragma once
// Backend-independent face of the D3Q15 solver: scenes, the case runner, tests and benchmarks drive it
// through this interface; `make_lbm_flow` picks the execution space (run time) and the precision.
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/state_archive.hpp"
#include "immerse/lbm3d/d3q15.hpp"
#include "immerse/lbm3d/lbm_params.hpp"

namespace immerse::lbm3d {

// Host copies of the macroscopic fields after the last step (moments of the streamed populations, with
// the half-force correction). Cell (i, j, k) at index i + nx (j + ny k); centre at (i+1/2, j+1/2, k+1/2).
// A box of the lattice (Macro of a box, LbmFlow::macro(box)): cells lo <= (i, j, k) < hi, at(i, j, k)
// then counts from lo; `lo` says where the box starts.
struct Macro {
  int nx = 0, ny = 0, nz = 0;
  int lo[3] = {0, 0, 0};
  std::vector<double> rho, ux, uy, uz;
  std::vector<unsigned char> group;
  size_t at(int i, int j, int k) const {
    return static_cast<size_t>(i) + static_cast<size_t>(nx) * (j + static_cast<size_t>(ny) * k);
  }
};

// The cell groups of a moving body (section 3.2), written by the coupling on the host and applied by
// `set_groups`: group of every cell, velocity of body cells (lattice units, SoA: x block, y block, z
// block), and the cells whose group or velocity may have changed since the last call (only those are
// re-initialised on the device; cells outside it must keep the group and velocity of the last call).
struct CellGroups {
  std::vector<unsigned char> group;
  std::vector<float> ub;
  std::vector<int> region;
};

// First unhealthy water cell, if any: populations not finite, or a negative equilibrium population
// (the paper's instability indicator).
struct Health {
  bool ok = true;
  std::string what;
  int i = -1, j = -1, k = -1;
  double rho = 0, speed = 0;
  double max_speed = 0;  // max |u| over water cells
};

class LbmFlow {
 public:
  virtual ~LbmFlow() = default;
  virtual void step() = 0;  // one fused collide + stream of every water cell
  virtual void set_groups(const CellGroups& groups) = 0;
  virtual Macro macro() const = 0;
  // The same for the cells lo <= (i, j, k) < hi only (clamped to the lattice): the moments of that box
  // alone are computed and copied, for measurements taken every step.
  virtual Macro macro(const std::array<int, 3>& lo, const std::array<int, 3>& hi) const = 0;
  // The cells this process updates: the whole lattice, or this rank's block of a lattice split
  // among ranks (Macro::lo: where the block starts in the whole lattice). Collective on a split
  // lattice, like every query: the moments read the ghost layers, refreshed from the neighbours.
  virtual Macro own_macro() const = 0;
  // Velocity only (for tracers): ux, uy, uz blocks of nx ny nz each.
  virtual std::vector<float> velocity() const = 0;
  virtual Health health() const = 0;
  // Sum of rho over water cells plus rho0 per body cell (the water the body displaces): row_masses()
  // added in order.
  double mass() const { return sum_in_order(row_masses()); }
  // The same per x row (rows in order: y, then z): of the cells this process updates, or, split
  // among ranks, of the whole lattice, gathered by row; so the sums have the same bits on N ranks.
  virtual std::vector<double> row_masses() const = 0;
  // Kinetic energy, the sum of rho |u|^2 / 2 over water cells, the same way (no field gathered).
  double kinetic_energy() const { return sum_in_order(row_kinetic_energies()); }
  virtual std::vector<double> row_kinetic_energies() const = 0;
  // The stored populations of the cells this process updates, as numbers: slot q of every own cell
  // (x, then y, then z), q = 0..14. For tests: a split lattice's blocks against the whole one.
  virtual std::vector<double> raw_populations() const = 0;
  virtual long steps_done() const = 0;
  virtual const LbmParams& params() const = 0;
  virtual Backend backend() const = 0;
  virtual std::string precision() const = 0;
  // Wall seconds per phase so far (fenced): "collide_stream", "groups".
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
  // Bytes this process has sent in ghost-layer exchanges since it started (0 unless the lattice is
  // split among ranks): what the scaling benchmark reports per step.
  virtual double halo_bytes_sent() const { return 0; }
  // The whole state (populations, the AA step kind, cell groups, body velocities), for checkpoints.
  virtual void archive(StateArchive& a) = 0;

 private:
  static double sum_in_order(const std::vector<double>& rows) {
    double sum = 0;
    for (const double r : rows) sum += r;
    return sum;
  }
};

// The bytes make_lbm_flow allocates for the lattice of `params` (at least).
double lattice_bytes(const LbmParams& params);
// Checks the parameters (check_stability) and builds the solver with all cells water.
std::unique_ptr<LbmFlow> make_lbm_flow(Backend backend, const LbmParams& params);

}  // namespace immerse::lbm3d
