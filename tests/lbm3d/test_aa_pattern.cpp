// The AA pattern (lbm_aa_kernels.hpp, lbm_aa_line_kernel.hpp) against the pull pattern, which the
// rest of the lattice tests check against analytic solutions. The reference is exact: with fixed
// cell groups, an exchange step from the post-collision state stored swapped is the pull step, and
// two AA steps (exchange, local) leave the post-collision state of two pull steps, stored swapped.
// - kernels (host spaces): the line form of each AA step writes what the per-cell form writes (the
//   one device spaces run), and two AA steps give two pull steps' populations, on every border kind,
//   with bodies on faces and periodic seams;
// - solver (every enabled backend): lattice.pattern aa and pull give the same fields after odd and
//   even step counts, with borders, a body force and a body, across a change of the cell groups
//   made where both patterns hold the same post-collision state, with a body whose velocity
//   changes before every step, and with one that moves before every step (after odd steps the AA
//   pattern re-pairs the links of the cells that change: AaRelink).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "body_groups.hpp"
#include "immerse/core/error.hpp"
#include "immerse/lbm3d/lbm_aa_line_kernel.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"
#include "lattice_setup.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

namespace {

// The line and cell forms relax the same gathered values with the same expressions; only the
// compiler's fused multiply-adds differ between SIMD and scalar code: a few units in the last place
// of populations of order 0.1, per step (the line kernel test's bound, two steps here).
template <class Real>
constexpr double kernel_tolerance() {
  return sizeof(Real) == 4 ? 2e-6 : 2e-14;
}

template <class Real, class Exec>
void check_aa_kernels(const kernel_test::LatticeSetup& s) {
  using Device = typename Exec::device_type;
  auto t = kernel_test::make_test_lattice<Real, Exec>(s);
  const long n = t.n, S = t.stride;
  // AA buffers start from the same post-collision state, water stored swapped (body cells unswapped).
  Kokkos::View<Real*, Device> by_line("by_line", 15 * S), by_cell("by_cell", 15 * S);
  for (long c = 0; c < n; ++c)
    for (int q = 0; q < 15; ++q) {
      const int slot = is_body(t.groups[c]) ? q : D3Q15::opposite(q);
      by_line(slot * S + c) = by_cell(slot * S + c) = t.src(q * S + c);
    }
  AaStep<Real, Exec> step{t.k, {}, true, s.bodies};
  const double tol = kernel_tolerance<Real>();
  for (const bool exchange : {true, false}) {
    step.exchange = exchange;
    step.f = by_cell;
    Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), step);
    step.f = by_line;
    const AaLines<Real, Exec> lines{step};
    Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, s.ny * s.nz), lines);
    Exec().fence();
    EXPECT_EQ(kernel_test::count_differences(by_line, by_cell, s, S, tol,
                                             exchange ? "exchange step, line vs cell" : "local step, line vs cell"),
              0);
  }

  // Two pull steps (cell kernel) from the same state.
  Kokkos::View<Real*, Device> once("once", 15 * S), twice("twice", 15 * S);
  auto k = t.k;
  k.dst = once;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), k);
  Exec().fence();
  k.src = once;
  k.dst = twice;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), k);
  Exec().fence();
  // Read the AA state back unswapped: it must be the pull state.
  Kokkos::View<Real*, Device> unswapped("unswapped", 15 * S);
  for (long c = 0; c < n; ++c)
    for (int q = 0; q < 15; ++q)
      unswapped(q * S + c) = by_cell((is_body(t.groups[c]) ? q : D3Q15::opposite(q)) * S + c);
  EXPECT_EQ(kernel_test::count_differences(unswapped, twice, s, S, tol, "two AA steps vs two pull steps"), 0);
}

}  // namespace

// Every setup whose periodic faces come in pairs, as check_stability demands of a lattice: the
// exchange step swaps populations between the two ends of a periodic wrap, which a lone periodic face
// (wrapping onto a face of another kind) does not have. One of the setups has one, for the pull
// kernel's sake; it is skipped here.
TEST(LatticeAaPattern, KernelsMatchThePullPatternOnEveryBorderKind) {
  int checked = 0;
  for (auto s : kernel_test::border_setups()) {
    bool paired = true;
    for (int a = 0; a < 3; ++a) paired = paired && (s.border[2 * a] == kPeriodic) == (s.border[2 * a + 1] == kPeriodic);
    if (!paired) continue;
    for (const bool bodies : {true, false}) {
      s.bodies = bodies;
      ++checked;
      SCOPED_TRACE(testing::Message() << s.nx << "x" << s.ny << "x" << s.nz << (s.forced ? " forced" : "")
                                      << (bodies ? "" : " without bodies"));
      check_aa_kernels<float, Kokkos::Serial>(s);
      check_aa_kernels<double, Kokkos::Serial>(s);
#if defined(IMMERSE_ENABLE_OPENMP)
      check_aa_kernels<float, Kokkos::OpenMP>(s);
      check_aa_kernels<double, Kokkos::OpenMP>(s);
#endif
    }
  }
  EXPECT_GE(checked, 8);
}

