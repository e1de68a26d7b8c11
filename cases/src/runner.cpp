#include "immerse/cases/runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <optional>

#include "checkpoints.hpp"
#include "immerse/core/choices.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/csv.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/interrupt.hpp"
#include "immerse/core/output_file.hpp"
#include "immerse/core/progress.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/core/versions.hpp"
#include "immerse/core/vtk.hpp"

namespace fs = std::filesystem;

namespace immerse::cases {

bool Check::pass() const { return std::abs(ours - reference) <= tolerance; }

std::string Check::verdict() const {
  if (deviation.empty()) return pass() ? "PASS" : "FAIL";
  return pass() ? "PASS (listed as a deviation)" : "FAIL (deviation)";
}

namespace {
const Choices<CheckKind>& kind_choices() {
  static const Choices<CheckKind> c = {{"prediction", CheckKind::prediction},
                                       {"calibration", CheckKind::calibration},
                                       {"conservation", CheckKind::conservation},
                                       {"consistency", CheckKind::consistency}};
  return c;
}
}  // namespace

Check at_least(const std::string& quantity, double value, double lo, double cap, const std::string& source,
               CheckKind kind) {
  return Check{quantity + fmt::format(" >= {:g} (as min(value, {:g}))", lo, cap),
               std::isnan(value) ? value : std::min(value, cap),
               0.5 * (lo + cap),
               0.5 * (cap - lo),
               source,
               kind};
}

std::string to_string(CheckKind k) { return kind_choices().name(k); }

json to_json(const std::vector<Check>& checks) {
  json out = json::array();
  for (const auto& c : checks) {
    json j = {{"quantity", c.quantity},   {"ours", c.ours},     {"reference", c.reference},
              {"tolerance", c.tolerance}, {"source", c.source}, {"kind", to_string(c.kind)},
              {"pass", c.pass()}};
    if (!c.deviation.empty()) j["deviation"] = c.deviation;
    if (c.kind == CheckKind::calibration) j["calibrated_key"] = c.calibrated_key;
    out.push_back(j);
  }
  return out;
}

std::vector<Check> checks_from_json(const json& j) {
  std::vector<Check> out;
  for (const auto& c : j) {
    Check k;
    k.quantity = c.at("quantity");
    // NaN is written as null: a quantity the run could not measure.
    k.ours = c.at("ours").is_number() ? c.at("ours").get<double>() : std::nan("");
    k.reference = c.at("reference").is_number() ? c.at("reference").get<double>() : std::nan("");
    k.tolerance = c.at("tolerance").is_number() ? c.at("tolerance").get<double>() : std::nan("");
    k.source = c.at("source");
    k.kind = kind_choices().parse(c.value("kind", "consistency"), "checks.kind");
    k.calibrated_key = c.value("calibrated_key", "");
    k.deviation = c.value("deviation", "");
    out.push_back(k);
  }
  return out;
}

void write_json(const std::string& path, const json& j) { write_file_atomically(path, j.dump(2) + "\n"); }

namespace {

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
  return buf;
}

// The case's "deviations": {"check quantity": "measured reason"} marks those checks as known fails.
void mark_deviations(std::vector<Check>& checks, const json& deviations, const std::string& source) {
  for (const auto& item : deviations.items()) {
    const std::string quantity = item.key();  // a copy: C++17 lambdas cannot capture structured bindings
    const json& why = item.value();
    auto c = std::find_if(checks.begin(), checks.end(), [&](const Check& k) { return k.quantity == quantity; });
    if (c == checks.end())
      throw InputError(fmt::format("{}: key 'deviations': '{}' is not one of the case's checks", source, quantity));
    if (!why.is_string() || why.get<std::string>().empty())
      throw InputError(fmt::format("{}: key 'deviations.{}': give the measured reason as a string", source, quantity));
    c->deviation = why;
  }
}

}  // namespace

