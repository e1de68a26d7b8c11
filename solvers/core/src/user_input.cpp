#include "immerse/core/user_input.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "immerse/core/error.hpp"

namespace immerse {

std::string read_input_file(const std::string& path, const std::string& what, std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(fmt::format("{}: cannot read the {}: no such file", path, what));
  if (!fs::is_regular_file(st)) throw InputError(fmt::format("{}: the {} is not a regular file", path, what));
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read the {}: {}", path, what, ec.message()));
  if (size > max_bytes)
    throw InputError(fmt::format("{}: the {} has {} bytes; at most {} are allowed", path, what, size, max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read the {}", path, what));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string describe_json(const nlohmann::json& value) {
  std::string s = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

const std::string& require_utf8(const std::string& text, const std::string& where) {
  try {
    (void)nlohmann::json(text).dump();
  } catch (const nlohmann::json::type_error&) {
    throw InputError(fmt::format("{}: not valid UTF-8 text", where));
  }
  return text;
}

nlohmann::json parse_json_input(const std::string& text, const std::string& where) {
  using json = nlohmann::json;
  const json::parser_callback_t limit_depth = [&](int depth, json::parse_event_t, json&) {
    if (depth > kMaxJsonDepth)
      throw InputError(fmt::format("{}: JSON nested more than {} levels deep", where, kMaxJsonDepth));
    return true;
  };
  try {
    return json::parse(text, limit_depth);
  } catch (const json::out_of_range& e) {
    // A number beyond double's range (1e999): nlohmann stops with out_of_range, not parse_error.
    throw InputError(fmt::format("{}: a number beyond the range of double (about 1.8e308): {}", where, e.what()));
  }
}

}  // namespace immerse
