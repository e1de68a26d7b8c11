// The file behind the ranks' shared memory (shared_file.hpp): two mappings of one file, as two
// ranks have, see each other's writes after the file is removed, lie 2 MiB-aligned, and their pages
// turn huge (collapse_huge_pages) where the kernel makes them; a mapping 4 KiB off that alignment
// (where MPI's shared windows lie) cannot hold one.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "immerse/core/huge_pages.hpp"
#include "immerse/core/shared_file.hpp"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace immerse {
namespace {

constexpr std::size_t kBytes = (std::size_t(3) << 20) + 5;  // not whole huge pages
constexpr std::size_t kSize = std::size_t(4) << 20;         // what the file gets

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Two mappings of one new file, removed once both are mapped.
struct TwoMappings {
  TwoMappings() {
    const std::string path = create_shared_file("test", kBytes, error);
    if (path.empty()) return;
    a = static_cast<char*>(map_shared_file(path, kBytes, error));
    b = static_cast<char*>(map_shared_file(path, kBytes, error));
    remove_shared_file(path);
  }
  ~TwoMappings() {
    unmap_shared_file(a, kBytes);
    unmap_shared_file(b, kBytes);
  }
  std::string error;
  char* a = nullptr;
  char* b = nullptr;
};

TEST(SharedFile, TwoMappingsShareTheMemoryAfterTheFileIsRemoved) {
  EXPECT_EQ(shared_file_size(kBytes), kSize);
  EXPECT_EQ(shared_file_size(0), kHugePage);
  TwoMappings m;
  ASSERT_NE(m.a, nullptr) << m.error;
  ASSERT_NE(m.b, nullptr) << m.error;
  EXPECT_NE(m.a, m.b);
  EXPECT_EQ(address(m.a) % kHugePage, 0u);
  EXPECT_EQ(address(m.b) % kHugePage, 0u);
  std::memset(m.a, 3, kSize);
  m.b[kSize - 1] = 9;
  EXPECT_EQ(m.b[0], 3);
  EXPECT_EQ(m.a[kSize - 1], 9);
}

#if defined(__linux__)
// The file mapped by hand `shift` bytes past a 2 MiB boundary.
struct HandMapping {
  HandMapping(const std::string& path, std::size_t shift) {
    room = static_cast<char*>(mmap(nullptr, 2 * kSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    const int fd = open(path.c_str(), O_RDWR);
    if (room == MAP_FAILED || fd < 0) return;
    char* const at = reinterpret_cast<char*>((address(room) + kHugePage - 1) / kHugePage * kHugePage + shift);
    if (mmap(at, kSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == at) p = at;
    close(fd);
  }
  ~HandMapping() {
    if (room != MAP_FAILED) munmap(room, 2 * kSize);
  }
  char* room = static_cast<char*>(MAP_FAILED);
  char* p = nullptr;
};

void touch(const char* p) {
  for (std::size_t i = 0; i < kSize; i += 4096) (void)*static_cast<volatile const char*>(p + i);
}

TEST(SharedFile, EveryMappingHoldsTheHugePagesTheKernelMade) {
  std::string error;
  const std::string path = create_shared_file("test", kBytes, error);
  ASSERT_FALSE(path.empty()) << error;
  const HandMapping aligned(path, 0), off(path, 4096);  // off: where MPI's shared windows lie
  char* const a = static_cast<char*>(map_shared_file(path, kBytes, error));
  char* const b = static_cast<char*>(map_shared_file(path, kBytes, error));
  remove_shared_file(path);
  ASSERT_TRUE(aligned.p && off.p && a && b) << error;
  // Whether the kernel makes huge pages of shared memory, asked by hand through a mapping aligned
  // by hand: a page of each to start from, then MADV_COLLAPSE (25; Linux 6.1 or later).
  aligned.p[0] = aligned.p[kHugePage] = 0;
  if (madvise(aligned.p, kSize, 25) != 0) GTEST_SKIP() << "this kernel makes no huge pages of shared memory";
  std::memset(a, 1, kSize);
  touch(b);
  touch(off.p);
  EXPECT_EQ(huge_page_share(aligned.p), 1.0);
  EXPECT_EQ(huge_page_share(a), 1.0);
  EXPECT_EQ(huge_page_share(b), 1.0);
  // 4 KiB off, the same huge pages are mapped in 4 KiB pieces, and no collapse changes that.
  EXPECT_EQ(huge_page_share(off.p), 0.0);
  EXPECT_FALSE(collapse_huge_pages(off.p, kSize));
  EXPECT_EQ(b[kSize - 1], 1);
  unmap_shared_file(a, kBytes);
  unmap_shared_file(b, kBytes);

  TwoMappings fresh;  // collapse_huge_pages through map_shared_file's mapping, as NodeSharedFields
  ASSERT_NE(fresh.a, nullptr) << fresh.error;  // does, nothing touched yet
  // The pages that begin in the range: of a range 1 MiB in, the second only.
  EXPECT_TRUE(collapse_huge_pages(fresh.a + (1 << 20), kHugePage));
  std::memset(fresh.a, 2, kSize);
  touch(fresh.b);
  EXPECT_EQ(huge_page_share(fresh.b), 0.5);
  // The first one afterwards, written already: its contents kept, the other mapping's pages huge.
  EXPECT_TRUE(collapse_huge_page_at(fresh.a + 5));
  touch(fresh.b);
  EXPECT_EQ(huge_page_share(fresh.b), 1.0);
  EXPECT_EQ(fresh.b[0], 2);
  EXPECT_EQ(fresh.b[kSize - 1], 2);
}
#endif

TEST(SharedFile, AMissingDirectoryNamesThePathAndTheReason) {
  setenv("IMMERSE_SHARED_MEMORY_DIR", "/nonexistent/shm", 1);
  std::string error;
  EXPECT_EQ(shared_memory_dir(), "/nonexistent/shm");
  EXPECT_EQ(shared_memory_dir_room(), 0.0);
  EXPECT_EQ(create_shared_file("test", kBytes, error), "");
  EXPECT_NE(error.find("cannot create /nonexistent/shm/immerse-test-"), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  error.clear();
  EXPECT_EQ(map_shared_file("/nonexistent/shm/immerse-test-1", kBytes, error), nullptr);
  EXPECT_NE(error.find("cannot open /nonexistent/shm/immerse-test-1"), std::string::npos) << error;
  unsetenv("IMMERSE_SHARED_MEMORY_DIR");
  EXPECT_EQ(shared_memory_dir(), "/dev/shm");
}

}  // namespace
}  // namespace immerse
