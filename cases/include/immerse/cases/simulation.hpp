#pragma once
// What the case runner needs from a solver family: a Simulation steps a resolved case, reports its
// health, writes frames, and produces metrics and validation checks. Each family registers a
// SolverEntry (its case-file schema and a factory); each canned experiment may register a scene
// that specialises the family's simulation (extra metrics, checks against a paper's numbers).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/schema.hpp"

namespace CLI {
class App;
}

namespace immerse::cases {

// One tolerance check: |ours - reference| <= tolerance, with the reference's source named.
struct Check {
  std::string quantity;
  double ours = 0, reference = 0, tolerance = 0;
  std::string source;
  bool pass() const;
};

struct RunOptions {
  Backend backend = default_backend();
  long steps_override = -1;  // --steps
  bool quiet = false;
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

// A scene: the code of one canned experiment (extra metrics, checks against a paper's numbers) or
// "generic" (the family's own simulation), chosen by the case file's "scene" key.
struct Scene {
  std::string name;
  SimulationFactory make;
};

struct SolverEntry {
  std::string name;                                // value of the case file's "solver" key
  std::function<Schema()> schema;                  // the family's keys (the runner adds the common ones)
  std::vector<Scene> scenes;                       // the scenes the family accepts ("generic" first)
  std::vector<FamilyCommandInstaller> commands{};  // extra `immerse` subcommands, if any
  std::vector<std::string> scene_names() const;
};

const std::vector<SolverEntry>& solver_registry();

// The simulation of a resolved case: its solver's entry, then its scene's factory.
std::unique_ptr<Simulation> make_simulation(const nlohmann::json& resolved, const std::string& source,
                                            const RunOptions& options);

}  // namespace immerse::cases
