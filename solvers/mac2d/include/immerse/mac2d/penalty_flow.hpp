#pragma once
// Backend-independent face of the penalty solver: scenes, the case runner and tests drive it through
// this interface; `make_penalty_flow` picks the execution space at run time.
#include <array>
#include <memory>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/mac2d/penalty_params.hpp"

namespace immerse::mac2d {

// Host copies of the staggered fields, ghost layer included, (nx+2) x (ny+2), x fastest.
// Cell (i, j), 1 <= i <= nx, 1 <= j <= ny is interior. u(i, j) is the face between cells i and i+1
// (x = i dx), v(i, j) the face between cells j and j+1 (y = j dy). Cell centres at ((i-1/2)dx, (j-1/2)dy).
struct HostFields {
  int nx = 0, ny = 0;
  double dx = 1, dy = 1, time = 0;
  std::vector<double> u, v, p;
  std::vector<unsigned char> solid;
  std::vector<std::vector<double>> dyes;
  size_t at(int i, int j) const { return static_cast<size_t>(j) * (nx + 2) + i; }
  // Cell-centre averages, the patent's display quantities: u_ij = (u_{i-1/2} + u_{i+1/2}) / 2.
  double uc(int i, int j) const { return 0.5 * (u[at(i - 1, j)] + u[at(i, j)]); }
  double vc(int i, int j) const { return 0.5 * (v[at(i, j - 1)] + v[at(i, j)]); }
};

struct Streaklines {
  std::vector<std::array<double, 2>> position;
  std::vector<int> seed;   // which seed released it
  std::vector<int> birth;  // release step (ordering along a streakline)
};

struct FieldStatus {
  bool finite = true;
  std::string field;  // first non-finite field
  int i = -1, j = -1;
  double max_speed = 0;  // max |u|, |v| over faces
};

class PenaltyFlow {
 public:
  virtual ~PenaltyFlow() = default;
  virtual void step() = 0;  // one time step (boundaries, pressure, velocities, obstacles, dyes, tracers)
  // The latest level, or the previous one (the patent swaps two levels; its time-0 printout shows
  // the untouched second level, and the mass identity pairs the new pressure with the old velocities).
  virtual HostFields fields(bool previous_level = false) const = 0;
  virtual Streaklines streaklines() const = 0;
  virtual FieldStatus status() const = 0;  // device reduction: finiteness and max speed
  virtual double time() const = 0;
  virtual long steps_done() const = 0;
  virtual const PenaltyParams& params() const = 0;
  virtual Backend backend() const = 0;
  // Wall seconds per phase so far (fenced): "boundaries", "obstacles", "pressure+velocity", "dyes", "streaklines".
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
};

std::unique_ptr<PenaltyFlow> make_penalty_flow(Backend backend, const PenaltyParams& params);

}  // namespace immerse::mac2d
