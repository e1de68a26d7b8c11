#include "immerse/core/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "immerse/core/error.hpp"

namespace immerse {

void OutputFile::write(const char* data, std::size_t size) {
  flush();
  if (std::fwrite(data, 1, size, f_) != size)
    throw OutputError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
}

void OutputFile::flush() {
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), f_) != buffer_.size())
    throw OutputError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
  buffer_.clear();
}

void write_file_atomically(const std::string& path, const std::function<void(OutputFile&)>& write, bool durable) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  try {
    OutputFile out(f, path);
    write(out);
    out.flush();
    if (std::fflush(f) != 0 || (durable && fsync(fileno(f)) != 0))
      throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  } catch (...) {
    std::fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
  // fclose writes what the C library still buffers: a full disk can show only here.
  if (std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    throw OutputError(fmt::format("cannot write {}: {}", path, reason));
  }
}

void write_file_atomically(const std::string& path, const std::string& content, bool durable) {
  write_file_atomically(
      path, [&](OutputFile& out) { out.write(content); }, durable);
}

}  // namespace immerse
