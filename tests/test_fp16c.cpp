// FluidX3D's 16-bit format (core/fp16c.hpp) against its definition, computed here independently in
// double: value = (-1)^s 2^(e-15) (1 + m/2048) for e = 1..15, (-1)^s 2^-14 m/2048 for e = 0.
// Widening is exact for every one of the 65536 patterns; narrowing gives the nearest value, ties
// to the even mantissa, saturating at the largest; the AVX-512 lanes equal the scalar form bit for
// bit; every backend's kernels give the host's bits.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "immerse/core/fp16c.hpp"
#include "support/backends.hpp"

using immerse::Fp16c;

namespace {

double defined_value(std::uint16_t h) {
  const int e = (h >> 11) & 15, m = h & 2047;
  const double v = e == 0 ? std::ldexp(m / 2048.0, -14) : std::ldexp(1 + m / 2048.0, e - 15);
  return (h & 0x8000) ? -v : v;
}

// The nearest pattern of the format to x by its definition (ties: the even mantissa; beyond the
// largest: the largest).
std::uint16_t nearest(double x) {
  static const std::vector<double> positive = [] {
    std::vector<double> v(0x8000);
    for (int h = 0; h < 0x8000; ++h) v[h] = defined_value(static_cast<std::uint16_t>(h));
    return v;
  }();
  const double a = std::fabs(x);
  auto it = std::lower_bound(positive.begin(), positive.end(), a);
  std::uint16_t h;
  if (it == positive.end()) {
    h = 0x7fff;
  } else if (it == positive.begin()) {
    h = 0;
  } else {
    const auto above = static_cast<std::uint16_t>(it - positive.begin()), below = static_cast<std::uint16_t>(above - 1);
    const double up = positive[above] - a, down = a - positive[below];
    h = up < down ? above : down < up ? below : ((above & 1) == 0 ? above : below);
  }
  return static_cast<std::uint16_t>(h | (std::signbit(x) ? 0x8000 : 0));
}

std::uint16_t bits(Fp16c h) { return static_cast<std::uint16_t>(h); }

std::vector<float> samples() {
  std::vector<float> x;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> exponent(-30, 1.2), sign(-1, 1);
  for (int k = 0; k < 200000; ++k) x.push_back(static_cast<float>((sign(rng) < 0 ? -1 : 1) * std::exp2(exponent(rng))));
  // Every tie between neighbours (mid-points are exact floats), the range's ends and zero.
  for (int h = 0; h < 0x7fff; ++h) {
    const double mid =
        (defined_value(static_cast<std::uint16_t>(h)) + defined_value(static_cast<std::uint16_t>(h + 1))) / 2;
    x.push_back(static_cast<float>(mid));
    x.push_back(static_cast<float>(-mid));
  }
  for (float v :
       {0.0f, -0.0f, 1.99951171875f, 1.999755859375f, 2.0f, 3.5f, 1e30f, std::ldexp(1.0f, -14), std::ldexp(1.0f, -26)})
    x.push_back(v);
  return x;
}

}  // namespace

TEST(Fp16c, WideningIsTheDefinedValue) {
  for (int h = 0; h < 0x10000; ++h) {
    const auto p = static_cast<std::uint16_t>(h);
    ASSERT_EQ(static_cast<double>(immerse::fp16c_to_float(static_cast<Fp16c>(p))), defined_value(p)) << std::hex << h;
  }
}

TEST(Fp16c, NarrowingRoundsToNearestEvenAndSaturates) {
  for (const float x : samples()) ASSERT_EQ(bits(immerse::float_to_fp16c(x)), nearest(x)) << x;
  for (int h = 0; h < 0x10000; ++h) {  // every value comes back to its pattern
    const auto p = static_cast<std::uint16_t>(h);
    ASSERT_EQ(bits(immerse::float_to_fp16c(immerse::fp16c_to_float(static_cast<Fp16c>(p)))), p) << std::hex << h;
  }
  EXPECT_EQ(bits(immerse::float_to_fp16c(std::nanf(""))), 0x7fff);
}

