#pragma once
// Counterexamples: a case's declared wrong models. Each names the overrides that make the model wrong
// in a stated way (another viscosity, the staircase instead of the boundary map, Langevin off, ...) and
// the checks of which at least one must then FAIL. Running them shows which checks can tell the
// paper's model from a wrong one: the discrimination matrix (checks x counterexamples).
#include <string>
#include <vector>

#include "immerse/cases/runner.hpp"

namespace immerse::cases {

struct CounterexampleResult {
  std::string name, why;
  std::vector<std::string> sets;   // the overrides that make the model wrong
  std::vector<std::string> fails;  // checks of which at least one must fail
  std::vector<Check> checks;       // as the wrong model measured them (empty when its run failed)
  std::string error;               // the wrong model's run stopped with this error (unstable, ...)
  // The suite tells this wrong model apart: its run failed, or a named check failed.
  bool caught() const;
};

struct Discrimination {
  std::string case_name, paper;
  std::string form;               // "short" (the case's "short" overrides) or "full"
  std::vector<std::string> sets;  // the overrides every run shared (short form, then --set)
  std::vector<Check> reference;   // the case's checks, right model, same form
  std::vector<CounterexampleResult> counterexamples;
  bool reference_passes() const;
  bool all_caught() const;
  // The reference's checks that no counterexample makes fail.
  std::vector<std::string> undemonstrated() const;
};

// The counterexamples a case declares ("counterexamples" key), with its "short" form unless `full`.
// Runs the right model, then each wrong one, into req.out_dir/<reference|name>/; writes
// req.out_dir/discrimination.json. InputError when a counterexample names a check the case lacks.
Discrimination run_counterexamples(const RunRequest& req, bool full);

// Does the case (as loaded, bases merged) declare counterexamples?
bool has_counterexamples(const CaseDoc& doc);

json to_json(const Discrimination& d);
Discrimination discrimination_from_json(const json& j);

// Text as a Markdown table cell: a '|' in it (|div u|) must not end the cell.
std::string markdown_cell(const std::string& text);

// Terminal summary: one line per counterexample, then the matrix.
void print_discrimination(const Discrimination& d);
// Markdown: the matrix (rows: checks with their kind; columns: counterexamples; FAIL where the wrong
// model is caught, bold where the counterexample names the check), then the undemonstrated checks.
std::string discrimination_markdown(const Discrimination& d);

}  // namespace immerse::cases
