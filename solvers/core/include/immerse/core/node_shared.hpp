#pragma once
// Lattice fields that the ranks of one node share (Comm::shared_memory) and update where they lie:
// each rank updates its own range of every field (its z planes, its rows), zeroes that range first
// so that its pages are placed near the rank's core, in 2 MiB pages where the kernel makes them
// (collapse_huge_pages), and writes only that range to a checkpoint. Host memory: the ranks of a
// host backend share it.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "immerse/core/comm.hpp"
#include "immerse/core/huge_pages.hpp"
#include "immerse/core/state_archive.hpp"

namespace immerse {

// Whether the ranks of one node share a lattice where they can (docs/mpi.md): as the lattice's
// solver decides (automatic), wherever they can, whatever pages their shared memory gets (always),
// or never (ghost layers and messages, as between nodes).
enum class NodeSharing { automatic, always, never };
// The environment's choice: IMMERSE_SHARE_LATTICE = auto | always | never (unset: automatic);
// InputError (exit 2) naming the variable and the allowed values for anything else.
NodeSharing node_sharing_from_env();

// The least share, over the ranks, of a probe of the node's shared memory (Comm::shared_memory, 4
// MiB per rank, each rank making its part as NodeSharedFields does) that lies in 2 MiB pages.
// Collective.
double shared_huge_page_share(Comm& comm);

// Whether the node's shared memory has room for `bytes` of lattice fields (Comm::shared_memory_room,
// with a margin for the files' rounding to whole 2 MiB pages); where it has not, rank 0 says so, naming `what`
// (a container's small /dev/shm), and the ranks are to exchange ghost layers instead. Collective.
bool node_has_room(Comm& comm, double bytes, const std::string& what);

// Values [from, from + count) of each block of a field: the part one rank updates.
struct OwnRange {
  long from = 0, count = 0;
};

class NodeSharedFields {
 public:
  // `blocks` blocks of `block` values of T, zeroed in `own` of every block; the other ranks zero
  // theirs (a barrier after the last field ends that). Collective: every rank makes the same
  // fields in the same order.
  template <class T>
  T* make(Comm& comm, long blocks, long block, OwnRange own) {
    memory_.push_back(comm.shared_memory(static_cast<std::size_t>(blocks * block) * sizeof(T)));
    T* const base = static_cast<T*>(memory_.back().get());
    // Every page made huge before anyone writes (a page cannot be collapsed while another rank
    // faults part of it in): each rank the pages that begin in its ranges, then the one holding a
    // range's first byte, where that began in no rank's range (padding between blocks).
    for (long b = 0; b < blocks && own.count > 0; ++b)
      collapse_huge_pages(base + b * block + own.from, static_cast<std::size_t>(own.count) * sizeof(T));
    comm.barrier();
    for (long b = 0; b < blocks && own.count > 0; ++b) collapse_huge_page_at(base + b * block + own.from);
    comm.barrier();
    for (long b = 0; b < blocks; ++b) std::fill_n(base + b * block + own.from, own.count, T{});
    if (own.count > 0)
      check_pages(comm, base + own.from + own.count / 2, static_cast<double>(blocks * block) * sizeof(T));
    return base;
  }

 private:
  // Rank 0, once per process, for a field of 64 MiB or more whose own values lie in 4 KiB pages
  // (`own`: the middle one): says that the node's shared memory got no huge pages, and how to let
  // it have them.
  static void check_pages(Comm& comm, const void* own, double bytes);
  std::vector<std::shared_ptr<void>> memory_;  // this rank's mappings, let go with the owner
};

// The range `own` of every one of the `blocks` blocks of `block` values at `data`, to or from a
// checkpoint entry `name` (the other ranks' entries hold theirs).
template <class T>
void archive_own_range(StateArchive& a, const std::string& name, T* data, long blocks, long block, OwnRange own) {
  std::vector<T> mine(static_cast<std::size_t>(blocks * own.count));
  if (!a.loading())
    for (long b = 0; b < blocks; ++b) std::copy_n(data + b * block + own.from, own.count, mine.data() + b * own.count);
  a.bytes(name, mine.data(), mine.size() * sizeof(T));
  if (a.loading())
    for (long b = 0; b < blocks; ++b) std::copy_n(mine.data() + b * own.count, own.count, data + b * block + own.from);
}

}  // namespace immerse
