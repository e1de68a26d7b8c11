#pragma once
// Up-front limits of the shallow-water LBM, checked before a run starts.
//  - Rest equilibrium positive: f0 = h (1 - 5 g h / (6 v^2) - 2 u^2 / (3 v^2)) > 0 (floating paper, eq. 2). With
//    5 g h / (6 v^2) >= 1 the rest population is negative even for still water.
//  - Subcritical for the lattice: the fastest signal, |u| + sqrt(g h), must travel less than one
//    cell per step, (|u| + sqrt(g h)) / v < 1; beyond it the flow is supercritical for the lattice
//    (information outruns the streaming) and the scheme blows up.
//  - Subcritical for the water: the dam break between the initial state's deepest and shallowest
//    cells (their velocities projected on the line joining them) must not pass through critical
//    flow. Where it does (still water with h_low / h_high < 0.138), the lattice's depth goes
//    negative at the sonic point within a second for every dt and tau tried.
#include <string>

#include "immerse/core/backend_id.hpp"
#include "immerse/swlbm/sw_params.hpp"

namespace immerse::swlbm {

// One initial cell: depth, position and velocity.
struct SwCell {
  double h = 0, x = 0, y = 0, u = 0, v = 0;
};

struct FlowScales {
  double h_max = 0, u_max = 0;
  SwCell deepest{-1e300}, shallowest{1e300};  // of the initial state (check_stability's dam break)
};

// One side of a shallow-water Riemann problem: depth and the velocity along the line of the problem.
struct SwState {
  double h = 0, u = 0;
};
// The exact solution's middle state (Toro, "Shock-Capturing Methods for Free-Surface Shallow
// Flows", ch. 5): depth and velocity between the two waves, and whether a wave passes through
// critical flow (a transonic rarefaction, |u| = sqrt(g h) inside the fan). dry: the waves leave a
// dry bed between them (no middle depth).
struct SwRiemann {
  double h = 0, u = 0;
  bool dry = false, transcritical = false;
};
SwRiemann sw_riemann(const SwState& left, const SwState& right, double g);
// The exact solution of still water at depth h_l against still water at h_r < h_l (Stoker 1957,
// "Water Waves", ch. 10): a rarefaction into the deep side, the middle state r, a bore into the
// shallow side. Depth and velocity at xi = (x - x0) / t. Where the middle state is supercritical
// the fan is transonic, its sonic point at xi = 0 with the critical depth (2/3)^2 h_l.
SwState sw_dam_break_at(double hl, double hr, const SwRiemann& r, double g, double xi);
// The bore's speed into the shallow side (mass conservation across it).
double sw_dam_break_bore_speed(double hr, const SwRiemann& r);

struct LatticeLimits {
  double rest_ratio;       // 5 g h_max / (6 v^2) + 2 u_max^2 / (3 v^2), must be < 1
  double lattice_courant;  // (u_max + sqrt(g h_max)) / v, must be < 1
  double dt_max_rest;      // dt at which rest_ratio reaches 1
  double dt_max_courant;   // dt at which lattice_courant reaches 1
};

// Largest depth and speed the case prescribes: initial and inflow formulas sampled on the grid
// (inflow at t = 0), wave-maker crests, and stability.velocity_scale when set.
FlowScales flow_scales(const SwParams& p);
LatticeLimits lattice_limits(const SwParams& p, const FlowScales& s);
// InputError naming the keys (time.dt, grid.dx) and the allowed range when a limit is violated.
void check_stability(const SwParams& p);
// The bytes of the lattice's fields: two population buffers, depth, velocity and force (23 values
// per cell in FP64; 26 with the corrected collision).
double sw_lattice_bytes(const SwParams& p);
// InputError (exit 2) when they do not fit the backend's memory; called before check_stability,
// which reads the initial formulas at every cell.
void require_sw_memory(Backend backend, const SwParams& p);

}  // namespace immerse::swlbm
