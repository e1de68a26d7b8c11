#pragma once
// A checkpoint file: a JSON header (program version, resolved case, backend, step, ...) and the
// state blocks of a StateArchive, closed by a checksum. Layout (docs/checkpoint.md):
//   "IMMERSE-CHECKPOINT 1\n"
//   u64 header length, header (JSON text)
//   u64 state length, state blocks (u64 name length, name, u64 size, bytes; repeated)
//   u64 FNV-1a 64 checksum of everything before it
// All integers little-endian, as the machines that run immerse are.
#include <nlohmann/json.hpp>
#include <string>

#include "immerse/core/error.hpp"

namespace immerse {

// A checkpoint that is truncated or fails its checksum (the run was killed while writing it, or the
// file was damaged): the previous one should be used.
struct CorruptCheckpoint : Error {
  explicit CorruptCheckpoint(const std::string& what) : Error(what, kExitBadInput) {}
};

struct CheckpointFile {
  nlohmann::json header;
  std::string state;  // StateArchive blocks
};

// Written durably and atomically (temporary file, fsync, rename).
void write_checkpoint(const std::string& path, const nlohmann::json& header, const std::string& state);
// CorruptCheckpoint when truncated, not a checkpoint, or the checksum differs.
CheckpointFile read_checkpoint(const std::string& path);

}  // namespace immerse
