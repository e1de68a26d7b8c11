#include "immerse/core/memory_budget.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "immerse/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace immerse {
namespace {

std::uint64_t host_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    std::uint64_t kib = 0;
    if (s >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::uint64_t device_available(Backend b) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == Backend::cuda) {
    std::size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) return free_bytes;
    return 0;
  }
#endif
  (void)b;
  return host_available();
}

// IMMERSE_MEMORY_LIMIT: "2000000", "512M", "4G"; 0 (no limit) when unset.
std::uint64_t limit_from_environment() {
  const char* text = std::getenv("IMMERSE_MEMORY_LIMIT");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  double scale = 1;
  if (end && *end) {
    switch (std::toupper(static_cast<unsigned char>(*end))) {
      case 'K':
        scale = 1024.0;
        break;
      case 'M':
        scale = 1024.0 * 1024;
        break;
      case 'G':
        scale = 1024.0 * 1024 * 1024;
        break;
      default:
        scale = 0;
    }
    if (scale > 0 && end[1] != '\0') scale = 0;
  }
  if (!(value > 0) || scale == 0)
    throw InputError(
        fmt::format("environment variable IMMERSE_MEMORY_LIMIT: '{}' is not a size; allowed: a "
                    "positive number of bytes, optionally followed by K, M or G",
                    text));
  return static_cast<std::uint64_t>(value * scale);
}

}  // namespace

std::uint64_t available_memory(Backend b) {
  const std::uint64_t found = device_available(b), limit = limit_from_environment();
  if (limit == 0) return found;
  if (found == 0) return limit;
  return std::min(found, limit);
}

void require_memory(Backend b, double bytes, const std::string& what) {
  const std::uint64_t available = available_memory(b);
  if (available == 0 || bytes <= static_cast<double>(available)) return;
  throw InputError(fmt::format("{} needs at least {} of {} memory; {} is available", what, format_bytes(bytes),
                               to_string(b), format_bytes(static_cast<double>(available))));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) {
    bytes /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.3g} {}", bytes, units[u]);
}

}  // namespace immerse
