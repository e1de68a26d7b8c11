#pragma once
// Canned cases (compiled into the program from cases/<paper>/*.json) and case files given by path.
#include <string>
#include <vector>

#include "immerse/core/schema.hpp"

namespace immerse::cases {

struct CaseDoc {
  std::string name;    // case name (canned) or file stem
  std::string source;  // file name for messages ("cases/patent/channel.json" or the user's path)
  json doc;            // as parsed and merged over its "base", before overrides and schema checks
};

std::vector<CaseDoc> canned_cases();
// A canned case name or a path to a .json file; InputError when neither (listing the canned names).
// A case with "base": "<canned case or file>" is returned merged over its base (see case_library.cpp).
CaseDoc load_case(const std::string& name_or_path);
// Reference data compiled in from validation/reference/<name> (CSV with a "# source:" header).
std::string reference_data(const std::string& name);

// The full schema of a case: common keys (case, paper, experiment, solver, scene, units, output)
// plus the solver family's keys.
Schema case_schema(const std::string& solver);
// An overrides object {"key": value} ("quick", "short", a counterexample's "set") as --set
// assignments "key=value".
std::vector<std::string> overrides_as_sets(const json& overrides);
// A name that can name a run's folder: letters, digits, '_' and '-' (counterexamples, alternatives).
bool valid_folder_name(const std::string& name);

// A model the case could run instead, declared under "alternatives": the paper's form where the case
// runs another one (with the measured reason in the paper's docs), or a choice worth seeing beside
// it. `immerse report` runs each in full beside the case and shows both.
struct Alternative {
  std::string name, why;
  std::vector<std::string> sets;  // the overrides that select it
};
// The case's alternatives (resolved: schema-checked), in the order declared.
std::vector<Alternative> alternatives(const CaseDoc& c);

// Applies the case's own "quick" overrides (when `quick`), then --set overrides, checks every key,
// returns the resolved parameters.
json resolve_case(const CaseDoc& c, const std::vector<std::string>& sets, bool quick = false);

}  // namespace immerse::cases
