#pragma once
// Which measured bandwidth counts as the ceiling of a kernel's memory pattern: the bench programs'
// summary line and the report's throughput tables decide it by this one rule. A bandwidth row
// "stream_<row_pattern>/<backend>" bounds kernels of its own pattern (copy, inplace, triad); the
// runtime's own copy (stream_memcpy: read one array, write another, no write-allocate) moves the
// bytes that both the copy and the in-place pattern count, so it bounds those two as well.
#include <string>

namespace immerse {

inline bool bandwidth_row_bounds(const std::string& row_pattern, const std::string& kernel_pattern) {
  return row_pattern == kernel_pattern ||
         (row_pattern == "memcpy" && (kernel_pattern == "copy" || kernel_pattern == "inplace"));
}

}  // namespace immerse
