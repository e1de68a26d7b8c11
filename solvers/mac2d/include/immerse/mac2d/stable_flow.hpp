#pragma once
// Backend-independent face of the Stable Fluids solver. A step is split in two halves so that a body
// coupling can read the predicted velocity (after advection, viscosity and forces; eq. 8 of Imamura
// et al. takes the fluid->solid force from it) and impose its constraints before the projection.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/state_archive.hpp"
#include "immerse/mac2d/host_fields.hpp"
#include "immerse/mac2d/stable_params.hpp"

namespace immerse::mac2d {

// How a body touches one velocity face (component c: 0 = u, 1 = v; face (i, j) as in HostFields).
// `weight` is the face's fluid fraction in the pressure equation (0 fully in the body; below 1 % the
// solver closes it, the small-cut-cell rule); a face whose
// point lies inside the body is `fixed` to the body velocity `ub` after advection and viscosity.
// `cut[d]` (d = -x, +x, -y, +y) is the fractional distance theta in (0, 1] to the body boundary
// towards that neighbour (1: no boundary in between) and `cut_ub[d]` the boundary's velocity there:
// the viscosity stencil then uses the boundary value at distance theta (eqs. 13-15).
struct FaceConstraint {
  int c = 0, i = 0, j = 0;
  double weight = 1;
  bool fixed = false;
  double ub = 0;
  double cut[4] = {1, 1, 1, 1};
  double cut_ub[4] = {0, 0, 0, 0};
};

// Which velocity field sample() reads: the current (projected) one, the predicted one (after
// advection, viscosity and forces, before the projection), or the advected one before the body's
// constraints overwrite the faces inside it (the fluid momentum that entered the body this step).
enum class SampleField { current, predicted, advected, pressure };  // pressure: returned as {p, 0}

// A solve that does not converge stops the run (NumericalError), so every counted solve converged.
struct SolveStats {
  long solves = 0, iterations = 0;
  double seconds = 0, last_residual = 0;
  int last_iterations = 0;
};

class StableFlow {
 public:
  virtual ~StableFlow() = default;
  // The body's constraints for the next step (replacing the previous ones).
  virtual void set_constraints(const std::vector<FaceConstraint>& faces) = 0;
  virtual void predict() = 0;  // boundaries, advection, viscosity, forces (steps 1-3)
  virtual void project() = 0;  // pressure Poisson and projection (steps 4-5); advances time
  void step() { predict(), project(); }
  // Velocities at points (x, y) in m, by bilinear interpolation of one of the fields.
  virtual std::vector<std::array<double, 2>> sample(const std::vector<std::array<double, 2>>& pts,
                                                    SampleField which) const = 0;
  virtual HostFields fields() const = 0;
  virtual FieldStatus status() const = 0;
  virtual double max_divergence() const = 0;  // max |div u| over cells with fluid, 1/s
  virtual double time() const = 0;
  virtual long steps_done() const = 0;
  virtual const StableParams& params() const = 0;
  virtual const SolveStats& pressure_stats() const = 0;
  virtual const SolveStats& viscosity_stats() const = 0;
  // Wall seconds per phase so far (fenced): "advection", "diffusion", "forces", "pressure", "boundaries".
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
  // The state a continued run needs (velocity, the pressure the next solve starts from, the
  // viscosity solve's sweep guess, time, solve statistics), for checkpoints. The body's constraints
  // are not in it: set_constraints rebuilds them from the walls-only values every step.
  virtual void archive(StateArchive& a) = 0;
};

// Throws InputError when dt carries the fastest prescribed speed across more than 20 cells.
std::unique_ptr<StableFlow> make_stable_flow(Backend backend, const StableParams& params);

}  // namespace immerse::mac2d
