// Large scratch buffers: aligned to 2 MiB and backed by huge pages where the kernel offers them,
// so a first touch costs one fault per 2 MiB instead of one per 4 KiB.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "immerse/core/huge_page_buffer.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace immerse {
namespace {

std::uintptr_t address(const HugePageBuffer& b) { return reinterpret_cast<std::uintptr_t>(b.as<char>()); }

TEST(HugePageBuffer, LargeBuffersAreAlignedToHugePagesAndWritable) {
  const std::size_t bytes = (std::size_t(3) << 20) + 123;  // not a multiple of the huge page
  HugePageBuffer b(bytes);
  ASSERT_NE(b.as<char>(), nullptr);
  EXPECT_EQ(b.bytes(), bytes);
  EXPECT_EQ(address(b) % (std::size_t(2) << 20), 0u);
  std::memset(b.as<char>(), 7, bytes);
  EXPECT_EQ(b.as<char>()[bytes - 1], 7);
}

TEST(HugePageBuffer, SmallBuffersAreLineAlignedAndNotAdvised) {
  HugePageBuffer b(1000);
  ASSERT_NE(b.as<double>(), nullptr);
  EXPECT_EQ(address(b) % 64, 0u);
  EXPECT_FALSE(b.advised());
  HugePageBuffer empty(0);
  EXPECT_EQ(empty.as<double>(), nullptr);
}

#if defined(__linux__)
// The reason for the class: touching 8 MiB page by page takes 2048 faults on 4 KiB pages and 4 on
// huge pages. Allow up to half the 4 KiB count (the kernel falls back to small pages where it has
// no free huge page at hand); without the advice every page faults and this fails.
TEST(HugePageBuffer, FirstTouchTakesFewerFaultsThanSmallPages) {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(mode, line) || line.find("[never]") != std::string::npos)
    GTEST_SKIP() << "transparent huge pages are not available here";
  const std::size_t bytes = std::size_t(8) << 20, pages = bytes / 4096;
  HugePageBuffer b(bytes);
  ASSERT_TRUE(b.advised());
  auto faults = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return long(u.ru_minflt);
  };
  const long before = faults();
  for (std::size_t i = 0; i < bytes; i += 4096) b.as<char>()[i] = 1;
  const long taken = faults() - before;
  EXPECT_LT(taken, long(pages / 2)) << "8 MiB first touched with " << taken << " faults";
}
#endif

}  // namespace
}  // namespace immerse
