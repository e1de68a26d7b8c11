// Fuzz target for the case-file path: the input is a case file's text, optionally followed by a line
// "#--set" and then one `key=value` override per line (as `immerse run --set`). The text is parsed,
// merged over its "base", resolved against the solver's schema with the overrides, and every string
// of the resolved case is compiled as a muparser formula and evaluated at a point.
// Bad input must end in InputError (the program's exit 2); a crash, a sanitizer report, a hang or
// any other exception is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "immerse/cases/case_library.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"

namespace {

using immerse::json;

void evaluate_strings(const json& j, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) evaluate_strings(v, key + "." + k);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) evaluate_strings(j[i], key + "[" + std::to_string(i) + "]");
  } else if (j.is_string()) {
    try {
      const immerse::Expression e(j.get<std::string>(), key);
      e(0.5, 0.25, 0.125, 0.0);
    } catch (const immerse::InputError&) {
      // not a formula, or one that fails at this point: the program reports it as bad input
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n#--set\n";
  const std::size_t split = input.find(marker);
  std::vector<std::string> sets;
  if (split != std::string::npos) {
    std::size_t at = split + marker.size();
    while (at < input.size()) {
      const std::size_t end = std::min(input.find('\n', at), input.size());
      sets.push_back(input.substr(at, end - at));
      at = end + 1;
    }
  }
  const std::string path = immerse::fuzz::write_input("case.json", input.substr(0, split));
  try {
    const immerse::cases::CaseDoc doc = immerse::cases::load_case(path);
    evaluate_strings(immerse::cases::resolve_case(doc, sets), "");
  } catch (const immerse::InputError&) {
    // rejected with a message: what bad input must get
  }
  return 0;
}
