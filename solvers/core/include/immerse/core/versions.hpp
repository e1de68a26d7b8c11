#pragma once
// Versions recorded in every result.json and printed by `immerse info`.
#include <nlohmann/json.hpp>
#include <string>

namespace immerse {

std::string immerse_version();
std::string git_hash();  // at configure time; "unknown" outside a git checkout
std::string kokkos_version();
std::string compiler_version();
// {"immerse", "git", "kokkos", "compiler"}
nlohmann::json versions_json();

}  // namespace immerse
