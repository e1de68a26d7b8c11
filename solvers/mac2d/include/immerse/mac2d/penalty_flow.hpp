#pragma once
// Backend-independent face of the penalty solver: scenes, the case runner and tests drive it through
// this interface; `make_penalty_flow` picks the execution space at run time.
#include <array>
#include <memory>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/state_archive.hpp"
#include "immerse/mac2d/host_fields.hpp"
#include "immerse/mac2d/penalty_params.hpp"

namespace immerse::mac2d {

struct Streaklines {
  std::vector<std::array<double, 2>> position;
  std::vector<int> seed;   // which seed released it
  std::vector<int> birth;  // release step (ordering along a streakline)
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
  // The whole state (both time levels, obstacles, dyes, streakline particles, time), for checkpoints.
  virtual void archive(StateArchive& a) = 0;
};

std::unique_ptr<PenaltyFlow> make_penalty_flow(Backend backend, const PenaltyParams& params);

}  // namespace immerse::mac2d
