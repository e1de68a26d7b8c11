#pragma once
// A JSON document written where a test's fixture expects it, its folders created.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace immerse::test {

inline void write_json_file(const std::filesystem::path& p, const nlohmann::json& j) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << j.dump();
}

}  // namespace immerse::test