namespace {

double max_field_difference(const Macro& a, const Macro& b) {
  double d = 0;
  for (size_t c = 0; c < a.rho.size(); ++c)
    d = std::max({d, std::abs(a.rho[c] - b.rho[c]), std::abs(a.ux[c] - b.ux[c]), std::abs(a.uy[c] - b.uy[c]),
                  std::abs(a.uz[c] - b.uz[c])});
  return d;
}

// The same lattice with each pattern, and the tolerance between their fields
// (the reasons stand above each test).
struct PatternPair {
  std::unique_ptr<LbmFlow> aa, pull;
  double tol = 0;
  // Both take the cell groups `body` and step once; returns how far apart their fields are.
  double step_with(const CellGroups& body) {
    aa->set_groups(body);
    pull->set_groups(body);
    aa->step();
    pull->step();
    return max_field_difference(aa->macro(), pull->macro());
  }
};
PatternPair both_patterns(Backend backend, const LbmParams& p) {
  auto aa_params = p, pull_params = p;
  aa_params.pattern = Pattern::aa;
  pull_params.pattern = Pattern::pull;
  const double tol = p.storage == Storage::fp64 ? 1e-12 : p.storage == Storage::fp32 ? 1e-5 : 1e-4;
  return {make_lbm_flow(backend, aa_params), make_lbm_flow(backend, pull_params), tol};
}
LbmParams small_lattice(Storage precision, int nx, const std::array<Border, 6>& border) {
  LbmParams p;
  p.nx = nx;
  p.ny = 14;
  p.nz = 12;
  p.tau = 0.7;
  p.storage = precision;
  p.source = "test";
  p.border = border;
  return p;
}

}  // namespace

template <class Exec>
class LatticeAaSolver : public immerse::test::BackendTest<Exec> {};
TYPED_TEST_SUITE(LatticeAaSolver, immerse::test::EnabledSpaces, immerse::test::SpaceName);

// Inlet/outflow along x, bounce-back walls in y, periodic in z, a body force and a moving body: the
// two patterns agree after every step (odd counts compare the AA pattern's arrived populations with
// the pull pattern's gather), and after the body moves by one cell at an even count, where both hold
// the post-collision state (cells turning from body to water keep their populations in the water's
// layout). Tolerance: the same arithmetic, SIMD or scalar (fused multiply-adds), over 12 steps:
// 1e-5 of FP32 velocities of order 0.03, 1e-12 for FP64. Binary16 storage rounds at the same points
// in both patterns (every stored post-collision value once); a last-bit difference of the float
// arithmetic can flip a rounding, 2^-11 of a deviation ~0.03 w_q: 1e-4.
TYPED_TEST(LatticeAaSolver, SameFieldsAsThePullPattern) {
  for (const auto precision : {Storage::fp32, Storage::fp64, Storage::fp16s, Storage::fp16c}) {
    const bool fp64 = precision == Storage::fp64;
    LbmParams p = small_lattice(precision, 24,
                                {Border::velocity, Border::outflow, Border::bounce_back, Border::bounce_back,
                                 Border::periodic, Border::periodic});
    p.inlet_velocity = {0.03, 0, 0};
    p.force = {0, 0, 1e-5};
    p.init_uy = "0.01 * sin(2 * pi * x / 24) * sin(2 * pi * z / 12)";
    auto [aa, pull, tol] = both_patterns(this->backend, p);
    aa->set_groups(body_test::cube_body(p, 10, 7, 6));
    pull->set_groups(body_test::cube_body(p, 10, 7, 6));
    for (int s = 1; s <= 12; ++s) {
      if (s == 7) {  // before step 7: six steps done, both hold a post-collision state
        aa->set_groups(body_test::cube_body(p, 11, 7, 6));
        pull->set_groups(body_test::cube_body(p, 11, 7, 6));
      }
      aa->step();
      pull->step();
      EXPECT_LE(max_field_difference(aa->macro(), pull->macro()), tol) << "after step " << s << " " << storage_name(p);
    }
    EXPECT_NEAR(aa->mass() / pull->mass(), 1.0, fp64 ? 1e-13 : p.storage == Storage::fp32 ? 1e-6 : 1e-5);
    EXPECT_GT(pull->health().max_speed, 0.02);  // the inlet flow and the body are there
  }
}

