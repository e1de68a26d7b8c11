#include "checkpoints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "immerse/core/versions.hpp"

namespace fs = std::filesystem;

namespace immerse::cases {
namespace {

// step_<12 digits>.ckpt, newest first.
std::vector<std::pair<long, fs::path>> checkpoints_in(const fs::path& dir) {
  std::vector<std::pair<long, fs::path>> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() != 22 || name.compare(0, 5, "step_") != 0 || e.path().extension() != ".ckpt") continue;
    const std::string digits = name.substr(5, 12);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    out.emplace_back(std::stol(digits), e.path());
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

}  // namespace

void save_checkpoint(const std::string& out_dir, const nlohmann::json& header, Simulation& sim) {
  const fs::path dir = fs::path(out_dir) / "checkpoints";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw OutputError(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  StateArchive a;
  sim.archive(a);
  write_checkpoint((dir / fmt::format("step_{:012d}.ckpt", header.at("step").get<long>())).string(), header,
                   a.blocks());
  const auto all = checkpoints_in(dir);
  for (size_t k = 2; k < all.size(); ++k) fs::remove(all[k].second, ec);
}

FoundCheckpoint newest_checkpoint(const std::string& out_dir) {
  const fs::path dir = fs::path(out_dir) / "checkpoints";
  const auto all = checkpoints_in(dir);
  if (all.empty())
    throw InputError(
        fmt::format("--resume {}: no checkpoints in {} (run with --checkpoint-every N)", out_dir, dir.string()));
  for (const auto& [step, path] : all) {
    try {
      return FoundCheckpoint{read_checkpoint(path.string()), path.string()};
    } catch (const CorruptCheckpoint& e) {
      fmt::print(stderr, "immerse: skipping checkpoint: {}\n", e.what());
    }
  }
  throw InputError(fmt::format("--resume {}: every checkpoint in {} is damaged", out_dir, dir.string()));
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