namespace {

// The resolved case without the keys that may differ between a run and its resumption.
json comparable(json params) {
  params["output"].erase("checkpoint_every");
  return params;
}

// The resolved case, the source named in messages and, when resuming, the checkpoint to continue.
struct Start {
  json params;
  std::string source;
  std::optional<FoundCheckpoint> checkpoint;
};

Start start_of(const RunRequest& req, RunOptions& options) {
  Start s;
  if (req.resume_dir.empty()) {
    const CaseDoc doc = load_case(req.case_name);
    s.params = resolve_case(doc, req.sets, req.quick);
    s.source = doc.source;
    if (options.steps_override >= 0) s.params["time"]["steps"] = options.steps_override;
    if (req.checkpoint_every >= 0) s.params["output"]["checkpoint_every"] = req.checkpoint_every;
    return s;
  }
  if (options.steps_override >= 0 || req.quick || !req.sets.empty())
    throw InputError("--resume: --set, --steps and --quick cannot change a run being resumed");
  s.checkpoint = newest_checkpoint(req.resume_dir);
  const json& h = s.checkpoint->file.header;
  require_same_program(*s.checkpoint);
  s.params = h.at("parameters");
  s.source = h.at("source");
  if (!req.case_name.empty()) {
    const CaseDoc doc = load_case(req.case_name);
    const json given = resolve_case(doc, {}, false);
    const json diff = json::diff(comparable(h.at("parameters")), comparable(given));
    if (!diff.empty())
      throw InputError(fmt::format("--resume {}: the checkpoint's case differs from {} at '{}'", req.resume_dir,
                                   doc.source, diff[0].value("path", "?")));
  }
  // Checkpoints continue as the run was started, unless asked otherwise.
  if (req.checkpoint_every >= 0) s.params["output"]["checkpoint_every"] = req.checkpoint_every;
  // A split lattice resumes split alike (--decompose as the run was started; newest_checkpoint has
  // checked the number of ranks).
  const std::array<int, 3> split = h.value("decompose", std::array<int, 3>{0, 0, 0});
  if (options.decompose != std::array<int, 3>{0, 0, 0} && options.decompose != split)
    throw InputError(fmt::format(
        "--resume {}: the checkpoint's run was split {}, not --decompose {}x{}x{}: resume it "
        "without --decompose",
        req.resume_dir,
        split == std::array<int, 3>{0, 0, 0} ? std::string("as the program chose")
                                             : fmt::format("--decompose {}x{}x{}", split[0], split[1], split[2]),
        options.decompose[0], options.decompose[1], options.decompose[2]));
  options.decompose = split;
  const Backend written = parse_backend(h.at("backend"));
  if (req.backend_given && options.backend != written)
    throw InputError(fmt::format("--resume {}: the checkpoint was written on the {} backend, not {}: resume on {}",
                                 req.resume_dir, to_string(written), to_string(options.backend), to_string(written)));
  options.backend = written;
  return s;
}

}  // namespace

