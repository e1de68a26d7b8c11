#pragma once
// What the case runner needs from a solver family: a Simulation steps a resolved case, reports its
// health, writes frames, and produces metrics and validation checks. Each family registers a
// SolverEntry (its factory; its case-file keys are its SolverKeys, solver_keys.hpp); each canned
// experiment may register a scene that specialises the family's simulation (extra metrics, checks
// against a paper's numbers).
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/schema.hpp"
#include "immerse/core/state_archive.hpp"

namespace CLI {
class App;
}

namespace immerse::cases {

// What a check's reference is, and so what its pass is worth:
//   prediction    a reference the inputs do not fix: a paper's figure or table not used for tuning,
//                 an analytic solution, an independent computation;
//   calibration   a free coefficient (calibrated_key) was fitted to this reference: passing it shows
//                 the fit holds, not that the model reproduces the paper;
//   conservation  a physical law the scheme does not impose by construction;
//   consistency   an identity of the scheme, a read-back of an input or a solver's stopping rule:
//                 a health check, never counted as validation.
enum class CheckKind { prediction, calibration, conservation, consistency };
std::string to_string(CheckKind k);

// One tolerance check: |ours - reference| <= tolerance, with the reference's source named. A NaN
// (a quantity the run could not measure) fails.
struct Check {
  std::string quantity;
  double ours = 0, reference = 0, tolerance = 0;
  std::string source;
  CheckKind kind = CheckKind::consistency;
  std::string calibrated_key;  // calibration: the case key fitted to the reference
  // A documented deviation (the case's "deviations" key): the check is known to fail, for this
  // measured reason. It is still evaluated and shown; it does not fail the run, and it does if it
  // starts passing (so the list stays true).
  std::string deviation;

  Check() = default;
  // Every check states its kind.
  Check(std::string quantity, double ours, double reference, double tolerance, std::string source, CheckKind kind,
        std::string calibrated_key = "")
      : quantity(std::move(quantity)),
        ours(ours),
        reference(reference),
        tolerance(tolerance),
        source(std::move(source)),
        kind(kind),
        calibrated_key(std::move(calibrated_key)) {}
  bool pass() const;
  // The outcome the case expects: a pass, or a fail listed among its deviations.
  bool as_expected() const { return deviation.empty() ? pass() : !pass(); }
  // "PASS", "FAIL", "FAIL (deviation)" or "PASS (listed as a deviation)".
  std::string verdict() const;
};
// "value >= lo" as a tolerance check: min(value, cap) against the middle of [lo, cap]. The quantity
// is suffixed with the bound; a NaN value fails.
Check at_least(const std::string& quantity, double value, double lo, double cap, const std::string& source,
               CheckKind kind);
// The checks as result.json records them (with "kind" and "pass"), and back.
nlohmann::json to_json(const std::vector<Check>& checks);
std::vector<Check> checks_from_json(const nlohmann::json& j);

struct RunOptions {
  Backend backend = default_backend();
  long steps_override = -1;  // --steps
  bool quiet = false;
  // Time each phase (a fence at every phase's end): always on host backends, where kernels are
  // synchronous and a fence costs nothing; on a device only when asked (--phase-times).
  bool phase_times = false;
  // --decompose: ranks along x, y, z for a lattice split among MPI ranks (0: chosen; docs/mpi.md).
  std::array<int, 3> decompose = {0, 0, 0};
};

class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual long total_steps() const = 0;
  virtual void step() = 0;
  // Throws NumericalError naming field, cell and step when a field is not finite or unstable.
  virtual void check_health() = 0;
  virtual double time() const = 0;
  // Frames: VTK files under `dir`; returns the file names written (for the .pvd collection).
  virtual int frame_count() const { return 0; }
  virtual std::vector<std::string> write_frame(const std::string& /*dir*/, int /*index*/) { return {}; }
  // The final state as plain CSV files under `dir` (also after Ctrl-C), for plots and scripts.
  // Called on every rank of a split run (it may gather); rank 0 writes.
  virtual void write_final(const std::string& /*dir*/) {}
  // Time series, one row every series_every steps.
  virtual std::vector<std::string> series_columns() const { return {}; }
  virtual std::vector<double> series_row() { return {}; }
  virtual long series_every() const { return 0; }
  virtual nlohmann::json metrics() = 0;
  virtual std::vector<Check> checks(const nlohmann::json& /*metrics*/) const { return {}; }
  virtual nlohmann::json phases_ms() const { return nlohmann::json::object(); }
  virtual std::string precision() const { return "fp64"; }
  // Backend comparison (`immerse compare`): for metrics whose value may legitimately differ between
  // backends (reduction order, FP32 sums, chaotic growth), {"metric": {"rel": 1e-6, "abs": 0,
  // "why": "..."}}; a metric passes when |a - b| <= abs + rel * max(|a|, |b|). Unlisted metrics must
  // agree to 1e-12 relative; timing metrics (names ending _per_s, _ms, _us, or inside such an object)
  // are never compared. A name matches the full key, its leaf, or an enclosing object ("columns").
  // Written into result.json as "compare_tolerances".
  virtual nlohmann::json compare_tolerances() const { return nlohmann::json::object(); }
  // Checkpoints (`immerse run --checkpoint-every N`, `--resume DIR`): everything a continued run
  // needs to end bitwise as an uninterrupted one (fields, bodies, random state, a scene's running
  // maxima and tables), listed once in archive() for saving and loading. A simulation that cannot
  // restart yet keeps supports_checkpoint() false, and the runner refuses to checkpoint it.
  virtual bool supports_checkpoint() const { return false; }
  // Whether the simulation runs on the ranks of an MPI launch (mpirun -np N, N > 1): every rank
  // makes the same calls, each rank steps its part, and every query answers for the whole; the
  // runner writes files on rank 0 only and refuses a simulation without it (docs/mpi.md).
  virtual bool runs_on_ranks() const { return false; }
  virtual void archive(StateArchive& /*a*/) {}
};

using SimulationFactory = std::function<std::unique_ptr<Simulation>(const nlohmann::json& resolved,
                                                                    const std::string& source, const RunOptions&)>;

// A family's own subcommand of the `immerse` program (the Langevin family's `added-mass`):
// installing it declares it on the program's command line and returns what to run when chosen.
struct FamilyCommand {
  CLI::App* command = nullptr;
  std::function<int()> run;
};
using FamilyCommandInstaller = std::function<FamilyCommand(CLI::App&)>;

// A scene with code of its own: one canned experiment's (extra metrics, checks against a paper's
// numbers), chosen by the case file's "scene" key.
struct Scene {
  std::string name;
  SimulationFactory make;
};

// How a family runs a resolved case. Its keys and scene names are its SolverKeys (solver_keys.hpp);
// `make` runs every scene not listed in `scenes`.
struct SolverEntry {
  std::string name;                                // a SolverKeys name
  SimulationFactory make;                          // the family's own simulation
  std::vector<Scene> scenes{};                     // scenes with their own factory
  std::vector<FamilyCommandInstaller> commands{};  // extra `immerse` subcommands, if any
};

const std::vector<SolverEntry>& solver_registry();

// The simulation of a resolved case: its solver's entry, then its scene's factory.
std::unique_ptr<Simulation> make_simulation(const nlohmann::json& resolved, const std::string& source,
                                            const RunOptions& options);

}  // namespace immerse::cases