// The body's velocity changes before every step, its cells stay: the two patterns agree after every
// step. The AA pattern applies the C3 rule in the local step with the body's velocity of that step,
// as the pull step does; applied in the exchange step, as it was, it lagged one step behind on
// every other step (measured: fields 5.9e-3 apart after step 2 here, 1.3e-2 after step 5, against
// the 1e-5 of the same arithmetic in FP32). Every C3 rule: the host kernels relax the cells next to
// the body in vectors of their own (lbm_near_body_run.hpp), the pull step one by one. Tolerances as
// above.
TYPED_TEST(LatticeAaSolver, SameFieldsWhileTheBodyAccelerates) {
  for (const auto rule : {BodyBoundary::ladd, BodyBoundary::paper, BodyBoundary::paper_literal})
    for (const auto precision : {Storage::fp32, Storage::fp64, Storage::fp16s, Storage::fp16c}) {
      LbmParams p = small_lattice(precision, 20,
                                  {Border::periodic, Border::periodic, Border::bounce_back, Border::bounce_back,
                                   Border::periodic, Border::periodic});
      p.body_boundary = rule;
      PatternPair both = both_patterns(this->backend, p);
      for (int s = 1; s <= 8; ++s) {
        const float u = 0.01f * static_cast<float>(s % 3);  // 0, 0.01, 0.02, 0, ...: a jerky body
        EXPECT_LE(both.step_with(body_test::cube_body(p, 9, 7, 6, 3, {u, -0.5f * u, 0.005f})), both.tol)
            << "after step " << s << " " << storage_name(p) << " C3 rule " << body_boundary_choices().name(rule);
      }
    }
}

// A body placed after steps without one, across the periodic z seam: the patterns agree after every
// step. The AA pattern's host line kernels are built once and kept (LbmSolver::update); they hold
// whether the lattice has bodies and the plans of the lines a periodic face brings a body next to,
// so new cell groups must rebuild them: kept from the steps without a body, the FP64 local step
// relaxed the body's cells as water (the fields 6.3e-3 apart after the second step with the body,
// 1.5e-2 after the sixth). Tolerances as above.
TYPED_TEST(LatticeAaSolver, SameFieldsWhenTheBodyComesLater) {
  for (const auto precision : {Storage::fp32, Storage::fp64, Storage::fp16s}) {
    LbmParams p = small_lattice(precision, 20,
                                {Border::periodic, Border::periodic, Border::bounce_back, Border::bounce_back,
                                 Border::periodic, Border::periodic});
    p.init_ux = "0.02 * sin(2 * pi * z / 12)";
    PatternPair both = both_patterns(this->backend, p);
    for (int s = 1; s <= 4; ++s) {
      both.aa->step();
      both.pull->step();
    }
    for (int s = 5; s <= 10; ++s)
      EXPECT_LE(both.step_with(body_test::cube_body(p, 9, 7, 0, 3, {0.01f, 0, 0})), both.tol)
          << "after step " << s << " " << storage_name(p);
  }
}

// The body moves (by up to 5 cells) before every step, after odd step counts too, where the AA pattern
// holds the arrived populations: cells turning to water or to body re-pair their links as the pull
// step's gather reads them (AaRelink), and the patterns agree after every step, with bounce-back
// walls, a periodic seam the body crosses, and an inlet and outflow it touches. Without AaRelink the
// fields were 2.2e-2 apart after step 2 and every step after (FP32). Tolerances as above.
TYPED_TEST(LatticeAaSolver, SameFieldsWhileTheBodyMoves) {
  for (const auto precision : {Storage::fp32, Storage::fp64, Storage::fp16s, Storage::fp16c}) {
    LbmParams p = small_lattice(precision, 16,
                                {Border::velocity, Border::outflow, Border::bounce_back, Border::bounce_back,
                                 Border::periodic, Border::periodic});
    p.inlet_velocity = {0.02, 0, 0};
    PatternPair both = both_patterns(this->backend, p);
    for (int s = 1; s <= 12; ++s) {
      // Along x into the inlet and outflow faces, up and down in y, through the z seam.
      const int ci = 3 + (s * 5) % 11, cj = 6 + s % 3, ck = (2 * s) % p.nz;
      EXPECT_LE(both.step_with(body_test::cube_body(p, ci, cj, ck, 3, {0.01f, 0.005f * (s % 2), 0.02f})), both.tol)
          << "after step " << s << " " << storage_name(p);
    }
    EXPECT_NEAR(both.aa->mass() / both.pull->mass(), 1.0,
                p.storage == Storage::fp64   ? 1e-13
                : p.storage == Storage::fp32 ? 1e-6
                                             : 1e-5);
  }
}

// The AA pattern writes in place: streaming stores (a pull-pattern option) are rejected up front.
TEST(LatticeAaParams, StreamingStoresNeedThePullPattern) {
  LbmParams p;
  p.source = "case.json";
  p.streaming_stores = true;
  try {
    make_lbm_flow(default_backend(), p);
    FAIL() << "lattice.stores = streaming with the aa pattern must be rejected";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("case.json: key 'lattice.stores'"), std::string::npos) << e.what();
  }
  p.pattern = Pattern::pull;
  EXPECT_NO_THROW(make_lbm_flow(default_backend(), p));
}