RunOutcome run_case(const RunRequest& request) {
  RunRequest req = request;
  Start start = start_of(req, req.options);
  json& params = start.params;
  const std::string name = params["case"];
  const long checkpoint_every = params["output"]["checkpoint_every"];

  const bool phases_timed = req.options.phase_times || req.options.backend != Backend::cuda;
  set_phase_timing(phases_timed);
  Comm& comm = world();
  const bool writer = comm.rank() == 0;  // on several ranks, rank 0 writes every file but frame pieces
  std::unique_ptr<Simulation> sim = make_simulation(params, start.source, req.options);
  if (comm.size() > 1 && !sim->runs_on_ranks())
    throw InputError(
        fmt::format("{}: the {} scene of solver {} runs on one process only: start it without mpirun "
                    "(every lbm3d and swlbm scene runs on several ranks; docs/mpi.md)",
                    start.source, params["scene"].get<std::string>(), params["solver"].get<std::string>()));
  if ((checkpoint_every > 0 || start.checkpoint) && !sim->supports_checkpoint())
    throw InputError(
        fmt::format("{}: key 'output.checkpoint_every': the {} scene of solver {} cannot checkpoint "
                    "yet (floating scenes with several bodies in one Bullet world, such as boat_buoys: their contact "
                    "caches are not archived; docs/checkpoint.md)",
                    start.source, params["scene"].get<std::string>(), params["solver"].get<std::string>()));
  long done = 0;
  if (start.checkpoint) {
    restore_checkpoint(*start.checkpoint, *sim);
    done = start.checkpoint->file.header.at("step");
  }

  RunOutcome out;
  out.out_dir = !req.resume_dir.empty() ? req.resume_dir
                : req.out_dir.empty()   ? (fs::path("runs") / name / timestamp()).string()
                                        : req.out_dir;
  std::error_code ec;
  if (writer) fs::create_directories(out.out_dir, ec);
  if (ec) throw OutputError(fmt::format("cannot create output directory {}: {}", out.out_dir, ec.message()));
  if (comm.size() > 1) comm.barrier();  // every rank writes its piece of the frames into it

  json result = {{"case", name},
                 {"paper", params["paper"]},
                 {"experiment", params["experiment"]},
                 {"backend", to_string(req.options.backend)},
                 {"precision", sim->precision()},
                 {"quick", start.checkpoint ? start.checkpoint->file.header.value("quick", false) : req.quick},
                 {"compare_tolerances", sim->compare_tolerances()},
                 {"parameters", params},
                 {"versions", versions_json()},
                 // Threads (OpenMP) or concurrent work items (CUDA) this backend ran with: timings need it.
                 {"concurrency", backend_concurrency(req.options.backend)},
                 {"ranks", comm.size()},
                 {"status", "running"}};
  if (start.checkpoint) result["resumed_from_step"] = done;
  if (writer) write_json((fs::path(out.out_dir) / "result.json").string(), result);

  const long total = sim->total_steps();
  const long series_every = sim->series_every() > 0 ? sim->series_every() : std::max(1L, total / 200);
  const std::string series_path = (fs::path(out.out_dir) / "series.csv").string();
  std::unique_ptr<CsvWriter> series;
  const int frames = sim->frame_count();
  std::vector<std::pair<double, std::string>> collection;
  if (start.checkpoint)
    for (const auto& f : start.checkpoint->file.header.at("frames")) collection.emplace_back(f.at(0), f.at(1));
  auto frame = [&](int k) {
    for (const auto& f : sim->write_frame(out.out_dir, k)) collection.emplace_back(sim->time(), f);
    if (writer) vtk::write_collection((fs::path(out.out_dir) / "frames.pvd").string(), collection);
  };
  // A series row is computed on every rank (it may gather from all) and written by the writer.
  const bool has_series = !sim->series_columns().empty();
  auto series_row = [&] {
    const std::vector<double> row = sim->series_row();
    if (series) series->row(row);
  };
  // Ctrl-C on any rank stops all of them after the same step.
  auto stop_requested = [&] { return comm.size() > 1 ? comm.max(interrupted() ? 1.0 : 0.0) > 0 : interrupted(); };
  auto checkpoint = [&](long step) {
    json header = {{"format", 1},
                   {"versions", versions_json()},
                   {"case", name},
                   {"source", start.source},
                   {"parameters", params},
                   {"backend", to_string(req.options.backend)},
                   {"ranks", comm.size()},
                   {"decompose", req.options.decompose},
                   {"quick", result["quick"]},
                   {"step", step},
                   {"time", sim->time()},
                   {"series_bytes", series ? static_cast<long>(fs::file_size(series_path)) : 0L},
                   {"frames", json::array()}};
    for (const auto& [t, file] : collection) header["frames"].push_back({t, file});
    save_checkpoint(out.out_dir, header, *sim);
  };

  install_interrupt_handler();
  Progress progress(name, total, req.options.quiet || !writer);
  const long health_every = std::max(1L, std::min(total / 20, 1000L));
  const auto t0 = std::chrono::steady_clock::now();
  const long first = done;
  std::string failure;
  int failure_code = 0;
  try {
    if (has_series && writer) {
      const std::string comment = fmt::format("case {} on {}", name, to_string(req.options.backend));
      if (start.checkpoint) {
        // The rows up to the checkpoint stay; rows written after it by the killed run go.
        fs::resize_file(series_path, start.checkpoint->file.header.at("series_bytes").get<std::uintmax_t>());
        series = std::make_unique<CsvWriter>(series_path, sim->series_columns().size());
      } else {
        series = std::make_unique<CsvWriter>(series_path, sim->series_columns(), comment);
      }
    }
    if (has_series && !start.checkpoint) series_row();
    if (frames > 0 && !start.checkpoint) frame(0);
    for (; done < total; ++done) {
      if (stop_requested()) {
        out.interrupted = true;
        break;
      }
      sim->step();
      const long n = done + 1;
      if (n % health_every == 0 || n == total) sim->check_health();
      if (has_series && (n % series_every == 0 || n == total)) series_row();
      if (frames > 0 && n * frames / total != (n - 1) * frames / total) frame(static_cast<int>(n * frames / total));
      if (checkpoint_every > 0 && n % checkpoint_every == 0 && n < total) checkpoint(n);
      progress.update(n);
    }
    if (out.interrupted && checkpoint_every > 0 && done > first) checkpoint(done);
    sim->write_final(out.out_dir);  // every rank: it may gather; rank 0 writes
  } catch (const Error& e) {
    // Keep everything written so far, record the failure, then report it.
    failure = e.what();
    failure_code = e.exit_code();
  } catch (const fs::filesystem_error& e) {
    failure = fmt::format("cannot write into {}: {}", out.out_dir, e.code().message());
    failure_code = kExitOutput;
  }
  progress.finish();
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  result["timings"] = {{"total_s", total_s},
                       {"steps", done},
                       {"per_step_ms", done > first ? 1e3 * total_s / (done - first) : 0.0},
                       {"phases_ms", sim->phases_ms()},
                       {"phases_timed", phases_timed}};
  if (!failure.empty()) {
    result["status"] = "failed";
    result["error"] = failure;
    try {
      if (writer) write_json((fs::path(out.out_dir) / "result.json").string(), result);
    } catch (const OutputError& e) {
      // A full disk: the result.json written at the start stays whole, with status "running".
      throw Error(fmt::format("{}\n{}: result.json still says \"running\"", failure, e.what()), failure_code);
    }
    throw Error(failure, failure_code);
  }
  result["metrics"] = sim->metrics();
  out.checks = sim->checks(result["metrics"]);
  mark_deviations(out.checks, params["deviations"], start.source);
  result["checks"] = to_json(out.checks);
  result["status"] = out.interrupted ? "interrupted" : "completed";
  if (writer) write_json((fs::path(out.out_dir) / "result.json").string(), result);
  out.result = result;
  return out;
}

