#pragma once
// Transparent huge pages for large host arrays. A fresh array costs a page fault per page at its
// first touch; on virtual machines a 4 KiB fault costs ~10 us (this project's CI machine: a 1 GB
// lattice took 3.4 s to zero), a 2 MiB one about as much as 50 small ones do. Memory advised
// MADV_HUGEPAGE before its first touch gets 2 MiB pages wherever it covers whole ones (Linux, THP in
// its default "madvise" mode; the kernel falls back to 4 KiB pages when none is free). Elsewhere,
// and for small arrays, nothing changes.
#include <cstddef>
#include <memory>

namespace immerse {

// The huge pages this asks for: x86-64's and most ARM kernels' PMD size.
constexpr std::size_t kHugePage = std::size_t(2) << 20;

// Arrays below this size are left alone: rounding them to whole huge pages costs more than it saves.
constexpr std::size_t kHugePageFrom = std::size_t(1) << 20;

// Advises the whole 2 MiB pages inside [p, p + bytes) as huge pages; call it before the memory is
// first touched. Returns whether a range was advised.
bool advise_huge_pages(void* p, std::size_t bytes);

// Makes the 2 MiB pages that begin in [p, p + bytes) huge now, whatever the system's THP settings
// (Linux >= 6.1, MADV_COLLAPSE): shared memory too, which Linux otherwise backs with 4 KiB pages
// unless /dev/shm is mounted with huge=. The last of them may reach past the range: processes that
// collapse the ranges of one memory side by side each take the pages that begin in theirs, so no two
// work on one page at once (that one fails). Reads the first byte of each page first, so that the
// collapse has a page to start from and fills the rest with zeros rather than copying it: call it on
// fresh memory, before writing it. Pages of the same memory mapped elsewhere turn huge there too
// where that mapping is 2 MiB-aligned with the memory's offset. Returns whether every page turned
// huge (false off Linux, on older kernels, where no page begins in the range, or where the kernel
// had no huge page free).
bool collapse_huge_pages(void* p, std::size_t bytes);
// The same for the 2 MiB page that holds `p`.
bool collapse_huge_page_at(void* p);

// The share of the memory mapping that holds `p` which lies in huge pages (Linux: the mapping's
// huge-page kB over its resident kB in /proc/self/smaps, private or shared); 0 where nothing of it
// is resident, or off Linux. A diagnostic: which pages the kernel gave is its choice.
double huge_page_share(const void* p);

// Host scratch memory for large arrays written once and read a few times (the added mass's dense
// matrices): from kHugePageFrom bytes on, aligned to 2 MiB and advised as huge pages; below,
// cache-line aligned. The contents start unset.
class HugePageBuffer {
 public:
  HugePageBuffer() = default;
  explicit HugePageBuffer(std::size_t bytes);

  template <class T>
  T* as() const {
    return static_cast<T*>(p_.get());
  }
  std::size_t bytes() const { return bytes_; }
  // Whether the buffer was advised as huge pages (a diagnostic: the kernel may still back it with
  // 4 KiB pages when no huge page is free).
  bool advised() const { return advised_; }

 private:
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> p_;
  std::size_t bytes_ = 0;
  bool advised_ = false;
};

}  // namespace immerse
