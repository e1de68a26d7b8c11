#pragma once
// How the turbulence precompute's kernels (turbulence_kernels.hpp) read their fields: OneSample, a
// number per element (every backend), or XLanes, HostLanes<double>::width consecutive elements
// along x (host vectors, where IMMERSE_HOST_GATHER is defined), their trilinear samples by gathers.
// Both do the same operations in the same order, so a cell gets the same bits either way.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "immerse/core/simd_lanes.hpp"

namespace immerse::mac3d::detail {

struct OneSample {
  using T = double;  // a number per element
  using I = int;     // an index per element
  KOKKOS_FORCEINLINE_FUNCTION static double load(const double* p, long k) { return p[k]; }
  KOKKOS_FORCEINLINE_FUNCTION static double flag(const std::uint8_t* p, long k) { return p[k]; }
  KOKKOS_FORCEINLINE_FUNCTION static double at(const double* p, int k) { return p[k]; }
  KOKKOS_FORCEINLINE_FUNCTION static void store(double* p, long k, double x) { p[k] = x; }
  // The x index of the element(s) starting at i.
  KOKKOS_FORCEINLINE_FUNCTION static int lane_index(int i) { return i; }
  KOKKOS_FORCEINLINE_FUNCTION static int index_of(int n) { return n; }  // n in every element
  KOKKOS_FORCEINLINE_FUNCTION static double real(int k) { return k; }
  KOKKOS_FORCEINLINE_FUNCTION static int truncate(double x) { return static_cast<int>(x); }
  KOKKOS_FORCEINLINE_FUNCTION static double sqrt(double x) { return Kokkos::Experimental::sqrt(x); }
  // a < b ? x : y, element by element.
  KOKKOS_FORCEINLINE_FUNCTION static double if_less(double a, double b, double x, double y) { return a < b ? x : y; }
  KOKKOS_FORCEINLINE_FUNCTION static int if_less(int a, int b, int x, int y) { return a < b ? x : y; }
  // fmin / fmax with their NaN rule (a NaN argument loses to a number), as compares.
  KOKKOS_FORCEINLINE_FUNCTION static double min_of(double a, double b) { return (a < b || b != b) ? a : b; }
  KOKKOS_FORCEINLINE_FUNCTION static double max_of(double a, double b) { return (a > b || b != b) ? a : b; }
};

#if defined(IMMERSE_HOST_GATHER)
struct XLanes {
  using T = HostLanes<double>;
  using I = HostIndices;
  static constexpr int width = T::width;
  static T load(const double* p, long k) { return T::load(p + k); }
  static T flag(const std::uint8_t* p, long k) { return T::load_widened(p + k); }
  static T at(const double* p, I k) { return gather(p, k); }
  static void store(double* p, long k, T x) { x.store(p + k); }
  static I lane_index(int i) {
    I r;
    for (int l = 0; l < width; ++l) r[l] = i + l;
    return r;
  }
  static I index_of(int n) { return I{} + n; }
  static T real(I k) { return to_real(k); }
  static I truncate(T x) { return immerse::truncate(x); }
  static T sqrt(T x) {
#if defined(__AVX512F__)
    return T(_mm512_maskz_sqrt_pd(0xFF, x.x));  // the plain form starts from an undefined vector (GCC 12 warns)
#else
    return T(_mm256_sqrt_pd(x.x));
#endif
  }
  static T if_less(T a, T b, T x, T y) { return a.x < b.x ? x.x : y.x; }
  static I if_less(I a, I b, I x, I y) { return a < b ? x : y; }
  static T min_of(T a, T b) { return (a.x < b.x) | (b.x != b.x) ? a.x : b.x; }
  static T max_of(T a, T b) { return (a.x > b.x) | (b.x != b.x) ? a.x : b.x; }
};
#endif

}  // namespace immerse::mac3d::detail
