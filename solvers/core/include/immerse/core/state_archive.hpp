#pragma once
// The state of a run as named binary blocks, for checkpoints. One mechanism for both directions: a
// family writes one `archive(StateArchive&)` that lists its state in order; saving records each
// block, loading fills the same variables back, checking that every name and size matches (a
// checkpoint from another build or case is refused, not misread).
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace immerse {

class StateArchive {
 public:
  // An archive to save into.
  StateArchive() = default;
  // An archive to load from: `blocks` as written by bytes() of a saving archive.
  explicit StateArchive(std::string blocks, std::string origin);

  bool loading() const { return loading_; }

  // A block of raw bytes: written, or read back into `data` (InputError when the next block has
  // another name or size).
  void bytes(const std::string& name, void* data, std::size_t size);

  // A trivially copyable value (numbers, PODs, std::array of them).
  template <class T>
  void value(const std::string& name, T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "StateArchive::value needs a trivially copyable type");
    bytes(name, &v, sizeof(T));
  }

  // A vector of trivially copyable elements; its length is part of the state.
  template <class T>
  void vector(const std::string& name, std::vector<T>& v) {
    static_assert(std::is_trivially_copyable<T>::value, "StateArchive::vector needs trivially copyable elements");
    std::uint64_t n = v.size();
    value(name + ".size", n);
    if (loading_) v.resize(n);
    bytes(name, v.data(), n * sizeof(T));
  }

  // The saved blocks (saving), for the checkpoint file.
  const std::string& blocks() const { return data_; }
  // Loading: InputError unless every block was read.
  void expect_end() const;

 private:
  bool loading_ = false;
  std::string data_;
  std::size_t pos_ = 0;
  std::string origin_;  // the checkpoint file, for messages
};

}  // namespace immerse
