#pragma once
// The ranks of one node that share a lattice's populations (LbmBlock::planes) update each other's
// planes in place, so nothing travels between them but word that a step is done. A step touches
// the slots of its cells' neighbours (the AA exchange step reads and writes there, the pull step
// reads there), one plane deep: this rank's planes next to another rank's (its rim planes) must not
// be updated before that rank has finished its last step on the planes next to them, and vice
// versa. So after each step's rim planes a rank tells both neighbours (a one-byte message each),
// and it waits for their word before its next step's rim planes; the planes between its rims touch
// no other rank's and go on meanwhile. docs/mpi.md.
#include <atomic>

#include "immerse/core/comm.hpp"
#include "immerse/lbm3d/lbm_params.hpp"

namespace immerse::lbm3d {

class PlaneSignals {
 public:
  PlaneSignals(const LbmBlock& block, Comm& comm) : comm_(comm), neighbour_(block.plane_neighbour) {}
  PlaneSignals(const PlaneSignals&) = delete;
  PlaneSignals& operator=(const PlaneSignals&) = delete;
  ~PlaneSignals() = default;  // the owner waits first (LbmSolver's destructor)

  // This rank's step is done on its rim planes: tells the neighbours, and starts receiving their
  // word of the same step.
  void send() {
    wait();
    // Stores to the shared populations before the word that they are done (the same fence on the
    // receiving side orders its loads after the word).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (int side = 0; side < 2; ++side)
      if (neighbour_[side] >= 0)
        ticket_[side] = comm_.start_sendrecv(&out_, 1, neighbour_[side], &in_[side], 1, neighbour_[side], kTag);
    pending_ = true;
  }
  // Returns once the neighbours' word of the last send() has arrived (at once if it has, or if no
  // step was sent).
  void wait() {
    if (!pending_) return;
    for (int side = 0; side < 2; ++side)
      if (neighbour_[side] >= 0) comm_.wait(ticket_[side]);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    pending_ = false;
  }
  bool pending() const { return pending_; }

 private:
  static constexpr int kTag = 64;  // apart from the ghost-layer exchange's (LbmHalo: 1 and 2)
  Comm& comm_;
  std::array<int, 2> neighbour_;  // below, above (-1: none)
  long ticket_[2] = {0, 0};
  bool pending_ = false;
  char out_ = 1, in_[2] = {0, 0};
};

}  // namespace immerse::lbm3d
