// The red-black sweep schedule (stable_loops.hpp colour_sweeps) on every backend: host spaces
// pipeline the half-sweeps down the rows in blocks with gap filling, device spaces launch them one
// by one; both must give what the plain order gives, half-sweep after half-sweep over the whole grid.
// Reference: the same kernel run in that plain order by a sequential loop in this file. Also the
// multigrid smoother (stable_mg_smooth.hpp) on the colour-split layout (SplitGrid), whose host row
// loop runs on vectors of one colour's cells and interleaves the coarse corrections from the coarse
// row's halves: against its own per-cell form (what device spaces run) in the plain order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "stable_loops.hpp"
#include "stable_mg_smooth.hpp"
#include "stable_multigrid.hpp"
#include "support/backends.hpp"

namespace immerse::mac2d {
namespace {

template <class Exec>
class ColourSweeps : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(ColourSweeps, test::EnabledSpaces, test::SpaceName);

// A weighted Gauss-Seidel update on an (nx + 2) x (ny + 2) array, x fastest, with cells of weight 0
// left alone and a term depending on the half-sweep index the kernel is given (so a wrong H shows).
template <class View>
struct Relax {
  int w;
  View p, b, c;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int H) const {
    const int k = j * w + i;
    const double W = c(k - 1) + c(k + 1) + c(k - w) + c(k + w);
    const double s = c(k - 1) * p(k - 1) + c(k + 1) * p(k + 1) + c(k - w) * p(k - w) + c(k + w) * p(k + w);
    const double relaxed = (s - b(k) + 0.25 * H) / (W > 0 ? W : 1.0);
    p(k) = c(k) > 0 ? relaxed : p(k);
  }
};

struct Case {
  int nx, ny, first, halves;
};

// A fixed linear congruential sequence (the same on every platform): values in [0, 1).
struct Lcg {
  uint64_t s;
  double operator()() { return (s = s * 6364136223846793005ULL + 1442695040888963407ULL) / 18446744073709551616.0; }
};

template <class Exec>
void check(const Case& t) {
  using view = Kokkos::View<double*, typename Exec::memory_space>;
  const int w = t.nx + 2;
  const size_t n = static_cast<size_t>(w) * (t.ny + 2);
  view p("p", n), b("b", n), c("c", n);
  // Separate host copies (create_mirror, not create_mirror_view: on a host space the latter would be
  // p itself, and the reference would sweep the result again).
  auto hp = Kokkos::create_mirror(p);
  auto hb = Kokkos::create_mirror(b);
  auto hc = Kokkos::create_mirror(c);
  Lcg next{12345};
  for (size_t k = 0; k < n; ++k) hp(k) = next(), hb(k) = next() - 0.5, hc(k) = next() < 0.1 ? 0.0 : 0.5 + next();
  Kokkos::deep_copy(p, hp);
  Kokkos::deep_copy(b, hb);
  Kokkos::deep_copy(c, hc);

  colour_sweeps<Exec>("test_colour_sweeps", t.nx, t.ny, t.first, t.halves, Relax<view>{w, p, b, c});
  Kokkos::fence();

  // The plain order on the host copies: whole half-sweeps one after another.
  using host_view = decltype(hp);
  const Relax<host_view> ref{w, hp, hb, hc};
  for (int h = 0; h < t.halves; ++h)
    for (int j = 1; j <= t.ny; ++j)
      for (int i = 1; i <= t.nx; ++i)
        if ((i + j + t.first + h) % 2 == 0) ref(i, j, std::min(h, 2));

  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
  double worst = 0;
  for (size_t k = 0; k < n; ++k) worst = std::max(worst, std::abs(got(k) - hp(k)));
  // The values are O(1); the two runs do the same operations in the same order per cell, so only
  // floating-point contraction (a fused multiply-add in one loop and not the other) can differ, by a
  // few units in the last place. A stale or too-new neighbour anywhere gives O(0.1).
  EXPECT_LE(worst, 1e-12) << "nx " << t.nx << " ny " << t.ny << " first " << t.first << " halves " << t.halves;
}

TYPED_TEST(ColourSweeps, AnyScheduleGivesThePlainOrder) {
  // Inline (under kInlineCells), two blocks with gaps (odd and even heights, either first colour,
  // an odd number of half-sweeps), several chunks of half-sweeps, one block (too few rows to split).
  for (const Case& t : {Case{40, 37, 0, 4}, Case{64, 61, 1, 4}, Case{96, 90, 0, 5}, Case{64, 64, 1, 20},
                        Case{64, 40, 0, 24}, Case{200, 12, 0, 8}})
    check<TypeParam>(t);
}

// The prolonging smoother on a fine level nx x ny with random face weights (some 0, some cells with
// all four closed, which take their own coarse correction) and a random coarse correction, ghosts
// included (the east and north neighbours of the last cells read the coarse ghost layer); or the
// zero-start smoother on the same level.
template <class Exec, class S>
void check_smoother(const Case& t, bool zero) {
  using view = Kokkos::View<S*, typename Exec::memory_space>;
  const SplitGrid g = SplitGrid::of(t.nx, t.ny, 1.0), cg = SplitGrid::of(t.nx / 2, t.ny / 2, 2.0);
  const size_t n = g.size(), nc = cg.size();
  view wu("wu", n), wv("wv", n), p("p", n), b("b", n), cp("cp", nc);
  auto hwu = Kokkos::create_mirror(wu);
  auto hwv = Kokkos::create_mirror(wv);
  auto hp = Kokkos::create_mirror(p);
  auto hb = Kokkos::create_mirror(b);
  auto hcp = Kokkos::create_mirror(cp);
  Lcg next{2024};
  for (size_t k = 0; k < n; ++k) {
    hwu(k) = static_cast<S>(next() < 0.1 ? 0.0 : 0.5 + next());
    hwv(k) = static_cast<S>(next() < 0.1 ? 0.0 : 0.5 + next());
    hp(k) = static_cast<S>(next());
    hb(k) = static_cast<S>(next() - 0.5);
  }
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i)
      if (next() < 0.05) {
        const int k = g.at(i, j);
        hwu(k) = hwu(g.at(i - 1, j)) = hwv(k) = hwv(k - g.w) = 0;  // a closed cell
      }
  for (size_t k = 0; k < nc; ++k) hcp(k) = static_cast<S>(next() - 0.5);
  Kokkos::deep_copy(wu, hwu);
  Kokkos::deep_copy(wv, hwv);
  Kokkos::deep_copy(p, hp);
  Kokkos::deep_copy(b, hb);
  Kokkos::deep_copy(cp, hcp);

