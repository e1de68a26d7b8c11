#pragma once
// How a mac2d kernel written once for a cell reads and writes its arrays: OneCell, a number per
// array (every backend), or CellVector, HostLanes<double>::width consecutive cells along x (host
// vectors; where IMMERSE_HOST_LANES is defined). index(i) is the x index of each lane as a number.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "immerse/core/simd_lanes.hpp"

namespace immerse::mac2d {

struct OneCell {
  using T = double;
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static double load(const F& f, int k) {
    return f(k);
  }
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void store(const F& f, int k, double x) {
    f(k) = x;
  }
  KOKKOS_FORCEINLINE_FUNCTION static double index(int i) { return i; }
};

#if defined(IMMERSE_HOST_LANES)
struct CellVector {
  using T = HostLanes<double>;
  template <class F>
  static T load(const F& f, int k) {  // an array of bytes (0/1 flags) is widened
    if constexpr (std::is_same<std::remove_cv_t<std::remove_pointer_t<decltype(f.data())>>, unsigned char>::value)
      return T::load_widened(f.data() + k);
    else
      return T::load(f.data() + k);
  }
  template <class F>
  static void store(const F& f, int k, T x) {
    x.store(f.data() + k);
  }
  static T index(int i) {  // i, i + 1, ... in the lanes
    T::V r;
    for (int l = 0; l < T::width; ++l) r[l] = l;
    return T(r) + static_cast<double>(i);
  }
};
#endif

}  // namespace immerse::mac2d
