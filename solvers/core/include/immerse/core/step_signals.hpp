#pragma once
// The word that a step is done, between ranks of one node that update one lattice where it lies
// (the D3Q15 lattice's z planes, LbmBlock::planes; the shallow-water lattice's rows,
// SwBlock::rows), so that nothing travels between them but this word. A step touches the cells
// next to its own, one plane (row) deep: a rank's rim planes, next to another rank's, must not be
// updated before that rank has finished its last step on the planes next to them, and vice versa.
// So after each step's rims a rank tells its neighbours, and it waits for their word before its
// next step's rims; the planes between its rims touch no other rank's and go on meanwhile.
// docs/mpi.md.
//
// The word is each rank's count of finished steps, in the memory the ranks already share for the
// lattice (Comm::shared_memory), one cache line per rank: a store, and loads until the neighbours'
// counts reach this rank's. A one-byte MPI message each way cost both ranks their MPI calls every
// step (posting, then completing at the wait), time that no overlap can hide.
#include <array>
#include <atomic>
#include <memory>
#include <thread>

#include "immerse/core/comm.hpp"

namespace immerse {

class StepSignals {
 public:
  // neighbour: the ranks below and above (-1: the lattice's border, none; both may be one rank).
  // Collective (every rank of the node makes its signals at once): the counts' shared memory.
  StepSignals(const std::array<int, 2>& neighbour, Comm& comm)
      : neighbour_(neighbour),
        memory_(comm.shared_memory(kLine * static_cast<std::size_t>(comm.size()))),
        mine_(count_of(comm.rank())) {
    __atomic_store_n(mine_, 0L, __ATOMIC_RELAXED);
    comm.barrier();  // every count is 0 before any rank steps
  }
  StepSignals(const StepSignals&) = delete;
  StepSignals& operator=(const StepSignals&) = delete;
  ~StepSignals() = default;  // the owner waits first (its destructor)

  // This rank's step is done on its rims: tells the neighbours.
  void send() {
    wait();
    // Stores to the shared lattice (streaming stores too) before the count that says they are done;
    // the same fence on the reading side orders its loads after the count.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    __atomic_store_n(mine_, ++steps_, __ATOMIC_RELEASE);
    pending_ = true;
  }
  // Returns once the neighbours have finished the step of the last send() (at once if they have,
  // or if no step was sent). Spins, then yields the core: ranks may outnumber cores.
  void wait() {
    if (!pending_) return;
    for (int side = 0; side < 2; ++side) {
      if (neighbour_[side] < 0) continue;
      const long* const theirs = count_of(neighbour_[side]);
      for (int tries = 0; __atomic_load_n(theirs, __ATOMIC_ACQUIRE) < steps_; ++tries)
        if (tries >= kSpins) std::this_thread::yield();
    }
    std::atomic_thread_fence(std::memory_order_seq_cst);
    pending_ = false;
  }
  bool pending() const { return pending_; }

 private:
  static constexpr std::size_t kLine = 64;  // a cache line per rank: no rank's store evicts another's count
  static constexpr int kSpins = 1000;       // loads before each try yields the core
  long* count_of(const int rank) const {
    return reinterpret_cast<long*>(static_cast<char*>(memory_.get()) + kLine * static_cast<std::size_t>(rank));
  }
  std::array<int, 2> neighbour_;  // below, above (-1: none)
  std::shared_ptr<void> memory_;  // the ranks' counts
  long* mine_;
  long steps_ = 0;  // steps sent
  bool pending_ = false;
};

}  // namespace immerse
