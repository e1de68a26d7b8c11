#include "immerse/cases/case_library.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "immerse/cases/solver_keys.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/user_input.hpp"

namespace immerse::embedded {
const std::vector<std::pair<std::string, std::string>>& case_files();
const std::vector<std::pair<std::string, std::string>>& reference_files();
}  // namespace immerse::embedded

namespace immerse::cases {
namespace {

json parse(const std::string& text, const std::string& source) {
  try {
    return parse_json_input(text, source);
  } catch (const json::parse_error& e) {
    // nlohmann reports the byte offset; turn it into a line number for humans.
    const size_t at = std::min<size_t>(e.byte, text.size());
    const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
    throw InputError(fmt::format("{}: line {}: malformed JSON: {}", source, line, e.what()));
  }
}

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

bool looks_like_path(const std::string& s) {
  const bool ends_json = s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0;
  return s.find('/') != std::string::npos || ends_json;
}

// The canned case files as parsed, before their bases are merged in.
std::vector<CaseDoc> raw_canned_cases() {
  std::vector<CaseDoc> out;
  for (const auto& [rel, text] : embedded::case_files())
    out.push_back({stem(rel), "cases/" + rel, parse(text, "cases/" + rel)});
  return out;
}

// A case file is a few kB; 16 MiB leaves room for long inline tables.
constexpr std::uintmax_t kMaxCaseFileBytes = 16u << 20;

CaseDoc read_case_file(const std::string& path) {
  return {stem(path), path, parse(read_input_file(path, "case file", kMaxCaseFileBytes), path)};
}

// "base": the case a file extends, a canned case name or a file path (relative to the extending
// file). The extending file's keys are merged over the base's: objects key by key, anything else
// replaced (JSON merge patch, RFC 7386: null deletes a key). So a variant states only what differs.
constexpr int kMaxBaseDepth = 8;

json merge_base(const json& doc, const std::string& source, const std::vector<CaseDoc>& canned, int depth = 0) {
  if (!doc.is_object() || !doc.contains("base")) return doc;
  if (!doc["base"].is_string())
    throw InputError(source + ": key 'base': expected a canned case name or a case file path, got " +
                     describe_json(doc["base"]));
  if (depth >= kMaxBaseDepth)
    throw InputError(fmt::format("{}: key 'base': more than {} levels of bases (does a case extend itself?)", source,
                                 kMaxBaseDepth));
  const std::string name = doc["base"];
  CaseDoc base;
  if (looks_like_path(name)) {
    const std::filesystem::path p(name);
    base = read_case_file(p.is_absolute() ? name : (std::filesystem::path(source).parent_path() / p).string());
  } else {
    const auto c = std::find_if(canned.begin(), canned.end(), [&](const CaseDoc& d) { return d.name == name; });
    if (c == canned.end())
      throw InputError(fmt::format("{}: key 'base': '{}' is neither a canned case nor a case file", source, name));
    base = *c;
  }
  json merged = merge_base(base.doc, base.source, canned, depth + 1);
  if (!merged.is_object()) throw InputError(base.source + ": expected a JSON object at the top level");
  merged.erase("case");  // the variant is a case of its own
  json own = doc;
  own.erase("base");
  merged.merge_patch(own);
  return merged;
}

// One declared wrong model of a case: the overrides that break the model in a stated way and the
// checks of which at least one must then fail.
Schema counterexample_schema() {
  Schema c;
  c.string("name", json(), "identifier (letters, digits, _ and -: it names the run's folder)")
      .string("why", json(), "how the model is wrong, in a few words")
      .free_object("set", "overrides {\"key\": value} that make the model wrong")
      .strings("fails", json(), "the checks (by quantity) of which at least one must fail");
  return c;
}

Schema alternative_schema() {
  Schema a;
  a.string("name", json(), "identifier (letters, digits, _ and -: it names the run's folder)")
      .string("why", json(), "what it is and how it differs from the case's model, in a few words")
      .free_object("set", "overrides {\"key\": value} that select it");
  return a;
}

}  // namespace

std::vector<CaseDoc> canned_cases() {
  const std::vector<CaseDoc> raw = raw_canned_cases();
  std::vector<CaseDoc> out;
  for (const auto& c : raw) out.push_back({c.name, c.source, merge_base(c.doc, c.source, raw)});
  return out;
}

CaseDoc load_case(const std::string& name_or_path) {
  if (looks_like_path(name_or_path) || std::filesystem::is_regular_file(name_or_path)) {
    CaseDoc c = read_case_file(name_or_path);
    c.doc = merge_base(c.doc, c.source, raw_canned_cases());
    return c;
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
  const SolverKeys* entry = nullptr;
  std::vector<std::string> solvers;
  for (const auto& e : solver_keys()) {
    solvers.push_back(e.name);
    if (e.name == solver) entry = &e;
  }
  Schema output;
  output.integer("frames", 0, 0, 100000, "VTK frames written over the run (0: none)")
      .integer("series_every", 0, 0, 1e10, "steps between rows of series.csv (0: about 200 rows)")
      .number("height_scale", 1.0, -1e12, 1e12, "", "display height z = p x height_scale (the patent's surface)")
      .integer("checkpoint_every", 0, 0, 1e12,
               "steps between checkpoints (0: none); `immerse run --resume DIR` continues from the newest");
  Schema s;
  s.string("case", "", "case name (defaults to the file name)")
      .string("paper", "", "the paper reproduced (its page: docs/<paper>.md)")
      .string("experiment", "", "what the case reproduces")
      .string("description", "", "free text")
      .choice("solver", json(), solvers, "solver family")
      .choice("scene", "generic", entry ? entry->scenes : std::vector<std::string>{"generic"},
              "scene code adding metrics/checks (generic: the solver's own metrics)")
      .free_object("units", "free-text statement of the units used")
      .free_object("quick",
                   "overrides {\"key\": value} applied by --quick: a short run of the same case "
                   "(backend comparison, smoke tests); its checks are not expected to pass")
      .free_object("short",
                   "overrides {\"key\": value} for a shorter run on which the checks still pass: the form "
                   "`immerse validate --counterexamples` and the tests run")
      .free_object("deviations",
                   "{\"check quantity\": \"measured reason\"}: checks known to fail, shown as FAIL (deviation) "
                   "without failing the run (a listed check that passes does)")
      .list("counterexamples", counterexample_schema(),
            "wrong models the checks must tell apart (`immerse validate CASE --counterexamples`)")
      .list("alternatives", alternative_schema(),
            "other models shown beside the case by `immerse report` (the paper's form where ours differs)")
      .object("output", output, "what is written besides result.json");
  if (entry) s.merge(entry->schema());
  return s;
}

std::vector<std::string> overrides_as_sets(const json& overrides) {
  std::vector<std::string> out;
  for (const auto& [key, value] : overrides.items())
    out.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  return out;
}

bool valid_folder_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::vector<Alternative> alternatives(const CaseDoc& c) {
  std::vector<Alternative> out;
  if (!c.doc.contains("alternatives")) return out;
  const json resolved = resolve_case(c, {});
  for (const auto& a : resolved["alternatives"]) {
    const std::string name = a["name"];
    if (!valid_folder_name(name))
      throw InputError(fmt::format(
          "{}: alternatives: '{}': key 'name': letters, digits, '_' and '-' only (it names a folder)", c.source, name));
    out.push_back({name, a["why"], overrides_as_sets(a["set"])});
  }
  return out;
}

json resolve_case(const CaseDoc& c, const std::vector<std::string>& sets, bool quick) {
  json doc = c.doc;
  if (!doc.is_object()) throw InputError(c.source + ": expected a JSON object at the top level");
  // Overrides first (they may even change the solver), then the schema of the chosen solver. The
  // case's quick overrides come before --set, so --set still wins.
  std::vector<std::string> all_sets;
  if (quick && doc.contains("quick") && doc["quick"].is_object()) all_sets = overrides_as_sets(doc["quick"]);
  all_sets.insert(all_sets.end(), sets.begin(), sets.end());
  auto require_solver = [&] {
    if (doc.contains("solver") && doc["solver"].is_string()) return;
    std::string names;
    for (const auto& e : solver_keys()) names += (names.empty() ? "" : "|") + e.name;
    throw InputError(c.source + ": key 'solver': required, one of " + names);
  };
  for (const auto& set : all_sets) {
    // An override may set "solver" to something other than a name: say so before the next one.
    if (doc.contains("solver")) require_solver();
    apply_override(doc, case_schema(doc.value("solver", "")), set);
  }
  require_solver();
  json r = case_schema(doc["solver"].get<std::string>()).resolve(doc, c.source);
  if (r["case"] == "") r["case"] = c.name;
  return r;
}

}  // namespace immerse::cases
