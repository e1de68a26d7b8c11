#include "immerse/cases/counterexamples.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "immerse/cases/case_library.hpp"
#include "immerse/core/error.hpp"

namespace fs = std::filesystem;

namespace immerse::cases {
namespace {

const Check* find_check(const std::vector<Check>& checks, const std::string& quantity) {
  for (const auto& c : checks)
    if (c.quantity == quantity) return &c;
  return nullptr;
}

std::string check_names(const std::vector<Check>& checks) {
  std::string out;
  for (const auto& c : checks) out += fmt::format("\n  '{}'", c.quantity);
  return out;
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

bool CounterexampleResult::caught() const {
  if (!error.empty()) return true;
  for (const auto& name : fails) {
    const Check* c = find_check(checks, name);
    if (c && !c->pass()) return true;
  }
  return false;
}

bool Discrimination::reference_passes() const {
  return std::all_of(reference.begin(), reference.end(), [](const Check& c) { return c.as_expected(); });
}

bool Discrimination::all_caught() const {
  return std::all_of(counterexamples.begin(), counterexamples.end(),
                     [](const CounterexampleResult& r) { return r.caught(); });
}

std::vector<std::string> Discrimination::undemonstrated() const {
  std::vector<std::string> out;
  for (const auto& ref : reference) {
    bool broken = false;
    for (const auto& ce : counterexamples) {
      const Check* c = find_check(ce.checks, ref.quantity);
      broken = broken || (c && !c->pass());
    }
    if (!broken) out.push_back(ref.quantity);
  }
  return out;
}

bool has_counterexamples(const CaseDoc& doc) {
  return doc.doc.contains("counterexamples") && !doc.doc["counterexamples"].empty();
}

Discrimination run_counterexamples(const RunRequest& req, bool full) {
  const CaseDoc doc = load_case(req.case_name);
  const json resolved = resolve_case(doc, req.sets, false);
  if (resolved["counterexamples"].empty())
    throw InputError(fmt::format("{}: the case declares no counterexamples (key 'counterexamples')", doc.source));

  Discrimination d;
  d.case_name = resolved["case"];
  d.paper = resolved["paper"];
  d.form = full || resolved["short"].empty() ? "full" : "short";
  if (d.form == "short") d.sets = overrides_as_sets(resolved["short"]);
  d.sets.insert(d.sets.end(), req.sets.begin(), req.sets.end());

  const std::string root =
      req.out_dir.empty() ? (fs::path("runs") / d.case_name / "counterexamples").string() : req.out_dir;
  auto run_one = [&](const std::string& folder, const std::vector<std::string>& extra) {
    RunRequest r = req;
    r.sets = d.sets;
    r.sets.insert(r.sets.end(), extra.begin(), extra.end());
    r.out_dir = (fs::path(root) / folder).string();
    r.quick = false;
    return run_case(r);
  };

  // What the case file alone can show wrong is refused before any run.
  for (const auto& ce : resolved["counterexamples"]) {
    CounterexampleResult r;
    r.name = ce["name"];
    r.why = ce["why"];
    r.sets = overrides_as_sets(ce["set"]);
    r.fails = ce["fails"].get<std::vector<std::string>>();
    const std::string where = fmt::format("{}: counterexamples: '{}'", doc.source, r.name);
    if (!valid_folder_name(r.name))
      throw InputError(where + ": key 'name': letters, digits, '_' and '-' only (it names a folder)");
    if (r.fails.empty()) throw InputError(where + ": key 'fails': name at least one check that must fail");
    d.counterexamples.push_back(std::move(r));
  }

  if (!req.options.quiet) fmt::print("{}: the paper's model ({} form)\n", d.case_name, d.form);
  const RunOutcome ref = run_one("reference", {});
  if (ref.interrupted) throw Error("interrupted", 130);
  d.reference = ref.checks;
  for (const auto& r : d.counterexamples)
    for (const auto& q : r.fails) {
      const Check* c = find_check(d.reference, q);
      if (!c)
        throw InputError(fmt::format("{}: counterexamples: '{}': key 'fails': '{}' is not one of the case's checks:{}",
                                     doc.source, r.name, q, check_names(d.reference)));
      // A documented deviation fails for the paper's model too: its failing says nothing of the wrong one.
      if (!c->deviation.empty())
        throw InputError(
            fmt::format("{}: counterexamples: '{}': key 'fails': '{}' is a documented deviation (the "
                        "paper's model fails it too), so it cannot show this model wrong",
                        doc.source, r.name, q));
    }

  for (auto& r : d.counterexamples) {
    if (!req.options.quiet) fmt::print("{}: counterexample '{}': {}\n", d.case_name, r.name, r.why);
    try {
      const RunOutcome out = run_one(r.name, r.sets);
      if (out.interrupted) throw Error("interrupted", 130);
      r.checks = out.checks;
    } catch (const InputError&) {
      throw;  // a counterexample the schema rejects is a mistake in the case file
    } catch (const Error& e) {
      if (e.exit_code() == 130) throw;
      r.error = e.what();
    }
  }

  write_json((fs::path(root) / "discrimination.json").string(), to_json(d));
  return d;
}

json to_json(const Discrimination& d) {
  json ces = json::array();
  for (const auto& r : d.counterexamples)
    ces.push_back({{"name", r.name},
                   {"why", r.why},
                   {"set", r.sets},
                   {"fails", r.fails},
                   {"checks", to_json(r.checks)},
                   {"error", r.error},
                   {"caught", r.caught()}});
  return {{"case", d.case_name},
          {"paper", d.paper},
          {"form", d.form},
          {"sets", d.sets},
          {"reference", to_json(d.reference)},
          {"counterexamples", ces},
          {"undemonstrated", d.undemonstrated()}};
}

Discrimination discrimination_from_json(const json& j) {
  Discrimination d;
  d.case_name = j.at("case");
  d.paper = j.at("paper");
  d.form = j.at("form");
  d.sets = j.at("sets").get<std::vector<std::string>>();
  d.reference = checks_from_json(j.at("reference"));
  for (const auto& c : j.at("counterexamples")) {
    CounterexampleResult r;
    r.name = c.at("name");
    r.why = c.at("why");
    r.sets = c.at("set").get<std::vector<std::string>>();
    r.fails = c.at("fails").get<std::vector<std::string>>();
    r.checks = checks_from_json(c.at("checks"));
    r.error = c.at("error");
    d.counterexamples.push_back(std::move(r));
  }
  return d;
}

void print_discrimination(const Discrimination& d) {
  const long deviations = std::count_if(d.reference.begin(), d.reference.end(),
                                        [](const Check& c) { return !c.pass() && !c.deviation.empty(); });
  fmt::print("\n{}: the paper's model ({} form): {}{}\n", d.case_name, d.form,
             d.reference_passes() ? "every check as expected" : "SOME CHECKS FAIL",
             deviations ? fmt::format(" ({} documented deviation{} fail)", deviations, deviations > 1 ? "s" : "") : "");
  for (const auto& r : d.counterexamples) {
    std::string by;
    if (!r.error.empty()) by = "its run failed: " + r.error;
    for (const auto& q : r.fails) {
      const Check* c = find_check(r.checks, q);
      if (c && !c->pass()) by += (by.empty() ? "" : "; ") + fmt::format("'{}' fails ({:.4g})", q, c->ours);
    }
    fmt::print("  {:<7} {:<22} {}\n", r.caught() ? "caught" : "MISSED", r.name,
               r.caught() ? by : "passes every check it names: " + fmt::format("{}", fmt::join(r.fails, ", ")));
  }
  const auto un = d.undemonstrated();
  constexpr size_t kShown = 8;
  if (un.size() > kShown)
    fmt::print("  no counterexample breaks {} of the {} checks, e.g. {} (all: discrimination.json)\n", un.size(),
               d.reference.size(), fmt::join(un.begin(), un.begin() + kShown, "; "));
  else if (!un.empty())
    fmt::print("  no counterexample breaks: {}\n", fmt::join(un, "; "));
}

std::string discrimination_markdown(const Discrimination& d) {
  std::string out = fmt::format("Counterexamples of `{}` ({} form{}):\n\n", d.case_name, d.form,
                                d.sets.empty() ? "" : ": `" + fmt::format("{}", fmt::join(d.sets, " ")) + "`");
  for (const auto& r : d.counterexamples)
    out += fmt::format("- `{}`: {} (`{}`): {}\n", r.name, r.why, fmt::join(r.sets, " "),
                       r.caught() ? "caught" : "**MISSED**: passes every check it names");
  out += "\n| check | kind | paper's model |";
  for (const auto& r : d.counterexamples) out += fmt::format(" `{}` |", r.name);
  out += "\n|---|---|---|";
  for (size_t k = 0; k < d.counterexamples.size(); ++k) out += "---|";
  out += "\n";
  for (const auto& ref : d.reference) {
    out += fmt::format("| {} | {} | {} |", markdown_cell(ref.quantity), to_string(ref.kind),
                       ref.as_expected() ? ref.verdict() : "**" + ref.verdict() + "**");
    for (const auto& r : d.counterexamples) {
      const Check* c = find_check(r.checks, ref.quantity);
      const bool named = std::find(r.fails.begin(), r.fails.end(), ref.quantity) != r.fails.end();
      std::string outcome = !r.error.empty() ? "run failed" : !c ? "n/a" : c->pass() ? "pass" : "FAIL";
      if (named) outcome = "**" + outcome + "**";
      out += " " + outcome + " |";
    }
    out += "\n";
  }
  const auto un = d.undemonstrated();
  if (!un.empty()) {
    out += "\nUndemonstrated (no counterexample makes it fail):\n";
    for (const auto& q : un) out += "- " + markdown_cell(q) + "\n";
  }
  return out;
}

}  // namespace immerse::cases
