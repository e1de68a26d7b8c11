#pragma once
// The runner's checkpoints: <run>/checkpoints/step_<step>.ckpt, the newest two kept; on several MPI
// ranks, step_<step>_r<rank>.ckpt, one per rank. Each holds a header (program version, resolved
// case, backend, ranks and split, step, time, the series.csv length and the frames written so far)
// and the simulation's archived state, on several ranks that of the rank's block (docs/checkpoint.md).
#include <string>

#include "immerse/cases/simulation.hpp"
#include "immerse/core/checkpoint_file.hpp"

namespace immerse::cases {

// Archives `sim` under `header` into <out_dir>/checkpoints/step_<header.step>.ckpt, then removes all
// but the newest two checkpoints.
void save_checkpoint(const std::string& out_dir, const nlohmann::json& header, Simulation& sim);

struct FoundCheckpoint {
  CheckpointFile file;
  std::string path;
};

// The newest checkpoint under <out_dir>/checkpoints that reads whole (on several ranks: this rank's
// of the newest step that reads whole on every rank; collective); a truncated or corrupt one is
// reported on stderr and the previous one used. InputError (exit 2) when none is usable.
FoundCheckpoint newest_checkpoint(const std::string& out_dir);

// Fills `sim` from the checkpoint's state, which it consumes (the header stays); InputError when the
// state does not fit it.
void restore_checkpoint(FoundCheckpoint& c, Simulation& sim);

// InputError (exit 2) unless this program wrote the checkpoint (same immerse version and git hash).
void require_same_program(const FoundCheckpoint& c);

}  // namespace immerse::cases
