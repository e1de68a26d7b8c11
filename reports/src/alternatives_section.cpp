// A case beside the alternative models it declares ("alternatives" in the case file): one column per
// model, a row per scalar metric the case reports and per check.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "immerse/reports/report.hpp"

namespace immerse::reports {
namespace {

std::string value_cell(const json& metrics, const std::string& key) {
  if (!metrics.contains(key)) return "-";
  const json& v = metrics[key];
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return fmt::format("{:.4g}", v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return "-";
}

std::string check_cell(const std::vector<cases::Check>& checks, const std::string& quantity) {
  for (const auto& c : checks)
    if (c.quantity == quantity) return fmt::format("{:.4g} {}", c.ours, c.pass() ? "pass" : "**FAIL**");
  return "-";
}

}  // namespace

std::string alternatives_markdown(const ReportContext& ctx, const std::string& case_name) {
  const auto alts = ctx.alternatives.find(case_name);
  const auto ref = ctx.runs.find(case_name);
  if (alts == ctx.alternatives.end() || alts->second.empty() || ref == ctx.runs.end() || !ref->second.error.empty())
    return "";
  std::string md = fmt::format("#### `{}` beside its alternative models\n\n", case_name);
  for (const auto& a : alts->second)
    md += fmt::format("- `{}` ({}): {}{}\n", a.model.name, fmt::join(a.model.sets, ", "), a.model.why,
                      a.run.error.empty() ? "" : fmt::format(". **Its run stopped:** {}", a.run.error));
  md += fmt::format("\n| | `{}` (the case)", case_name);
  std::string rule = "|---|---";
  for (const auto& a : alts->second) md += fmt::format(" | `{}`", a.model.name), rule += "|---";
  md += " |\n" + rule + "|\n";
  // Scalar metrics, and the scalars of objects one level down (a seed ensemble's medians) as "object.key".
  const json& metrics = ref->second.result["metrics"];
  auto row = [&](const std::string& label, const json& ours, const std::string& key, const std::string& group) {
    md += fmt::format("| {} | {}", label, value_cell(ours, key));
    for (const auto& a : alts->second) {
      const json& theirs = a.run.result["metrics"];
      const bool has = a.run.error.empty() && (group.empty() || theirs.contains(group));
      md += " | " + (has ? value_cell(group.empty() ? theirs : theirs[group], key) : std::string("-"));
    }
    md += " |\n";
  };
  for (const auto& [key, value] : metrics.items()) {
    if (value.is_object()) {
      for (const auto& [sub, v] : value.items())
        if (v.is_number() || v.is_boolean() || v.is_string()) row(key + "." + sub, value, sub, key);
    } else if (value.is_number() || value.is_boolean() || value.is_string()) {
      row(key, metrics, key, "");
    }
  }
  for (const auto& c : ref->second.checks) {
    md += fmt::format("| check: {} | {}", cases::markdown_cell(c.quantity), check_cell(ref->second.checks, c.quantity));
    for (const auto& a : alts->second) md += " | " + (a.run.error.empty() ? check_cell(a.run.checks, c.quantity) : "-");
    md += " |\n";
  }
  return md + "\n";
}

}  // namespace immerse::reports
