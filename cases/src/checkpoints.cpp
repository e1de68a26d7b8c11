#include "checkpoints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

#include "immerse/core/comm.hpp"
#include "immerse/core/versions.hpp"

namespace fs = std::filesystem;

namespace immerse::cases {
namespace {

// What follows step_<12 digits> in this process's checkpoint names: ".ckpt", or on several ranks
// "_r<rank>.ckpt" (each rank writes its own state).
std::string suffix() {
  Comm& comm = world();
  return comm.size() == 1 ? ".ckpt" : fmt::format("_r{}.ckpt", comm.rank());
}

// This process's checkpoints in `dir`, newest first.
std::vector<std::pair<long, fs::path>> checkpoints_in(const fs::path& dir) {
  const std::string tail = suffix();
  std::vector<std::pair<long, fs::path>> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() != 17 + tail.size() || name.compare(0, 5, "step_") != 0 || name.compare(17, tail.size(), tail) != 0)
      continue;
    const std::string digits = name.substr(5, 12);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    out.emplace_back(std::stol(digits), e.path());
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

// The number of ranks of the run that wrote the checkpoints in `dir` (from their names: _r<rank>.ckpt
// on several ranks, .ckpt on one), 0 when there are none.
int ranks_written(const fs::path& dir) {
  int ranks = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.compare(0, 5, "step_") != 0 || e.path().extension() != ".ckpt") continue;
    const size_t r = name.find("_r", 5);
    ranks = std::max(ranks, r == std::string::npos ? 1 : std::atoi(name.c_str() + r + 2) + 1);
  }
  return ranks;
}

}  // namespace

void save_checkpoint(const std::string& out_dir, const nlohmann::json& header, Simulation& sim) {
  const fs::path dir = fs::path(out_dir) / "checkpoints";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw OutputError(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  StateArchive a;
  sim.archive(a);
  write_checkpoint((dir / fmt::format("step_{:012d}{}", header.at("step").get<long>(), suffix())).string(), header,
                   a.blocks());
  const auto all = checkpoints_in(dir);
  for (size_t k = 2; k < all.size(); ++k) fs::remove(all[k].second, ec);
}

FoundCheckpoint newest_checkpoint(const std::string& out_dir) {
  const fs::path dir = fs::path(out_dir) / "checkpoints";
  Comm& comm = world();
  // A run resumes on as many ranks as wrote it (every rank reads the same folder: all refuse alike).
  const int ranks = ranks_written(dir);
  if (ranks > 0 && ranks != comm.size())
    throw InputError(fmt::format(
        "--resume {}: the checkpoints in {} were written by a run on {} rank{}, this is {}: resume it with{}", out_dir,
        dir.string(), ranks, ranks == 1 ? "" : "s", comm.size(),
        ranks == 1 ? "out mpirun" : fmt::format(" mpirun -np {}", ranks)));
  auto all = checkpoints_in(dir);
  const bool any = comm.max(all.empty() ? 0.0 : 1.0) > 0;
  // The newest step whose checkpoint reads whole on every rank (a run killed while its ranks wrote
  // leaves some with a step the others lack). Every rank decides alike.
  for (;;) {
    const double mine = all.empty() ? -1.0 : static_cast<double>(all.front().first);
    const long step = static_cast<long>(-comm.max(-mine));  // the smallest of the ranks' newest
    if (step < 0 && any)
      throw InputError(fmt::format("--resume {}: every checkpoint in {} is damaged{}", out_dir, dir.string(),
                                   comm.size() > 1 ? " or missing on some rank" : ""));
    if (step < 0)
      throw InputError(
          fmt::format("--resume {}: no checkpoints in {} (run with --checkpoint-every N)", out_dir, dir.string()));
    std::optional<FoundCheckpoint> found;
    for (const auto& [s, path] : all) {
      if (s != step) continue;
      try {
        found = FoundCheckpoint{read_checkpoint(path.string()), path.string()};
      } catch (const CorruptCheckpoint& e) {
        fmt::print(stderr, "immerse: skipping checkpoint: {}\n", e.what());
      }
    }
    if (comm.max(found ? 0.0 : 1.0) == 0) return std::move(*found);
    all.erase(std::remove_if(all.begin(), all.end(), [step](const auto& c) { return c.first >= step; }), all.end());
  }
}

void restore_checkpoint(FoundCheckpoint& c, Simulation& sim) {
  StateArchive a(std::move(c.file.state), c.path);
  sim.archive(a);
  a.expect_end();
}

void require_same_program(const FoundCheckpoint& c) {
  const nlohmann::json now = versions_json(), then = c.file.header.value("versions", nlohmann::json::object());
  for (const char* key : {"immerse", "git"})
    if (then.value(key, "") != now.value(key, ""))
      throw InputError(
          fmt::format("{}: written by immerse {} (git {}); this program is immerse {} (git {}): "
                      "resume with the program that wrote it, or start the run again",
                      c.path, then.value("immerse", "?"), then.value("git", "?"), now.value("immerse", "?"),
                      now.value("git", "?")));
}

}  // namespace immerse::cases
