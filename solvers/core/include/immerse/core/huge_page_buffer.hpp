#pragma once
// Host memory for large scratch arrays that a precompute writes once and reads a few times (the
// added mass's dense collocation matrices). Each buffer of at least 1 MiB is aligned to 2 MiB and
// advised as transparent huge pages (Linux madvise; THP in its default "madvise" mode), so touching
// it for the first time costs a page fault per 2 MiB instead of one per 4 KiB. On virtual machines
// a 4 KiB fault costs ~10 us (this project's CI machine), and a fresh process's first solve pays one
// per page of every new matrix. Smaller buffers, and systems without madvise, get plain
// cache-line-aligned memory. The contents start unset.
#include <cstddef>
#include <memory>

namespace immerse {

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
