// Huge pages for large host arrays (huge_pages.hpp, large_view.hpp): scratch buffers aligned to 2 MiB,
// zeroed Views advised before their first touch, so that touch costs one fault per 2 MiB instead of
// one per 4 KiB where the kernel offers huge pages.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "immerse/core/huge_pages.hpp"
#include "immerse/core/large_view.hpp"
#include "support/backends.hpp"

#if defined(__linux__)
#include <sys/mman.h>
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

template <class Exec>
class LargeView : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(LargeView, test::EnabledSpaces);

// Extents as asked, every element 0, also where the allocator hands back memory a freed View of
// the same size had filled.
TYPED_TEST(LargeView, IsZeroedWithTheExtentsAsked) {
  using Exec = TypeParam;
  using view = Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::Device<Exec, typename Exec::memory_space>>;
  const long n = (3L << 20) / 4 + 5;  // 3 MiB and a bit per column
  {
    view dirty("dirty", n, 3);
    Kokkos::deep_copy(dirty, 7.0f);
  }
  const view v = large_view<view>("large", n, 3);
  EXPECT_EQ(v.extent(0), std::size_t(n));
  EXPECT_EQ(v.extent(1), 3u);
  EXPECT_EQ(v.label(), "large");
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  long nonzero = 0;
  for (long i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) nonzero += h(i, j) != 0.0f;
  EXPECT_EQ(nonzero, 0);
}

#if defined(__linux__)
// The reason for both: touching 64 MiB page by page takes 16384 faults on 4 KiB pages and 32 on
// huge pages. Up to half the 4 KiB count passes (the kernel falls back to small pages where it has
// no free huge page at hand). 64 MiB is past glibc's largest mmap threshold (32 MiB), so the memory
// is fresh, not a freed array's that has been touched already.
class FirstTouch : public ::testing::Test {
 protected:
  static constexpr std::size_t kBytes = std::size_t(64) << 20, kSmallPages = kBytes / 4096;
  void SetUp() override {
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(mode, line) || line.find("[never]") != std::string::npos)
      GTEST_SKIP() << "transparent huge pages are not available here";
  }
  // Minor faults of the process so far, every thread's (the zeroing threads' included).
  static long faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return long(u.ru_minflt);
  }
};

// Without the advice every page faults and this fails.
TEST_F(FirstTouch, OfABufferTakesFewerFaultsThanSmallPages) {
  HugePageBuffer b(kBytes);
  ASSERT_TRUE(b.advised());
  const long before = faults();
  for (std::size_t i = 0; i < kBytes; i += 4096) b.as<char>()[i] = 1;
  const long taken = faults() - before;
  EXPECT_LT(taken, long(kSmallPages / 2)) << "64 MiB first touched with " << taken << " faults";
}

// The advice comes before the zeroing: advised after it, this fails.
TEST_F(FirstTouch, OfALargeViewTakesFewerFaultsThanSmallPages) {
  using view = Kokkos::View<char*, Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>;
  const long before = faults();
  const view v = large_view<view>("faults", kBytes);
  const long taken = faults() - before;
  EXPECT_LT(taken, long(kSmallPages / 2)) << "64 MiB zeroed with " << taken << " faults";
}
// huge_page_share reads the kernel's account of a mapping: an advised buffer whose touch took
// fewer faults than half its small pages lies mostly in huge pages; one the kernel was told to keep
// in small pages (MADV_NOHUGEPAGE) not at all.
TEST_F(FirstTouch, HugePageShareSaysWhereTheKernelGaveThem) {
  HugePageBuffer huge(kBytes);
  ASSERT_TRUE(huge.advised());
  const long before = faults();
  std::memset(huge.as<char>(), 1, kBytes);
  if (faults() - before < long(kSmallPages / 2)) EXPECT_GE(huge_page_share(huge.as<char>() + kBytes / 2), 0.5);
  HugePageBuffer small(kBytes);
  ASSERT_EQ(madvise(small.as<char>(), kBytes, MADV_NOHUGEPAGE), 0);
  std::memset(small.as<char>(), 1, kBytes);
  EXPECT_EQ(huge_page_share(small.as<char>() + kBytes / 2), 0.0);
  EXPECT_EQ(huge_page_share(nullptr), 0.0);  // no mapping
}
#endif

}  // namespace
}  // namespace immerse
