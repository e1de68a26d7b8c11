#include "immerse/core/state_archive.hpp"

#include <fmt/format.h>

#include <cstring>

#include "immerse/core/error.hpp"

namespace immerse {
namespace {

void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

}  // namespace

StateArchive::StateArchive(std::string blocks, std::string origin)
    : loading_(true), data_(std::move(blocks)), origin_(std::move(origin)) {}

void StateArchive::bytes(const std::string& name, void* data, std::size_t size) {
  if (!loading_) {
    put_u64(data_, name.size());
    data_ += name;
    put_u64(data_, size);
    if (size > 0) data_.append(static_cast<const char*>(data), size);
    return;
  }
  auto u64 = [&](const char* what) {
    std::uint64_t v = 0;
    if (data_.size() - pos_ < sizeof v)
      throw InputError(fmt::format("{}: the state ends before block '{}' ({})", origin_, name, what));
    std::memcpy(&v, data_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  };
  const std::uint64_t name_size = u64("name");
  if (name_size > data_.size() - pos_)
    throw InputError(fmt::format("{}: the state ends before block '{}'", origin_, name));
  const std::string found(data_.data() + pos_, name_size);
  pos_ += name_size;
  if (found != name)
    throw InputError(
        fmt::format("{}: block '{}' where '{}' was expected: the checkpoint holds another "
                    "kind of state",
                    origin_, found, name));
  const std::uint64_t n = u64("size");
  if (n != size)
    throw InputError(fmt::format("{}: block '{}' holds {} bytes, this run has {}: another case or lattice size",
                                 origin_, name, n, size));
  if (n > data_.size() - pos_) throw InputError(fmt::format("{}: block '{}' is truncated", origin_, name));
  if (n > 0) std::memcpy(data, data_.data() + pos_, n);
  pos_ += n;
}

void StateArchive::expect_end() const {
  if (loading_ && pos_ != data_.size())
    throw InputError(
        fmt::format("{}: {} bytes of state left unread: the checkpoint holds more than this run "
                    "restores",
                    origin_, data_.size() - pos_));
}

}  // namespace immerse