  // Zero start: the row loops from whatever p holds inside (its ghosts 0, as in the solver, where no
  // kernel writes them) against the per-cell form from p = 0 (what it stands for), so a stale value
  // leaking through either shows.
  if (zero) {
    for (int j = 0; j <= g.ny + 1; ++j)
      for (int i = 0; i <= g.nx + 1; ++i)
        if (i == 0 || j == 0 || i == g.nx + 1 || j == g.ny + 1) hp(g.at(i, j)) = 0;
    Kokkos::deep_copy(p, hp);
    for (size_t k = 0; k < n; ++k) hp(k) = 0;
    colour_sweeps<Exec>("test_mg_smooth", g.nx, g.ny, t.first, t.halves,
                        MgSmoothKernel<view, MgStart::zero>{g, g, wu, wv, p, b, p, S(0)});
  } else {
    colour_sweeps<Exec>("test_mg_smooth", g.nx, g.ny, t.first, t.halves,
                        MgSmoothKernel<view, MgStart::prolonged>{g, cg, wu, wv, p, b, cp, S(2)});
  }
  Kokkos::fence();

  const MgSmoothKernel<decltype(hp), MgStart::prolonged> ref{g, cg, hwu, hwv, hp, hb, hcp, S(2)};
  const MgSmoothKernel<decltype(hp), MgStart::current> ref_zero{g, g, hwu, hwv, hp, hb, hp, S(0)};
  for (int h = 0; h < t.halves; ++h)
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i)
        if ((i + j + t.first + h) % 2 == 0) zero ? ref_zero(i, j, std::min(h, 2)) : ref(i, j, std::min(h, 2));

  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
  double worst = 0;  // over the cells and ghosts (the layout's padding holds no cell)
  for (int j = 0; j <= g.ny + 1; ++j)
    for (int i = 0; i <= g.nx + 1; ++i)
      worst = std::max(worst, std::abs(static_cast<double>(got(g.at(i, j))) - static_cast<double>(hp(g.at(i, j)))));
  // As above, contraction differences only: a few units in the last place of O(1) values, amplified
  // by the division by small diagonals over the half-sweeps; 1e-10 in double, 1e-4 in float (2^-23 =
  // 1.2e-7). A coarse value read from the wrong cell gives O(0.1).
  EXPECT_LE(worst, sizeof(S) == 8 ? 1e-10 : 1e-4)
      << "nx " << t.nx << " ny " << t.ny << " first " << t.first << " halves " << t.halves
      << (sizeof(S) == 8 ? " double" : " float") << (zero ? " zero start" : " prolonged");
}

