// Lanes' fused multiply-adds (core/simd_lanes.hpp) round once where the build has FMA instructions.
// a = b = 1 + 2^-p (p = 12 in float, 27 in double) and c = 1 + 2^-(p-1): a b - c = 2^-2p exactly,
// which the product rounded first loses (a b rounds to c). This file is compiled without the
// compiler's own contraction (tests/CMakeLists.txt), so only the instructions fuse here.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/core/simd_lanes.hpp"

#if defined(IMMERSE_HOST_LANES)
namespace {

template <class T, int Bytes>
void expect_one_rounding(const int p) {
  using L = immerse::Lanes<T, Bytes>;
  const T a = 1 + std::ldexp(T(1), -p), c = 1 + std::ldexp(T(1), 1 - p);
#if defined(__FMA__)
  const T exact = std::ldexp(T(1), -2 * p);  // one rounding: exact
#else
  const T exact = 0;  // no FMA instructions: the operators' two roundings
#endif
  const L add = mul_add(L(a), L(a), L(-c)), sub = mul_sub(L(a), L(a), L(c)), neg = neg_mul_add(L(a), L(a), L(c));
  for (int l = 0; l < L::width; ++l) {
    EXPECT_EQ(add.x[l], exact) << "lane " << l;
    EXPECT_EQ(sub.x[l], exact) << "lane " << l;
    EXPECT_EQ(neg.x[l], -exact) << "lane " << l;
  }
}

TEST(Lanes, MultiplyAddsRoundOnce) {
  expect_one_rounding<float, 16>(12);
  expect_one_rounding<float, 32>(12);
  expect_one_rounding<double, 16>(27);
  expect_one_rounding<double, 32>(27);
#if defined(__AVX512F__)
  expect_one_rounding<float, 64>(12);
  expect_one_rounding<double, 64>(27);
#endif
}

}  // namespace
#endif