bool print_checks(const std::vector<Check>& checks) {
  bool all = true;
  fmt::print("{:<34} {:>14} {:>14} {:>10}  {:<4}  {:<12}  {}\n", "quantity", "ours", "reference", "tolerance", "",
             "kind", "source");
  for (const auto& c : checks) {
    all = all && c.as_expected();
    const std::string kind =
        c.kind == CheckKind::calibration ? "calibration of " + c.calibrated_key : to_string(c.kind);
    fmt::print("{:<34} {:>14.7g} {:>14.7g} {:>10.3g}  {:<4}  {:<12}  {}\n", c.quantity, c.ours, c.reference,
               c.tolerance, c.pass() ? "PASS" : "FAIL", kind, c.source);
    if (!c.deviation.empty()) fmt::print("{:>34} {}: {}\n", "", c.verdict(), c.deviation);
  }
  const long failed = std::count_if(checks.begin(), checks.end(), [](const Check& c) { return !c.pass(); });
  const long deviations =
      std::count_if(checks.begin(), checks.end(), [](const Check& c) { return !c.pass() && !c.deviation.empty(); });
  if (deviations > 0)
    fmt::print("{} checks: {} passed, {} failed ({} of them documented deviations)\n", checks.size(),
               checks.size() - failed, failed, deviations);
  else
    fmt::print("{} checks: {} passed, {} failed\n", checks.size(), checks.size() - failed, failed);
  return all;
}

}  // namespace immerse::cases