TYPED_TEST(ColourSweeps, MultigridSmootherRowLoopMatchesPerCell) {
  // Inline and blocked, either first colour, the post-smoothing's 4 half-sweeps and more.
  for (const Case& t : {Case{20, 14, 0, 4}, Case{20, 14, 1, 4}, Case{64, 62, 0, 4}, Case{96, 90, 1, 5},
                        Case{128, 64, 0, 12}, Case{100, 40, 1, 4}, Case{72, 36, 0, 5}}) {
    for (bool zero : {false, true}) {
      check_smoother<TypeParam, double>(t, zero);
      check_smoother<TypeParam, float>(t, zero);
    }
  }
}

// The multigrid's face weights (StableMultigrid::setup; host row loops on vectors of coarse faces):
// level 0 holds the solver's weights, each coarser face the sum of the two fine faces it covers
// (times the outflow factor 2^(l+1) / (2^l + 1) over the finer level's at a boundary face), checked
// face by face on random fractions (a uniform box would not tell one fine face from its neighbour).
TYPED_TEST(ColourSweeps, MultigridWeightsSumTheFineFaces) {
  using Exec = TypeParam;
  using dview = Kokkos::View<double*, typename Exec::memory_space>;
  const StableGrid g{96, 64, 98, 1.0};
  const size_t n = static_cast<size_t>(g.w) * (g.ny + 2);
  dview wu("wu", n), wv("wv", n);
  auto hwu = Kokkos::create_mirror(wu);
  auto hwv = Kokkos::create_mirror(wv);
  Lcg next{77};
  for (size_t k = 0; k < n; ++k) hwu(k) = next() < 0.1 ? 0.0 : next(), hwv(k) = next() < 0.1 ? 0.0 : next();
  Kokkos::deep_copy(wu, hwu);
  Kokkos::deep_copy(wv, hwv);
  StableMultigrid<Exec> mg;
  mg.setup(g, wu, wv, 1);
  ASSERT_GE(mg.levels_.size(), 4u);
  auto ratio = [](int m) { return std::ldexp(2.0, m) / (std::ldexp(1.0, m) + 1); };
  for (size_t l = 0; l < mg.levels_.size(); ++l) {
    const SplitGrid c = mg.levels_[l].g;
    auto cu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mg.levels_[l].wu);
    auto cv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mg.levels_[l].wv);
    int wrong = 0;
    if (l == 0) {
      for (int j = 0; j <= g.ny + 1; ++j)
        for (int i = 0; i <= g.nx + 1; ++i)
          wrong += cu(c.at(i, j)) != static_cast<float>(hwu(g.at(i, j))) ||
                   cv(c.at(i, j)) != static_cast<float>(hwv(g.at(i, j)));
    } else {
      const SplitGrid f = mg.levels_[l - 1].g;
      auto fu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mg.levels_[l - 1].wu);
      auto fv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mg.levels_[l - 1].wv);
      const float fb = static_cast<float>(ratio(static_cast<int>(l)) / ratio(static_cast<int>(l) - 1));
      for (int J = 0; J <= c.ny; ++J)
        for (int I = 0; I <= c.nx; ++I) {
          if (J >= 1)
            wrong += cu(c.at(I, J)) !=
                     (I == 0 || I == c.nx ? fb : 1.0f) * (fu(f.at(2 * I, 2 * J - 1)) + fu(f.at(2 * I, 2 * J)));
          if (I >= 1)
            wrong += cv(c.at(I, J)) !=
                     (J == 0 || J == c.ny ? fb : 1.0f) * (fv(f.at(2 * I - 1, 2 * J)) + fv(f.at(2 * I, 2 * J)));
        }
    }
    EXPECT_EQ(wrong, 0) << "level " << l;
  }
}

}  // namespace
}  // namespace immerse::mac2d
