// The report's "Validation that can fail" section: per paper, each case's checks against its declared
// wrong models (counterexamples), so a reader sees which checks can tell the paper's model apart.
#include <fmt/format.h>

#include <set>

#include "immerse/reports/report.hpp"

namespace immerse::reports {

std::string discrimination_section(const ReportContext& ctx) {
  std::string md =
      "## Validation that can fail\n\nEach case declares wrong models (`counterexamples` in its JSON: another "
      "viscosity, the baseline method, an effect switched off) and the checks that must then fail. Run in the "
      "case's short form (`immerse validate CASE --counterexamples`): FAIL marks a check that catches the wrong "
      "model, bold a check the counterexample names. A check no counterexample breaks is listed as "
      "undemonstrated: its pass alone shows little.\n\n";
  std::set<std::string> papers;
  for (const auto& [name, d] : ctx.discrimination) papers.insert(d.paper);
  if (papers.empty() && ctx.discrimination_errors.empty()) return md + "No case declares counterexamples.\n\n";
  for (const auto& paper : papers) {
    md += fmt::format("### {} (docs/{}.md)\n\n", paper, paper);
    for (const auto& [name, d] : ctx.discrimination)
      if (d.paper == paper) md += discrimination_markdown(d) + "\n";
  }
  for (const auto& [name, error] : ctx.discrimination_errors)
    md += fmt::format("- `{}`: the counterexamples did not run: {}\n", name, error);
  return md + "\n";
}

}  // namespace immerse::reports
