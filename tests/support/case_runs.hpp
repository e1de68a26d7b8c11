#pragma once
// Validation support: run a canned case (or a case file) in-process, quietly, into its own temporary
// folder, and assert on its checks. Shared by every paper's validation program.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "immerse/cases/runner.hpp"
#include "immerse/reports/compare.hpp"

namespace immerse::test {

// Full length, or the case's "quick" overrides (an enum so a string passed in its place does not
// silently convert, as a string literal would to bool).
enum class Length { full, quick };

// `tag` keeps apart the output folders of runs that ctest may execute at the same time.
inline cases::RunOutcome run(const std::string& name, Backend b, std::vector<std::string> sets = {},
                             Length length = Length::full, const std::string& tag = "") {
  cases::RunRequest req;
  req.case_name = name;
  req.sets = std::move(sets);
  req.quick = length == Length::quick;
  req.options.backend = b;
  req.options.quiet = true;
  req.out_dir = (std::filesystem::temp_directory_path() / "immerse-validation" /
                 (std::filesystem::path(name).stem().string() + "-" + to_string(b) + tag))
                    .string();
  return cases::run_case(req);
}

inline void expect_check(const cases::Check& c) {
  EXPECT_TRUE(c.as_expected()) << c.verdict() << " " << c.quantity << ": ours " << c.ours << ", reference "
                               << c.reference << ", tolerance " << c.tolerance << " (" << c.source << ")";
}

// At least `min_checks` checks ran (none silently dropped) and every one passed.
inline void expect_all_pass(const cases::RunOutcome& out, size_t min_checks) {
  ASSERT_GE(out.checks.size(), min_checks);
  for (const auto& c : out.checks) expect_check(c);
}

inline const cases::Check* find_check(const cases::RunOutcome& out, const std::string& quantity) {
  for (const auto& c : out.checks)
    if (c.quantity == quantity) return &c;
  return nullptr;
}

// The named check ran and passed.
inline void expect_pass(const cases::RunOutcome& out, const std::string& quantity) {
  const cases::Check* c = find_check(out, quantity);
  ASSERT_NE(c, nullptr) << "check '" << quantity << "' missing";
  expect_check(*c);
}

// Two runs of one case on different backends agree: every metric but the timings within the case's
// stated compare tolerances (the rule `immerse compare` applies; 1e-12 relative unless stated).
inline void expect_backends_agree(const cases::RunOutcome& a, const cases::RunOutcome& b) {
  const auto diffs = reports::compare_metrics(a.result["metrics"], b.result["metrics"],
                                              a.result.value("compare_tolerances", nlohmann::json::object()));
  EXPECT_FALSE(diffs.empty()) << "no metric compared";
  for (const auto& d : diffs)
    EXPECT_TRUE(d.pass()) << d.metric << ": " << d.reference.dump() << " vs " << d.other.dump() << " (" << d.why << ")";
}

}  // namespace immerse::test
