#include "immerse/core/checkpoint_file.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "immerse/core/output_file.hpp"
#include "immerse/core/user_input.hpp"

namespace immerse {
namespace {

const std::string kMagic = "IMMERSE-CHECKPOINT 1\n";

constexpr std::uint64_t kFnvBasis = 1469598103934665603ull;

// FNV-1a 64 of data, continued from h.
std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h = kFnvBasis) {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

void write_checkpoint(const std::string& path, const nlohmann::json& header, const std::string& state) {
  const std::string text = header.dump();
  // The pieces go to the file as they are (the state can be most of the machine's memory: no
  // assembled copy), the checksum following them.
  write_file_atomically(
      path,
      [&](OutputFile& out) {
        std::uint64_t sum = kFnvBasis;
        auto put = [&](const char* data, std::size_t n) {
          out.write(data, n);
          sum = fnv1a(data, n, sum);
        };
        auto put_u64 = [&](std::uint64_t v) { put(reinterpret_cast<const char*>(&v), sizeof v); };
        put(kMagic.data(), kMagic.size());
        put_u64(text.size());
        put(text.data(), text.size());
        put_u64(state.size());
        put(state.data(), state.size());
        out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
      },
      /*durable=*/true);
}

CheckpointFile read_checkpoint(const std::string& path) {
  std::string data = read_input_file(path, "checkpoint", std::uint64_t(1) << 40);
  std::size_t pos = 0;
  auto need = [&](std::size_t n, const char* what) {
    if (data.size() - pos < n) throw CorruptCheckpoint(fmt::format("{}: truncated ({})", path, what));
  };
  auto u64 = [&](const char* what) {
    need(8, what);
    std::uint64_t v;
    std::memcpy(&v, data.data() + pos, 8);
    pos += 8;
    return v;
  };
  need(kMagic.size(), "no header");
  if (data.compare(0, kMagic.size(), kMagic) != 0)
    throw CorruptCheckpoint(fmt::format("{}: not an immerse checkpoint", path));
  pos = kMagic.size();
  const std::uint64_t header_size = u64("header length");
  need(header_size, "header");
  const std::string header = data.substr(pos, header_size);
  pos += header_size;
  const std::uint64_t state_size = u64("state length");
  need(state_size, "state");
  const std::size_t state_at = pos;
  pos += state_size;
  const std::size_t checked = pos;
  const std::uint64_t sum = u64("checksum");
  if (pos != data.size())
    throw CorruptCheckpoint(fmt::format("{}: {} bytes after the checksum", path, data.size() - pos));
  if (sum != fnv1a(data.data(), checked)) throw CorruptCheckpoint(fmt::format("{}: checksum mismatch", path));
  CheckpointFile c;
  c.header = nlohmann::json::parse(header, nullptr, false);
  if (c.header.is_discarded() || !c.header.is_object())
    throw CorruptCheckpoint(fmt::format("{}: the header is not a JSON object", path));
  data.resize(state_at + state_size);  // the state is most of the file: moved, not copied
  data.erase(0, state_at);
  c.state = std::move(data);
  return c;
}

}  // namespace immerse
