#pragma once
// Weak scaling of the D3Q15 AA step past this machine, by model (the report's Scaling section).
// The ranks split a lattice of N^3 blocks as a run of that many ranks would (lbm3d::choose_dims,
// lbm3d::rank_layout and lbm3d::block_params, as scaling_lattices' weak rows), filling the nodes in
// rank order (mpirun's default mapping by slot), each node's ranks a tile of blocks. Per exchange
// each rank sends every plane block_params gives it a ghost layer for (5 populations of each cell
// of the plane, the other split axis's ghost rows included): to a rank on its node over its own
// link, to another node over the node's share of the network.
// The axes go one after the other (LbmHalo: the second carries the first one's ghost rows).
//
// A pair of AA steps updates the block twice and exchanges twice: the fill beside the exchange
// step's interior, the give-back beside the next (local) step's (LbmSolver::step, a lattice
// without bodies). Blocking: 2U + 2H for update U and exchange H. Hidden: 2 max(U, H), with the
// rims' update and the copying a rank's own core does (on one machine, all of it) left out: what
// the overlap could reach where a network moves the bytes.
#include <array>
#include <string>

namespace immerse::reports {

struct ScalingMachine {
  std::string name;
  double rate = 0;        // cell updates per second of one rank
  int per_node = 1;       // ranks per node
  double intra = 0;       // bytes/s from a rank to a rank of its node
  double inter = 0;       // bytes/s from a node to the others (each way), shared by its ranks
  double latency = 2e-6;  // seconds per axis exchanged (its messages travel together)
};

struct WeakScalingPoint {
  std::array<int, 3> dims{};        // ranks along x, y, z
  std::array<int, 2> tile{};        // a node's blocks along y and z (lbm3d::rank_layout)
  double node_bytes = 0;            // the busiest node's bytes to other nodes per exchange
  double rank_bytes = 0;            // the busiest rank's bytes per exchange
  double update_s = 0;              // one step's update of an N^3 block
  double halo_s = 0;                // one exchange (a fill or a give-back)
  double blocking = 0, hidden = 0;  // efficiency: update time over the time of a pair of steps
};

// `ranks` ranks of N^3 cells (`block`) each, populations of `pop_bytes` bytes.
WeakScalingPoint project_weak_scaling(const ScalingMachine& m, int ranks, int block, int pop_bytes = 4);

}  // namespace immerse::reports
