#pragma once
// Reading what a user hands the program (a case file, a mesh, a --set value) so that hostile or
// broken input is a clear InputError, never a hang, a crash or an unbounded allocation.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace immerse {

// The whole file, if it is a regular file of at most max_bytes. `what` names it in messages
// ("case file", "OBJ mesh").
std::string read_input_file(const std::string& path, const std::string& what, std::uintmax_t max_bytes);

// Case files nest a few levels (obstacles.0.a, counterexamples.N.set); deeper nesting is refused
// while parsing, because copying or merging a deeply nested document recurses once per level.
inline constexpr int kMaxJsonDepth = 32;

// JSON text parsed with at most kMaxJsonDepth levels of nesting. Throws nlohmann's parse_error for
// malformed text (callers add the line) and InputError, naming `where`, for deeper nesting.
nlohmann::json parse_json_input(const std::string& text, const std::string& where);

// A value as a message shows it: JSON, invalid UTF-8 replaced, cut to about 60 characters.
std::string describe_json(const nlohmann::json& value);

// `text` itself, if it is valid UTF-8 (everything written to result.json must be); else InputError
// naming `where`.
const std::string& require_utf8(const std::string& text, const std::string& where);

}  // namespace immerse
