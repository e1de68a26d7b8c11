#pragma once
// Versions recorded in every result.json and printed by `immerse info`.
#include <nlohmann/json.hpp>
#include <string>

namespace immerse {

std::string immerse_version();
std::string git_hash();  // at configure time; "unknown" outside a git checkout
std::string kokkos_version();
std::string compiler_version();
// The x86 vector extensions the host code was compiled for (IMMERSE_NATIVE_ARCH: this machine's),
// e.g. "AVX2, FMA, F16C": the host kernels' widths, and binary16's path (lbm_half_run.hpp), follow it.
std::string simd_extensions();
// {"immerse", "git", "kokkos", "compiler", "simd"}
nlohmann::json versions_json();

}  // namespace immerse
