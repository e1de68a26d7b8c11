#include "immerse/core/shared_file.hpp"

#include "immerse/core/huge_pages.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace immerse {

namespace {

std::string failed(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}
}  // namespace

std::string shared_memory_dir() {
  const char* dir = std::getenv("IMMERSE_SHARED_MEMORY_DIR");
  return dir && *dir ? dir : "/dev/shm";
}

double shared_memory_dir_room() {
  struct statvfs fs;
  if (statvfs(shared_memory_dir().c_str(), &fs) != 0) return 0.0;
  return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
}

std::size_t shared_file_size(const std::size_t bytes) {
  return bytes == 0 ? kHugePage : (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

std::string create_shared_file(const std::string& tag, const std::size_t bytes, std::string& error) {
  static long taken = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string path = shared_memory_dir() + "/immerse-" + tag + "-" + std::to_string(++taken);
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) continue;  // an earlier run's, left by a crash
    if (fd < 0) {
      error = failed("cannot create", path);
      return "";
    }
    const bool sized = ftruncate(fd, static_cast<off_t>(shared_file_size(bytes))) == 0;
    if (!sized) error = failed("cannot size", path);
    close(fd);
    if (sized) return path;
    unlink(path.c_str());
    return "";
  }
  error = "cannot create a file in " + shared_memory_dir() + ": every name taken";
  return "";
}

void* map_shared_file(const std::string& path, const std::size_t bytes, std::string& error) {
  const std::size_t size = shared_file_size(bytes);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    error = failed("cannot open", path);
    return nullptr;
  }
  // Reserve a page more than needed, place the file at the first 2 MiB boundary, give back the rest.
  void* const room = mmap(nullptr, size + kHugePage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void* p = MAP_FAILED;
  int why = errno;
  if (room != MAP_FAILED) {
    char* const lo = static_cast<char*>(room);
    char* const at =
        reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(lo) + kHugePage - 1) / kHugePage * kHugePage);
    if (at > lo) munmap(lo, at - lo);
    munmap(at + size, lo + kHugePage - at);
    p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    why = errno;
    if (p == MAP_FAILED) munmap(at, size);
  }
  errno = why;
  if (p == MAP_FAILED) error = failed("cannot map", path);
  close(fd);
  return p == MAP_FAILED ? nullptr : p;
}

void unmap_shared_file(void* p, const std::size_t bytes) {
  if (p) munmap(p, shared_file_size(bytes));
}

void remove_shared_file(const std::string& path) { unlink(path.c_str()); }

}  // namespace immerse
