#pragma once
// Every output file is written whole or not at all: the content goes to "<path>.tmp", which is
// flushed, closed and renamed over <path>. A full disk or a missing permission leaves the previous
// file (if any) in place, removes the temporary and throws OutputError naming the file and the
// system's reason.
#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <string>

namespace immerse {

// A buffered text sink over a C file whose every write is checked (fmt::ostream reports a failed
// flush from its destructor, which ends the program).
class OutputFile {
 public:
  template <class... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() >= kFlushBytes) flush();
  }
  // Raw bytes (binary content included), written through without a copy into the buffer.
  void write(const char* data, std::size_t size);
  void write(const std::string& data) { write(data.data(), data.size()); }

 private:
  friend void write_file_atomically(const std::string&, const std::function<void(OutputFile&)>&, bool);
  static constexpr std::size_t kFlushBytes = 1 << 16;
  OutputFile(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
  void flush();
  std::FILE* f_;
  std::string path_;
  fmt::memory_buffer buffer_;
};

// `durable`: also fsync the file before the rename (checkpoints), so a power cut leaves either the
// old file or the whole new one.
void write_file_atomically(const std::string& path, const std::function<void(OutputFile&)>& write,
                           bool durable = false);

// The same for content already in memory.
void write_file_atomically(const std::string& path, const std::string& content, bool durable = false);

}  // namespace immerse
