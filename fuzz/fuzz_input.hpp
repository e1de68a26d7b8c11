#pragma once
// What the fuzz targets share: a private scratch folder per process, and writing an input there as
// a file, because the code under test reads case files and meshes by path (a case's "base" is
// resolved relative to its file).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace immerse::fuzz {

// Removed with its files when the process exits.
class ScratchDir {
 public:
  ScratchDir() : path_(std::filesystem::temp_directory_path() / ("immerse-fuzz-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline const std::filesystem::path& scratch_dir() {
  static const ScratchDir dir;
  return dir.path();
}

inline std::string write_input(const std::string& name, const std::string& bytes) {
  const std::string path = (scratch_dir() / name).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

}  // namespace immerse::fuzz
