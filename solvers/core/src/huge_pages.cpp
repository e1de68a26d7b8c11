#include "immerse/core/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#endif

namespace immerse {

namespace {
constexpr std::size_t kLine = 64;
}  // namespace

bool advise_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (!p || bytes < kHugePageFrom) return false;
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (a + kHugePage - 1) / kHugePage * kHugePage, end = (a + bytes) / kHugePage * kHugePage;
  if (end <= begin) return false;
  return madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0;
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

bool collapse_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__)
#ifndef MADV_COLLAPSE
  constexpr int MADV_COLLAPSE = 25;  // Linux 6.1's value, for older headers
#endif
  if (!p || bytes == 0) return false;
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (a + kHugePage - 1) / kHugePage * kHugePage,
                       last = (a + bytes + kHugePage - 1) / kHugePage * kHugePage;
  if (begin >= last) return false;  // no page begins in the range
  for (std::uintptr_t page = begin; page < last; page += kHugePage) (void)*reinterpret_cast<volatile const char*>(page);
  // EAGAIN: a page was busy (another process faulting in the same 2 MiB); the kernel has made the
  // others, and a later try may find the busy one free.
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (madvise(reinterpret_cast<void*>(begin), last - begin, MADV_COLLAPSE) == 0) return true;
    if (errno != EAGAIN) return false;
    sched_yield();
  }
  return false;
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

bool collapse_huge_page_at(void* p) {
  const std::uintptr_t page = reinterpret_cast<std::uintptr_t>(p) / kHugePage * kHugePage;
  return collapse_huge_pages(reinterpret_cast<void*>(page), 1);
}

double huge_page_share(const void* p) {
#if defined(__linux__)
  // smaps: a header line per mapping ("start-end perms ..."), then "Key: value kB" lines.
  std::ifstream smaps("/proc/self/smaps");
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  double rss = 0, huge = 0;
  for (std::string line; std::getline(smaps, line);) {
    const std::size_t dash = line.find('-'), colon = line.find(':');
    if (dash != std::string::npos && (colon == std::string::npos || dash < colon) && line.find(' ') > dash) {
      if (inside) break;  // the mapping after ours
      std::uintptr_t lo = 0, hi = 0;
      std::istringstream(line.substr(0, dash)) >> std::hex >> lo;
      std::istringstream(line.substr(dash + 1)) >> std::hex >> hi;
      inside = a >= lo && a < hi;
      continue;
    }
    if (!inside || colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    const double kb = std::atof(line.c_str() + colon + 1);
    if (key == "Rss") rss = kb;
    if (key == "AnonHugePages" || key == "ShmemPmdMapped" || key == "FilePmdMapped") huge += kb;
  }
  return rss > 0 ? huge / rss : 0.0;
#else
  (void)p;
  return 0.0;
#endif
}

void HugePageBuffer::Free::operator()(void* p) const { std::free(p); }

HugePageBuffer::HugePageBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const bool huge = bytes >= kHugePageFrom;
  const std::size_t align = huge ? kHugePage : kLine;
  const std::size_t size = (bytes + align - 1) / align * align;  // aligned_alloc wants a multiple
  p_.reset(std::aligned_alloc(align, size));
  if (!p_) throw std::bad_alloc();
  if (huge) advised_ = advise_huge_pages(p_.get(), size);
}

}  // namespace immerse
