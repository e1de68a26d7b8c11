#pragma once
// Runs one case: resolves it, builds the simulation on the chosen backend, steps it with progress
// and Ctrl-C handling, writes result.json, series.csv and VTK frames into the output directory.
#include <string>
#include <vector>

#include "immerse/cases/case_library.hpp"
#include "immerse/cases/simulation.hpp"

namespace immerse::cases {

struct RunRequest {
  std::string case_name;          // canned name or path
  std::vector<std::string> sets;  // --set key=value
  std::string out_dir;            // empty: runs/<case>/<timestamp>/
  bool quick = false;             // apply the case's "quick" overrides (a short run)
  long checkpoint_every = -1;     // --checkpoint-every (-1: the case's output.checkpoint_every)
  std::string resume_dir;         // --resume: continue the run in this folder from its newest checkpoint
  bool backend_given = false;     // --backend was on the command line (a resumed run must match it)
  RunOptions options;
};

struct RunOutcome {
  json result;  // the content of result.json
  std::vector<Check> checks;
  std::string out_dir;
  bool interrupted = false;
};

RunOutcome run_case(const RunRequest& req);

// Writes `j` to `path` through a temporary file and a rename: never a half-written file.
void write_json(const std::string& path, const json& j);

// Prints the checks as a table; returns true when all pass.
bool print_checks(const std::vector<Check>& checks);

}  // namespace immerse::cases
