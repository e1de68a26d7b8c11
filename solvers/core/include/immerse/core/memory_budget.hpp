#pragma once
// Refuses a run whose fields do not fit before anything is allocated: a lattice or grid the schema
// allows (4096^3 cells, 16384^2) can need terabytes, and an allocation that fails half-way (or the
// kernel's OOM killer) says nothing useful. Solver factories call require_memory with a lower bound
// of what they are about to allocate.
#include <cstdint>
#include <string>

#include "immerse/core/backend_id.hpp"

namespace immerse {

// Bytes the backend can still allocate: free device memory on CUDA, the host's MemAvailable
// (/proc/meminfo) otherwise. The environment variable IMMERSE_MEMORY_LIMIT (bytes, or with a K, M
// or G suffix) lowers it, e.g. to keep a run inside a share of a common machine. 0 when unknown.
std::uint64_t available_memory(Backend b);

// Throws InputError (exit 2) when `bytes` exceeds available_memory(b): "<what> needs 52.1 GiB of
// <backend> memory; 23.1 GiB is available". Nothing happens when the available size is unknown.
void require_memory(Backend b, double bytes, const std::string& what);

// "52.1 GiB", "310 MiB", "12 KiB", "100 B".
std::string format_bytes(double bytes);

}  // namespace immerse
