#include "immerse/core/node_shared.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "immerse/core/error.hpp"
#include "immerse/core/huge_pages.hpp"
#include "immerse/core/memory_budget.hpp"

namespace immerse {

bool node_has_room(Comm& comm, const double bytes, const std::string& what) {
  const double room = comm.shared_memory_room();
  const bool fits = room >= 1.01 * bytes + (16 << 20);
  if (!fits && comm.rank() == 0)
    fmt::print(stderr,
               "immerse: the ranks' shared memory (/dev/shm) has {} free, {} needs {}: the ranks exchange "
               "ghost layers instead of sharing it (docs/mpi.md)\n",
               format_bytes(room), what, format_bytes(bytes));
  return fits;
}

NodeSharing node_sharing_from_env() {
  const char* v = std::getenv("IMMERSE_SHARE_LATTICE");
  const std::string value = v ? v : "";
  if (value.empty() || value == "auto") return NodeSharing::automatic;
  if (value == "always") return NodeSharing::always;
  if (value == "never") return NodeSharing::never;
  throw InputError(fmt::format("IMMERSE_SHARE_LATTICE={}: allowed values are auto, always and never", value));
}

double shared_huge_page_share(Comm& comm) {
  const std::size_t part = std::size_t(4) << 20;
  const auto window = comm.shared_memory(part * comm.size());
  char* const mine = static_cast<char*>(window.get()) + part * comm.rank();
  collapse_huge_pages(mine, part);
  std::memset(mine, 0, part);
  return -comm.max(-huge_page_share(mine + part / 2));
}

void NodeSharedFields::check_pages(Comm& comm, const void* own, const double bytes) {
  static std::atomic<bool> said{false};
  if (comm.rank() != 0 || bytes < double(64 << 20) || said || huge_page_share(own) >= 0.5) return;
  said = true;
  fmt::print(stderr,
             "immerse: the ranks' shared lattice lies in 4 KiB pages: this node's kernel made no 2 MiB ones "
             "of its shared memory (Linux 6.1 or later makes them; on older ones `mount -o remount,huge=advise "
             "/dev/shm` lets it have them; docs/mpi.md), which can slow its steps\n");
}

}  // namespace immerse
