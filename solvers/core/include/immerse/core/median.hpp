#pragma once
// The median of a sample: the middle value, or the mean of the two middle values of an even count;
// `none` for an empty sample.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace immerse {

inline double median(std::vector<double> v, double none = 0) {
  if (v.empty()) return none;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

}  // namespace immerse
