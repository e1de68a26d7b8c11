#pragma once
// Point lists (Eigen 3-vectors) in a checkpoint: Eigen's vectors are three packed doubles but not
// trivially copyable by the standard's rules, so StateArchive::vector does not take them.
#include <cstdint>
#include <string>
#include <vector>

#include "immerse/bodies/eigen.hpp"
#include "immerse/core/state_archive.hpp"

namespace immerse::bodies {

inline void archive_point(StateArchive& a, const std::string& name, Eigen::Vector3d& p) {
  a.bytes(name, p.data(), 3 * sizeof(double));
}

inline void archive_points(StateArchive& a, const std::string& name, std::vector<Eigen::Vector3d>& v) {
  static_assert(sizeof(Eigen::Vector3d) == 3 * sizeof(double), "Eigen::Vector3d is three packed doubles");
  std::uint64_t n = v.size();
  a.value(name + ".size", n);
  if (a.loading()) v.resize(n);
  a.bytes(name, v.data(), n * sizeof(Eigen::Vector3d));
}

}  // namespace immerse::bodies
