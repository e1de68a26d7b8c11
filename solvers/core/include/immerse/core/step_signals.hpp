#pragma once
// The word that a step is done, between ranks of one node that update one lattice where it lies
// (the D3Q15 lattice's z planes, LbmBlock::planes; the shallow-water lattice's rows,
// SwBlock::rows), so that nothing travels between them but this word. A step touches the cells
// next to its own, one plane (row) deep: a rank's rim planes, next to another rank's, must not be
// updated before that rank has finished its last step on the planes next to them, and vice versa.
// So after each step's rims a rank tells both neighbours (a one-byte message each), and it waits
// for their word before its next step's rims; the planes between its rims touch no other rank's
// and go on meanwhile. docs/mpi.md.
#include <array>
#include <atomic>

#include "immerse/core/comm.hpp"

namespace immerse {

class StepSignals {
 public:
  // neighbour: the ranks below and above (-1: the lattice's border, none; both may be one rank).
  // tag: apart from any other transfer between the same ranks (a lattice's ghost-layer exchange).
  StepSignals(const std::array<int, 2>& neighbour, int tag, Comm& comm)
      : comm_(comm), neighbour_(neighbour), tag_(tag) {}
  StepSignals(const StepSignals&) = delete;
  StepSignals& operator=(const StepSignals&) = delete;
  ~StepSignals() = default;  // the owner waits first (its destructor)

  // This rank's step is done on its rims: tells the neighbours, and starts receiving their word of
  // the same step.
  void send() {
    wait();
    // Stores to the shared lattice before the word that they are done (the same fence on the
    // receiving side orders its loads after the word).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (int side = 0; side < 2; ++side)
      if (neighbour_[side] >= 0)
        ticket_[side] = comm_.start_sendrecv(&out_, 1, neighbour_[side], &in_[side], 1, neighbour_[side], tag_);
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
  Comm& comm_;
  std::array<int, 2> neighbour_;  // below, above (-1: none)
  int tag_;
  long ticket_[2] = {0, 0};
  bool pending_ = false;
  char out_ = 1, in_[2] = {0, 0};
};

}  // namespace immerse
