#include "immerse/core/versions.hpp"

#include "immerse/core/comm.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#ifndef IMMERSE_VERSION
#define IMMERSE_VERSION "unknown"
#endif
#include "immerse_git_hash.hpp"  // generated at build time (cmake/GitHash.cmake)

namespace immerse {

std::string immerse_version() { return IMMERSE_VERSION; }
std::string git_hash() { return IMMERSE_GIT_HASH; }

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;  // e.g. 30401
  return fmt::format("{}.{}.{:02d}", v / 10000, (v / 100) % 100, v % 100);
}

std::string compiler_version() {
#if defined(__clang__)
  return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  std::string s = fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#if defined(__CUDACC__)
  s += fmt::format(" + nvcc {}.{}", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
#endif
  return s;
#else
  return "unknown";
#endif
}

std::string simd_extensions() {
  std::string s;
  auto add = [&s](const char* x) { s += (s.empty() ? "" : ", ") + std::string(x); };
#if defined(__AVX512F__)
  add("AVX-512F");
#endif
#if defined(__AVX512BW__)
  add("AVX-512BW");
#endif
#if defined(__AVX512VL__)
  add("AVX-512VL");
#endif
#if defined(__AVX2__)
  add("AVX2");
#endif
#if defined(__FMA__)
  add("FMA");
#endif
#if defined(__F16C__)
  add("F16C");
#endif
#if defined(__SSE2__)
  if (s.empty()) add("SSE2");
#endif
  return s.empty() ? "none known" : s;
}

nlohmann::json versions_json() {
  nlohmann::json v = {{"immerse", immerse_version()},
                      {"git", git_hash()},
                      {"kokkos", kokkos_version()},
                      {"compiler", compiler_version()},
                      {"simd", simd_extensions()}};
  if (mpi_built()) v["mpi"] = mpi_library();
  return v;
}

}  // namespace immerse
