#include "immerse/core/huge_page_buffer.hpp"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace immerse {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kLine = 64;
// Below this size a buffer's 4 KiB faults cost less than the rounding up to a whole huge page.
constexpr std::size_t kAdviseFrom = std::size_t(1) << 20;
}  // namespace

void HugePageBuffer::Free::operator()(void* p) const { std::free(p); }

HugePageBuffer::HugePageBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const bool huge = bytes >= kAdviseFrom;
  const std::size_t align = huge ? kHugePage : kLine;
  const std::size_t size = (bytes + align - 1) / align * align;  // aligned_alloc wants a multiple
  p_.reset(std::aligned_alloc(align, size));
  if (!p_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) advised_ = madvise(p_.get(), size, MADV_HUGEPAGE) == 0;
#endif
}

}  // namespace immerse