// The lane form of width W against the scalar form, bit for bit: every rounding sample narrowed
// (narrow: W floats to W FP16C values), every 16-bit pattern widened (widen: the reverse).
template <int W, class Narrow, class Widen>
void expect_lanes_equal_scalar(const Narrow& narrow, const Widen& widen) {
  std::vector<float> x = samples();
  x.resize(x.size() / W * W);
  for (std::size_t k = 0; k < x.size(); k += W) {
    std::uint16_t out[W];
    narrow(&x[k], out);
    for (int l = 0; l < W; ++l) ASSERT_EQ(out[l], bits(immerse::float_to_fp16c(x[k + l]))) << x[k + l];
  }
  for (int h = 0; h < 0x10000; h += W) {
    std::uint16_t in[W];
    float out[W];
    for (int l = 0; l < W; ++l) in[l] = static_cast<std::uint16_t>(h + l);
    widen(in, out);
    for (int l = 0; l < W; ++l) {  // bit for bit: -0 too
      const float scalar = immerse::fp16c_to_float(static_cast<Fp16c>(in[l]));
      std::uint32_t a, b;
      std::memcpy(&a, &out[l], 4);
      std::memcpy(&b, &scalar, 4);
      ASSERT_EQ(a, b) << std::hex << h + l;
    }
  }
}

#if defined(__AVX512F__) && defined(__AVX512BW__) && !defined(__NVCC__) && !defined(__clang__)
TEST(Fp16c, SixteenLanesEqualTheScalarForm) {
  expect_lanes_equal_scalar<16>(
      [](const float* x, std::uint16_t* out) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), immerse::float16_to_fp16c(_mm512_loadu_ps(x)));
      },
      [](const std::uint16_t* in, float* out) {
        _mm512_storeu_ps(out, immerse::fp16c_to_float16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in))));
      });
}
#elif defined(IMMERSE_FP16C_AVX2)
TEST(Fp16c, EightLanesEqualTheScalarForm) {
  expect_lanes_equal_scalar<8>(
      [](const float* x, std::uint16_t* out) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), immerse::float8_to_fp16c(_mm256_loadu_ps(x)));
      },
      [](const std::uint16_t* in, float* out) {
        _mm256_storeu_ps(out, immerse::fp16c_to_float8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
      });
}
#endif

template <class Exec>
class Fp16cOnBackend : public immerse::test::BackendTest<Exec> {};
TYPED_TEST_SUITE(Fp16cOnBackend, immerse::test::EnabledSpaces, immerse::test::SpaceName);

// Each of the 65536 patterns widened and narrowed back, and a spread of floats narrowed, in a kernel.
TYPED_TEST(Fp16cOnBackend, KernelsGiveTheHostsBits) {
  using Exec = TypeParam;
  const std::vector<float> x = samples();
  const int n = static_cast<int>(x.size());
  Kokkos::View<float*, Kokkos::HostSpace> hx("x", n);
  for (int k = 0; k < n; ++k) hx(k) = x[k];
  auto dx = Kokkos::create_mirror_view_and_copy(typename Exec::memory_space(), hx);
  Kokkos::View<std::uint16_t*, typename Exec::memory_space> narrowed("narrowed", n), back("back", 0x10000);
  Kokkos::View<float*, typename Exec::memory_space> widened("widened", 0x10000);
  Kokkos::parallel_for(
      "test::fp16c_narrow", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(int k) { narrowed(k) = static_cast<std::uint16_t>(immerse::float_to_fp16c(dx(k))); });
  Kokkos::parallel_for(
      "test::fp16c_widen", Kokkos::RangePolicy<Exec>(0, 0x10000), KOKKOS_LAMBDA(int h) {
        widened(h) = immerse::fp16c_to_float(static_cast<Fp16c>(static_cast<std::uint16_t>(h)));
        back(h) = static_cast<std::uint16_t>(immerse::float_to_fp16c(widened(h)));
      });
  auto hn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), narrowed);
  auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), widened);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), back);
  for (int k = 0; k < n; ++k) ASSERT_EQ(hn(k), bits(immerse::float_to_fp16c(x[k]))) << x[k];
  for (int h = 0; h < 0x10000; ++h) {
    ASSERT_EQ(hw(h), immerse::fp16c_to_float(static_cast<Fp16c>(static_cast<std::uint16_t>(h)))) << std::hex << h;
    ASSERT_EQ(hb(h), h) << std::hex << h;
  }
}
