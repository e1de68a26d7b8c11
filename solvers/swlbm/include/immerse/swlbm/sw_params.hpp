#pragma once
// Parameters of the shallow-water LBM (floating paper, eq. 1-2), as read from a case file. Physical units
// (metres, seconds): the lattice speed is v = dx / dt, gravity g, depth h = h0 sum f with h0 = 1 m
// (populations are depths in metres).
#include <array>
#include <cmath>
#include <string>

#include "immerse/core/node_shared.hpp"
#include "immerse/core/schema.hpp"

namespace immerse::swlbm {

// Reflective wall (half-way bounce-back: no flux, exact mass conservation), periodic (the opposite
// side must be periodic too), inflow (equilibrium at the prescribed h, u, v), outflow (zero
// gradient), wave maker (inflow at h = depth + A |sin(2 pi (s + c t) / L)|^n, s the border coordinate).
enum class Border { wall, periodic, inflow, outflow, wave };

// How the populations are stored (sw_storage.hpp): double; or deviations from the still-water
// equilibrium in float, IEEE binary16 or FluidX3D's 16-bit format (arithmetic in float).
enum class Storage { fp64, fp32, fp16s, fp16c };

// The collision: Zhou's BGK as printed (bgk), or BGK with the equilibrium's second moment corrected
// so that the viscous stress is nu h (grad u + grad u^T + div u I) (corrected, sw_kernels.hpp). BGK's
// stress carries lattice error terms (the cubic u u u, g h u, and v^2 u grad h) that make the viscosity
// of the slow wave negative, proportional to 1 - Fr, wherever the flow is supercritical.
enum class Collision { bgk, corrected };

struct WaveMaker {
  double A = 0, L = 1, c = 0, n = 1, depth = 1;
  // The crests' speed (signed as c): c, or the shallow-water speed sqrt(g depth) where c is 0.
  double speed(double g) const { return c != 0 ? c : std::sqrt(g * depth); }
};

// Where this process's rows sit when the lattice is split among MPI ranks along y (sw_blocks.hpp),
// in one of two forms. Ghost rows: the local lattice (nx, ny) is the block's rows plus one ghost
// row on each side that borders another block (across a periodic border too); ghost rows are never
// updated, only filled. Shared rows (rows[1] > 0): the ranks of one node share the whole lattice's
// memory (Comm::shared_memory), the local lattice is the whole one, and this rank updates its rows
// where they lie; nothing is copied (StepSignals).
struct SwBlock {
  int origin_y = 0;                // global row of local row 0
  int whole_ny = 0;                // rows of the whole lattice
  bool ghost[2] = {false, false};  // bottom, top: the outer row is a ghost row
  int neighbour[2] = {-1, -1};     // rank that owns that row
  // The ghost-row exchange travels while the rows that read no ghost row step (false: it ends
  // before any row steps; the scaling benchmark's blocking rows). Shared rows: the wait for the
  // neighbours' word comes after the rows between the rims (false: before any row steps).
  bool overlap = true;
  // Ranks on one node share the lattice (sw_ranks_share): automatic, where their shared memory
  // gets 2 MiB pages (or as IMMERSE_SHARE_LATTICE says); always, wherever they can; never: ghost
  // rows and messages, as between nodes.
  NodeSharing share = NodeSharing::automatic;
  std::array<int, 2> rows = {0, 0};             // shared: the first row this rank updates, and how many
  std::array<int, 2> row_neighbour = {-1, -1};  // shared: the ranks updating the rows below and above (-1: none)
  bool shared() const { return rows[1] > 0; }
  bool split() const { return ghost[0] || ghost[1] || shared(); }
};

struct SwParams {
  int nx = 64, ny = 64;
  double dx = 1, dt = 0.1, g = 9.81, tau = 0.6;
  long steps = 100;
  Border left = Border::wall, right = Border::wall, bottom = Border::wall, top = Border::wall;
  std::string initial_h = "1", initial_u = "0", initial_v = "0";  // formulas of x, y (m, m/s)
  std::string inflow_h = "1", inflow_u = "0", inflow_v = "0";     // formulas of x, y, t on inflow borders
  WaveMaker wave;
  Storage storage = Storage::fp64;
  Collision collision = Collision::bgk;
  double velocity_scale = 0;         // expected peak |u| for the up-front checks (0: from the formulas)
  bool allow_transcritical = false;  // skip the up-front dam-break check (stability.hpp)
  std::string source = "case";
  SwBlock block;  // the whole lattice unless split among ranks

  double lattice_speed() const { return dx / dt; }
  // The whole lattice's parameters (those of a block without its split).
  SwParams whole() const {
    SwParams w = *this;
    if (block.split()) w.ny = block.whole_ny;
    w.block = SwBlock();
    return w;
  }
};

// The keys of the water part of a swlbm case file.
Schema sw_schema();
SwParams sw_params_from_json(const json& resolved, const std::string& source);
std::string to_string(Storage s);
// The bytes one population takes in storage s.
int population_bytes(Storage s);
std::string to_string(Collision c);
// The relative change of sum h a run without sources may show from rounding alone, and why: the
// tolerance of the volume conservation checks. fp64: 1e-10 (double round-off); fp32: 1e-5 and fp16s:
// 5e-4 (binary16's unit round-off, 2^-11), 4.3 and 4.5 times the largest drift measured over the
// canned floating cases (2.3e-6 and 1.1e-4): the rounding of the stored deviations is not
// mass-conserving, and it drifts with the flow rather than averaging out.
struct VolumeTolerance {
  double tol;
  std::string why;
};
VolumeTolerance volume_roundoff_tolerance(Storage s);

}  // namespace immerse::swlbm
