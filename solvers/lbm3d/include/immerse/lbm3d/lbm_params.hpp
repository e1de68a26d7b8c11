#pragma once
// Parameters of the D3Q15 lattice Boltzmann solver (lattice units: cell = 1, step = 1), as read from a
// case file (solver "lbm3d", scene "generic") or built by a scene (the jellyfish).
#include <array>
#include <string>

#include "immerse/core/choices.hpp"
#include "immerse/core/schema.hpp"

namespace immerse::lbm3d {

// Per-face lattice border. outflow: populations leaving are discarded, the inward ones come from a
// fictitious cell at rest equilibrium (the paper's section 3.1); velocity: the same with the
// equilibrium at the inlet velocity; bounce_back: half-way no-slip wall; periodic: wrap around.
enum class Border { periodic, outflow, bounce_back, velocity };
// How populations are stored and streamed: aa = one buffer, in place, two alternating steps
// (lbm_aa_kernels.hpp); pull = two buffers, every step pulls from one into the other. Same results while
// the cell groups stay fixed (body velocities may change); aa moves fewer bytes on a CPU and needs half
// the memory (bench_lbm3d).
enum class Pattern { aa, pull };
// What a water cell next to a body cell (C3) receives from it along that link (the paper's section
// 3.2; docs/jellyfish.md compares them):
// - ladd: moving-wall bounce-back, its own population reversed plus 6 w rho0 e . u_surface (Ladd 1994);
// - paper: the body cell's population (C1: f_eq(rho0, u_surface); C2: the average of its C1
//   neighbours); what the water sends into the body is absorbed: the fictitious cells "affect the
//   other lattice cells, but are not affected by other cells";
// - paper_literal: the text read literally: the body cell's population and the own one bounced back,
//   summed (one population per link per step too many: the mass grows until the run stops).
enum class BodyBoundary { ladd, paper, paper_literal };
// How the populations are stored (lattice.storage; lbm_storage.hpp): fp32 and fp64 as computed;
// fp16s (IEEE binary16) and fp16c (FluidX3D's 16-bit format) hold the deviation from the rest
// equilibrium, computed in float.
enum class Storage { fp32, fp64, fp16s, fp16c };
// Faces in the order x_min, x_max, y_min, y_max, z_min, z_max.
constexpr const char* kFaceNames[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};

// Where this process's block sits when the lattice is split among MPI ranks (lbm_blocks.hpp). The
// local lattice (LbmParams::nx, ny, nz) is then the block plus a one-cell ghost layer on each face
// that borders another block; ghost cells are never updated, only filled from that block's rank
// (LbmHalo). The x faces never have one: x lines stay whole, for the host kernel's SIMD runs.
struct LbmBlock {
  std::array<int, 3> origin = {0, 0, 0};                    // global index of local cell (0, 0, 0)
  std::array<bool, 6> ghost = {};                           // the face's outer cell layer is a ghost layer
  std::array<int, 6> neighbour = {-1, -1, -1, -1, -1, -1};  // rank that owns the cells of that layer
  // The exchange runs while the lines that read no ghost layer are updated (LbmSolver::step);
  // off: before and after the whole update (the scaling benchmark's reference).
  bool overlap = true;
  // Ranks that share one node's memory, the lattice split along z only, update the whole lattice's
  // populations where they lie instead (make_lbm_flow_on_ranks): no ghost layers, nothing copied.
  // Off: ghost layers and messages, as between nodes.
  bool share_node = true;
  // Set where they share: the local lattice is the whole one, its populations in memory every rank
  // maps (Comm::shared_memory), and this rank updates the z planes [planes[0], planes[0] +
  // planes[1]); the ranks below and above it update the planes next to them (-1: the lattice's
  // border, no rank).
  std::array<int, 2> planes = {0, 0};
  std::array<int, 2> plane_neighbour = {-1, -1};
  bool shared() const { return planes[1] > 0; }
  bool split() const {
    for (bool g : ghost)
      if (g) return true;
    return false;
  }
};

struct LbmParams {
  int nx = 32, ny = 32, nz = 32;
  double tau = 0.8;  // BGK relaxation time; nu = (tau - 1/2) / 3
  Storage storage = Storage::fp32;
  Pattern pattern = Pattern::aa;
  // The host (CPU) kernel writes populations with streaming (non-temporal) stores instead of ordinary
  // ones; off by default, measured slower on this machine (streaming_store.hpp). Devices ignore it.
  // Pull pattern only (the AA pattern stores where it loaded, in cache).
  bool streaming_stores = false;
  std::array<Border, 6> border = {Border::periodic, Border::periodic, Border::periodic,
                                  Border::periodic, Border::periodic, Border::periodic};
  std::array<double, 3> inlet_velocity = {0, 0, 0};  // for velocity faces
  std::array<double, 3> force = {0, 0, 0};           // body force per unit volume (Guo forcing)
  double rho0 = 1;                                   // reference density (outflow, body cells)
  BodyBoundary body_boundary = BodyBoundary::ladd;   // the C3 rule (bodies only)
  // Initial fields as formulas of the cell centre (x, y, z) = (i + 1/2, j + 1/2, k + 1/2).
  std::string init_rho = "1", init_ux = "0", init_uy = "0", init_uz = "0";
  std::string source = "case";
  LbmBlock block;  // the whole lattice unless split among ranks
  double viscosity() const { return (tau - 0.5) / 3.0; }
  long cells() const { return static_cast<long>(nx) * ny * nz; }
};

// Lattice-block keys ("lattice", "physics", "borders", "initial") of a generic case file.
Schema lbm_schema();
LbmParams lbm_params_from_json(const json& resolved, const std::string& source);
// Rejects parameters outside the stable range with the key and the allowed range (InputError):
// tau in (0.5, 20], periodic faces paired, lattice Mach number of initial/inlet speeds <= 0.3,
// streaming stores with the pull pattern only.
void check_stability(const LbmParams& p);
// Largest lattice speed the initial formulas and the inlet give (for the Mach check).
double max_initial_speed(const LbmParams& p);
// The case-file names of the borders and patterns (lbm3d and lbm3d.jellyfish read them).
const Choices<Border>& border_choices();
// The lattice's storage keys (storage, pattern), shared by every family built on this lattice.
Schema& add_storage_keys(Schema& lattice);
const Choices<Pattern>& pattern_choices();
// 'ladd' / 'paper' / 'paper_literal': the C3 rule (BodyBoundary).
const Choices<BodyBoundary>& body_boundary_choices();
// The names of lattice.storage's values; the name of p's storage; the bytes one population takes.
const Choices<Storage>& storage_choices();
std::string storage_name(const LbmParams& p);
int population_bytes(Storage s);
// 'cached' / 'streaming' -> whether the pull kernel uses non-temporal stores.
const Choices<bool>& stores_choices();
std::string to_string(Border b);
std::string to_string(Pattern p);

}  // namespace immerse::lbm3d
