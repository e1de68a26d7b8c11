#include "immerse/cases/case_library.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "immerse/cases/simulation.hpp"
#include "immerse/core/error.hpp"

namespace immerse::embedded {
const std::vector<std::pair<std::string, std::string>>& case_files();
const std::vector<std::pair<std::string, std::string>>& reference_files();
}  // namespace immerse::embedded

namespace immerse::cases {
namespace {

json parse(const std::string& text, const std::string& source) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports the byte offset; turn it into a line number for humans.
    const size_t at = std::min<size_t>(e.byte, text.size());
    const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
    throw InputError(fmt::format("{}: line {}: malformed JSON: {}", source, line, e.what()));
  }
}

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace

std::vector<CaseDoc> canned_cases() {
  std::vector<CaseDoc> out;
  for (const auto& [rel, text] : embedded::case_files())
    out.push_back({stem(rel), "cases/" + rel, parse(text, "cases/" + rel)});
  return out;
}

CaseDoc load_case(const std::string& name_or_path) {
  const bool ends_json = name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".json") == 0;
  const bool looks_like_path = name_or_path.find('/') != std::string::npos || ends_json;
  if (looks_like_path || std::filesystem::is_regular_file(name_or_path)) {
    std::ifstream in(name_or_path);
    if (!in) throw InputError(fmt::format("{}: cannot read the case file", name_or_path));
    std::stringstream ss;
    ss << in.rdbuf();
    return {stem(name_or_path), name_or_path, parse(ss.str(), name_or_path)};
  }
  std::string names;
  for (auto& c : canned_cases()) {
    if (c.name == name_or_path) return c;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  throw InputError(fmt::format("'{}' is neither a canned case nor a case file; canned cases: {}", name_or_path, names));
}

std::string reference_data(const std::string& name) {
  for (const auto& [rel, text] : embedded::reference_files())
    if (rel == name) return text;
  throw Error("reference data '" + name + "' is not compiled in", 1);
}

Schema case_schema(const std::string& solver) {
  const SolverEntry* entry = nullptr;
  std::vector<std::string> solvers;
  for (const auto& e : solver_registry()) {
    solvers.push_back(e.name);
    if (e.name == solver) entry = &e;
  }
  Schema output;
  output.integer("frames", 0, 0, 100000, "VTK frames written over the run (0: none)")
      .integer("series_every", 0, 0, 1e10, "steps between rows of series.csv (0: about 200 rows)")
      .number("height_scale", 1.0, -1e12, 1e12, "", "display height z = p x height_scale (the patent's surface)");
  Schema s;
  s.string("case", "", "case name (defaults to the file name)")
      .string("paper", "", "seed file of the paper reproduced")
      .string("experiment", "", "what the case reproduces")
      .string("description", "", "free text")
      .choice("solver", json(), solvers, "solver family")
      .choice("scene", "generic", entry ? entry->scene_names() : std::vector<std::string>{"generic"},
              "scene code adding metrics/checks (generic: the solver's own metrics)")
      .free_object("units", "free-text statement of the units used")
      .free_object("quick",
                   "overrides {\"key\": value} applied by --quick: a short run of the same case "
                   "(backend comparison, smoke tests); its checks are not expected to pass")
      .object("output", output, "what is written besides result.json");
  if (entry) s.merge(entry->schema());
  return s;
}

json resolve_case(const CaseDoc& c, const std::vector<std::string>& sets, bool quick) {
  json doc = c.doc;
  if (!doc.is_object()) throw InputError(c.source + ": expected a JSON object at the top level");
  // Overrides first (they may even change the solver), then the schema of the chosen solver. The
  // case's quick overrides come before --set, so --set still wins.
  std::vector<std::string> all_sets;
  if (quick && doc.contains("quick") && doc["quick"].is_object())
    for (const auto& [key, value] : doc["quick"].items())
      all_sets.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  all_sets.insert(all_sets.end(), sets.begin(), sets.end());
  for (const auto& set : all_sets) {
    const std::string solver = doc.value("solver", "");
    apply_override(doc, case_schema(solver), set);
  }
  if (!doc.contains("solver") || !doc["solver"].is_string()) {
    std::string names;
    for (const auto& e : solver_registry()) names += (names.empty() ? "" : "|") + e.name;
    throw InputError(c.source + ": key 'solver': required, one of " + names);
  }
  json r = case_schema(doc["solver"].get<std::string>()).resolve(doc, c.source);
  if (r["case"] == "") r["case"] = c.name;
  return r;
}

}  // namespace immerse::cases
