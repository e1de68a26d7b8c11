#pragma once
// Backend-independent face of the shallow-water LBM: scenes, the case runner and tests drive it
// through this interface; `make_sw_flow` checks the lattice limits and picks the execution space.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/state_archive.hpp"
#include "immerse/swlbm/sw_params.hpp"

namespace immerse::swlbm {

// Host copies of the macroscopic fields, nx x ny cells, x fastest; cell (i, j) centred at
// ((i + 1/2) dx, (j + 1/2) dx). Depth h (m), velocity (u, v) (m/s), at the start of the latest step.
struct HostFields {
  int nx = 0, ny = 0;
  int j0 = 0;  // the whole lattice's row of row 0 (own_fields of a lattice split among ranks)
  double dx = 1, time = 0;
  std::vector<double> h, u, v;
  size_t at(int i, int j) const { return static_cast<size_t>(j) * nx + i; }
};

struct FieldStatus {
  bool healthy = true;
  std::string field;  // "h" (not finite or <= 0), "u" or "v" (not finite)
  int i = -1, j = -1;
  double min_h = 0, max_speed = 0, max_lattice_courant = 0;  // (|u| + sqrt(g h)) / v
};

class SwFlow {
 public:
  virtual ~SwFlow() = default;
  virtual void step() = 0;  // stream (with borders) + collide with the current body force field
  // The whole lattice's fields (collective on a lattice split among ranks: gathered from all).
  virtual HostFields fields() const = 0;
  // The same for rows [j_lo, j_hi) only (HostFields::j0 = j_lo): on a split lattice only those
  // rows are gathered.
  virtual HostFields fields(int j_lo, int j_hi) const = 0;
  // The rows this process updates: the whole lattice, or this rank's block (HostFields::j0).
  virtual HostFields own_fields() const = 0;
  virtual FieldStatus status() const = 0;
  virtual double volume() const = 0;  // sum h dx^2 (m^3), device reduction
  virtual double time() const = 0;
  virtual long steps_done() const = 0;
  virtual const SwParams& params() const = 0;
  virtual Backend backend() const = 0;
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
  // Bytes this process has sent in ghost-row exchanges since it started (0 unless the lattice is
  // split among ranks): what the scaling benchmark reports per step.
  virtual double halo_bytes_sent() const { return 0; }
  // The whole state (populations, depth, velocity, forcing, border values, time), for checkpoints.
  virtual void archive(StateArchive& a) = 0;
};

std::unique_ptr<SwFlow> make_sw_flow(Backend backend, const SwParams& params);

}  // namespace immerse::swlbm
