#pragma once
// Geometric multigrid for the Stable Fluids pressure equation sum over faces w (p_nb - p) = b, with
// face weights w in [0, 1] (the fluid fraction of a face; 0 at walls and inside bodies) and p = 0
// half a cell outside an outflow side. Level 0 is the grid itself; a coarse face weight is the sum
// of the two fine faces it covers and a coarse right-hand side the sum of the four fine residuals
// (finite-volume agglomeration, the Galerkin operator of piecewise-constant prolongation), so the
// V-cycle converges for any face fractions. Red-black Gauss-Seidel smoothing.
//
// The hierarchy is in float: both pressure solvers use a V-cycle for a correction only (multigrid:
// defect correction, the residual and the pressure in double; mgcg: the preconditioner, CG in
// double keeping the accuracy; its Polak-Ribiere step tolerates a preconditioner that varies at
// float round-off). Level 0 holds float copies of the weights, made in setup(). Half the bytes per
// cell and twice the SIMD lanes of double make a V-cycle markedly cheaper, at no cost in iterations
// (measured on the windmill: 17.1 V-cycles per solve against 16.8 in double).
#include <Kokkos_Core.hpp>
#include <vector>

#include "stable_grid.hpp"

namespace immerse::mac2d {

template <class Exec>
class StableMultigrid {
 public:
  using S = float;
  using device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using view = Kokkos::View<S*, device>;
  using dview = Kokkos::View<double*, device>;  // the solver's face weights
  struct Level {
    SplitGrid g;  // colour-split (stable_grid.hpp); level 0 has the solver's cells
    view wu, wv, p, b;
  };

  // Builds the levels on the first call (halving while both sizes are even and at least 8) and the
  // face weights of every level from wu, wv when weights_version differs from the last call's: the
  // caller changes it whenever it changes the weights (with moving bodies, every step). changed:
  // when its first changed_n cells (solver-layout indices, each once) are the only ones whose
  // weights differ from version weights_version - 1, and the levels hold that version, level 0
  // converts those cells only (a body's faces, a few per cent of the grid).
  void setup(const StableGrid& g, const dview& wu, const dview& wv, long weights_version,
             const Kokkos::View<int*, device>& changed = {}, int changed_n = -1);
  // Level 0 (colour-split, grid0(): stable_grid.hpp) is the caller's to fill and read: the
  // right-hand side in rhs0() (interior cells), the correction in correction0().
  const SplitGrid& grid0() const { return levels_[0].g; }
  view rhs0() const { return levels_[0].b; }
  view correction0() const { return levels_[0].p; }
  // Level 0's face weights in double as well (the solver's, colour-split), kept by setup() when
  // double_weights is set: conjugate gradients applies the pressure operator from them.
  bool double_weights = false;
  dview weights0_u() const { return weights0_u_; }
  dview weights0_v() const { return weights0_v_; }
  // One cycle for rhs0() into correction0(): from 0 whatever it holds on entry when zero_start
  // (its closed cells, which no update reaches, end as 0 or a prolonged coarse correction), else
  // from the correction it holds (a previous cycle's, for the same rhs0()). A V-cycle, except that
  // level 1 corrects itself from level 2 coarse_cycles times per visit (coarse_cycles = 1: a
  // V-cycle). Returns the max |residual| after level 0's pre-smoothing (units of b); when that is
  // <= stop_at the cycle ends there, correction0() pre-smoothed. symmetric: every post-smoother runs
  // black before red, the adjoint of its pre-smoother, as a conjugate-gradient preconditioner needs.
  double cycle(bool symmetric, double stop_at, bool zero_start);
  int coarse_cycles = 1;  // StableParams::coarse_cycles

  // Implementation below. Public only because nvcc rejects extended __host__ __device__ lambdas
  // inside private or protected member functions; the class lives in src/ and is not installed.
  // reverse: black before red. prolong_from: add that coarser level's correction (piecewise constant,
  // scaled by the over-correction) during the first sweep; else zero_start: start from p = 0.
  void smooth(const Level& l, int sweeps, bool reverse, const Level* prolong_from, bool zero_start) const;
  void coarsest(const Level& l, int sweeps) const;
  double restrict_residual(int l) const;          // into level l + 1's b (its p zeroed); max |residual| of level l
  void coarse_correction(int l, bool symmetric);  // level l's part of a cycle, l >= 1, from its current p
  std::vector<Level> levels_;
  dview weights0_u_, weights0_v_;  // with double_weights
  long weights_version_ = -1;      // of the weights the levels hold (-1: none yet)
};

}  // namespace immerse::mac2d
