// The shallow-water populations in reduced storage (lattice.storage, sw_storage.hpp): the binary16
// conversions against IEEE 754's rules and the compiler's own _Float16, the still-water fixed point,
// volume within the storage's stated round-off, and Stoker's dam break (test_sw_dambreak.cpp) in
// every storage.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "immerse/swlbm/sw_flow.hpp"
#include "immerse/swlbm/sw_storage.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::swlbm;

namespace {

// binary16 value of bit pattern h from its definition: (-1)^s 2^(e-15) (1 + m/1024), subnormals
// 2^-14 (m/1024), e = 31 infinity (m = 0) or NaN.
double half_value(std::uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  const double sign = s ? -1.0 : 1.0;
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (e == 0) return sign * std::ldexp(m / 1024.0, -14);
  return sign * std::ldexp(1 + m / 1024.0, e - 15);
}

const Storage kStorages[] = {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c};

// An nx x ny basin of 1 m deep water, v = 10 m/s, walls all round, in storage st.
SwParams basin(int nx, int ny, Storage st) {
  SwParams p;
  p.nx = nx;
  p.ny = ny;
  p.dx = 0.5;
  p.dt = 0.05;
  p.storage = st;
  return p;
}

}  // namespace

// Widening is exact: every one of the 65536 patterns gives its defined value (NaNs stay NaN).
TEST(HalfFloat, WideningIsExactForEveryPattern) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const double want = half_value(h);
    for (const float got : {half_to_float(h), half_to_float_portable(h)}) {
      if (std::isnan(want))
        ASSERT_TRUE(std::isnan(got)) << b;
      else
        ASSERT_EQ(static_cast<double>(got), want) << b;
    }
  }
}

// Narrowing rounds to the nearest binary16, ties to even: at every pattern, at the midpoints to
// both neighbours and one float ulp either side of them, and on random floats over the whole range;
// the fast path (F16C / hardware) and the portable one agree bit for bit.
TEST(HalfFloat, NarrowingRoundsToNearestEven) {
  auto nearest = [](float f) {  // reference: the closest finite pattern by exhaustive search, ties even
    if (std::isnan(f)) return std::uint16_t(0x7e00);
    if (std::abs(f) >= 65520.0f) return std::uint16_t(f > 0 ? 0x7c00 : 0xfc00);
    std::uint16_t best = 0;
    double dbest = 1e300;
    const std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    for (std::uint32_t m = 0; m < 0x7c00; ++m) {
      const std::uint16_t h = static_cast<std::uint16_t>(m | sign);
      const double d = std::abs(half_value(h) - f);
      if (d < dbest || (d == dbest && (h & 1) == 0)) best = h, dbest = d;
    }
    return best;
  };
  std::vector<float> probes = {
      0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, 2.98e-8f, 2.99e-8f, std::numeric_limits<float>::infinity()};
  for (std::uint32_t b = 0; b < 0x7c00; b += 7) {
    const double x = half_value(static_cast<std::uint16_t>(b)), y = half_value(static_cast<std::uint16_t>(b + 1));
    const float mid = static_cast<float>(0.5 * (x + y));
    for (const float f : {static_cast<float>(x), mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)})
      probes.push_back(f), probes.push_back(-f);
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> expo(-26.0f, 16.0f);
  for (int k = 0; k < 2000; ++k) probes.push_back(std::exp2(expo(rng)) * (k % 2 ? -1.0f : 1.0f));
  int checked = 0;
  for (const float f : probes) {
    const std::uint16_t fast = float_to_half(f), portable = float_to_half_portable(f);
    ASSERT_EQ(fast, portable) << f;
    if (checked++ % 9 == 0) ASSERT_EQ(portable, nearest(f)) << f;  // the slow reference on a ninth
  }
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::quiet_NaN()) & 0x7c00, 0x7c00);
}

template <class Exec>
class SwStorage : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(SwStorage, test::EnabledSpaces, test::SpaceName);

// Still water at the reference depth stores zero deviations: a fixed point in every storage, up to
// the float moment sums (1e-6 m) where the arithmetic is in float. FP16C stores those sums' tiny
// deviations to its fixed step below 2^-14 of its scale (6e-8 m here), not to 2^-12 of themselves:
// 5e-6 m (measured 2.0e-6 after the 200 steps).
TYPED_TEST(SwStorage, StillWaterStaysStill) {
  for (const Storage st : kStorages) {
    const SwParams p = basin(20, 12, st);
    auto flow = make_sw_flow(this->backend, p);
    for (int n = 0; n < 200; ++n) flow->step();
    const HostFields f = flow->fields();
    const double tol = st == Storage::fp64 ? 1e-14 : st == Storage::fp16c ? 5e-6 : 1e-6;
    for (size_t c = 0; c < f.h.size(); ++c) {
      ASSERT_NEAR(f.h[c], 1.0, tol) << to_string(st) << " cell " << c;
      ASSERT_NEAR(f.u[c], 0.0, 10 * tol) << to_string(st) << " cell " << c;
    }
  }
}

// A sloshing hump in a closed basin: the volume drifts by the storage's rounding only, within the
// tolerance the cases' conservation checks use (volume_roundoff_tolerance).
TYPED_TEST(SwStorage, VolumeWithinTheStorageRoundOff) {
  for (const Storage st : kStorages) {
    SwParams p = basin(40, 30, st);
    p.initial_h = "1 + 0.3 * exp(-((x - 8)^2 + (y - 6)^2) / 4)";
    p.initial_u = "0.2";
    auto flow = make_sw_flow(this->backend, p);
    const double v0 = flow->volume();
    for (int n = 0; n < 400; ++n) flow->step();
    const double drift = flow->volume() / v0 - 1;
    std::printf("%s: relative volume change %.3g after 400 steps\n", to_string(st).c_str(), drift);
    EXPECT_LE(std::abs(drift), volume_roundoff_tolerance(st).tol) << to_string(st);
    EXPECT_TRUE(flow->status().healthy);
  }
}
