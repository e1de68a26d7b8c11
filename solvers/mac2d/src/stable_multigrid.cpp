// Definitions of StableMultigrid<Exec> and their instantiation for every enabled execution space.
#include "stable_multigrid.hpp"

#include <algorithm>
#include <cmath>

#include "immerse/core/backend.hpp"
#include "stable_loops.hpp"
#include "stable_mg_smooth.hpp"
#include "stable_split_rows.hpp"

namespace immerse::mac2d {
namespace {
// Red-black Gauss-Seidel sweeps before and after each coarse correction. One and one (with the
// over-correction below) failed on the windmill at 256^2 (measured): two and two.
constexpr int kPreSmooth = 2, kPostSmooth = 2;
// Piecewise-constant prolongation with the Galerkin coarse operator (face weights summed) makes the
// coarse operator twice as stiff as the rediscretised one, so the correction is scaled by 2 (Braess's
// over-correction). That holds in the interior; at an outflow side setup() rescales the coarse
// faces so it holds there too. Neighbouring values (1.8, 1.9, 2.1, 2.2) need more iterations on the
// windmill and the elastic bar.
constexpr double kOvercorrect = 2.0;
constexpr int kCoarsestSweeps = 40;  // the coarsest level has fewer than 8 cells across: 40 sweeps solve it
}  // namespace

template <class Exec>
void StableMultigrid<Exec>::setup(const StableGrid& g, const dview& fine_wu, const dview& fine_wv, long weights_version,
                                  const Kokkos::View<int*, device>& changed, int changed_n) {
  if (levels_.empty()) {
    SplitGrid s = SplitGrid::of(g.nx, g.ny, g.h);
    levels_.push_back(
        {s, view("mg_wu", s.size()), view("mg_wv", s.size()), view("mg_p", s.size()), view("mg_b", s.size())});
    while (s.nx % 2 == 0 && s.ny % 2 == 0 && std::min(s.nx, s.ny) >= 8) {
      s = SplitGrid::of(s.nx / 2, s.ny / 2, 2 * s.h);
      levels_.push_back(
          {s, view("mg_wu", s.size()), view("mg_wv", s.size()), view("mg_p", s.size()), view("mg_b", s.size())});
    }
  }
  if (double_weights && weights0_u_.extent(0) != levels_[0].wu.extent(0)) {
    weights0_u_ = dview("mg_wu_double", levels_[0].wu.extent(0));
    weights0_v_ = dview("mg_wv_double", levels_[0].wv.extent(0));
  }
  if (weights_version == weights_version_) return;
  const bool only_changed = changed_n >= 0 && weights_version_ >= 0 && weights_version_ == weights_version - 1;
  weights_version_ = weights_version;
  {
    auto wu = levels_[0].wu, wv = levels_[0].wv;
    auto du = weights0_u_, dv = weights0_v_;
    const bool both = double_weights;
    const SplitGrid s = levels_[0].g;
    const StableGrid pg = g;
    auto convert = KOKKOS_LAMBDA(int i, int j) {
      const double a = fine_wu(pg.at(i, j)), b = fine_wv(pg.at(i, j));
      wu(s.at(i, j)) = static_cast<S>(a);
      wv(s.at(i, j)) = static_cast<S>(b);
      if (both) du(s.at(i, j)) = a, dv(s.at(i, j)) = b;
    };
    auto convert_all = [&] {
#if defined(IMMERSE_HOST_LANES)
      if constexpr (kRowLoops<Exec>) {
        Kokkos::parallel_for("stable_mg_weights_convert", Kokkos::RangePolicy<Exec>(0, s.ny + 2), [=](int j) {
          const int done = split_rows::to_split_row(pg, s, j, fine_wu.data(), wu.data(), both ? du.data() : nullptr);
          split_rows::to_split_row(pg, s, j, fine_wv.data(), wv.data(), both ? dv.data() : nullptr);
          convert(0, j);
          for (int i = done + 1; i <= s.nx + 1; ++i) convert(i, j);
        });
        return;
      }
#endif
      cell_for<Exec>("stable_mg_weights_convert", 0, s.nx + 2, 0, s.ny + 2, convert);
    };
    if (only_changed)
      list_for<Exec>(
          "stable_mg_weights_update", 0, changed_n, KOKKOS_LAMBDA(int q) {
            const int k = changed(q);
            convert(k % pg.w, k / pg.w);
          });
    else
      convert_all();
  }
  // Coarse face weights from the current fine ones: the sum of the two fine faces, the Galerkin
  // operator R A P of piecewise-constant prolongation P and summing restriction R = P^T, so the
  // V-cycle is convergent for any face fractions (the plain rediscretisation, their mean,
  // over-corrects smooth errors and diverged here).
  for (size_t l = 1; l < levels_.size(); ++l) {
    const SplitGrid c = levels_[l].g, f = levels_[l - 1].g;
    auto wu = levels_[l].wu, wv = levels_[l].wv, fwu = levels_[l - 1].wu, fwv = levels_[l - 1].wv;
    // Outflow sides: level 0 puts p = 0 at the ghost centre, h / 2 outside the boundary face. Level
    // l's boundary cell centre is h_l / 2 inside it, so its boundary face weight should be
    // h_l / (h_l / 2 + h / 2) = 2^(l+1) / (2^l + 1) times an interior face's (1 on level 0, 4/3,
    // 8/5, ... towards 2). Summing the two fine faces keeps level 0's ratio on every level: the
    // coarse problem then sees the boundary too far out and, over-corrected, overshoots there (the
    // largest residuals of the windmill's solves sat along its outflow). Walls have weight 0.
    auto ratio = [](size_t m) {
      return std::ldexp(2.0, static_cast<int>(m)) / (std::ldexp(1.0, static_cast<int>(m)) + 1);
    };
    const S fb = static_cast<S>(ratio(l) / ratio(l - 1));
    auto face = KOKKOS_LAMBDA(int I, int J) {
      if (J >= 1)
        wu(c.at(I, J)) = (I == 0 || I == c.nx ? fb : S(1)) * (fwu(f.at(2 * I, 2 * J - 1)) + fwu(f.at(2 * I, 2 * J)));
      if (I >= 1)
        wv(c.at(I, J)) = (J == 0 || J == c.ny ? fb : S(1)) * (fwv(f.at(2 * I - 1, 2 * J)) + fwv(f.at(2 * I, 2 * J)));
    };
#if defined(IMMERSE_HOST_LANES)
    if constexpr (kRowLoops<Exec>) {
      auto row = [=](int J) {
        const int done = split_rows::coarse_weights_row(f, c, J, J == 0 || J == c.ny ? fb : S(1), fwu.data(),
                                                        fwv.data(), wu.data(), wv.data());
        face(0, J);
        for (int I = done + 1; I <= c.nx; ++I) face(I, J);
      };
      if (run_inline(0, c.nx + 1, 0, c.ny + 1)) {
        for (int J = 0; J <= c.ny; ++J) row(J);
      } else {
        Kokkos::parallel_for("stable_mg_weights", Kokkos::RangePolicy<Exec>(0, c.ny + 1), row);
      }
      continue;
    }
#endif
    cell_for<Exec>("stable_mg_weights", 0, c.nx + 1, 0, c.ny + 1, face);
  }
}

template <class Exec>
void StableMultigrid<Exec>::smooth(const Level& l, int sweeps, bool reverse, const Level* prolong_from,
                                   bool zero_start) const {
  const int first = reverse ? 1 : 0, halves = 2 * sweeps;
  if (prolong_from)
    colour_sweeps<Exec>("stable_mg_prolong_smooth", l.g.nx, l.g.ny, first, halves,
                        MgSmoothKernel<view, MgStart::prolonged>{l.g, prolong_from->g, l.wu, l.wv, l.p, l.b,
                                                                 prolong_from->p, static_cast<S>(kOvercorrect)});
  else if (zero_start)
    colour_sweeps<Exec>("stable_mg_smooth", l.g.nx, l.g.ny, first, halves,
                        MgSmoothKernel<view, MgStart::zero>{l.g, l.g, l.wu, l.wv, l.p, l.b, l.p, S(0)});
  else
    colour_sweeps<Exec>("stable_mg_smooth", l.g.nx, l.g.ny, first, halves,
                        MgSmoothKernel<view, MgStart::current>{l.g, l.g, l.wu, l.wv, l.p, l.b, l.p, S(0)});
}

// The coarsest level (a few cells across): all sweeps in one go on one thread. On a device, 40
// sweeps as 80 launches of a 4 x 4 grid would cost launches, not arithmetic; on host spaces the loop
// runs on the calling thread, as the levels above it do (stable_loops.hpp), since even one launch
// costs more than the sweeps.
template <class Exec>
void StableMultigrid<Exec>::coarsest(const Level& l, int sweeps) const {
  const SplitGrid g = l.g;
  auto wu = l.wu, wv = l.wv, p = l.p, b = l.b;
  auto solve = KOKKOS_LAMBDA(int) {
    for (int s = 0; s < sweeps; ++s)
      for (int colour = 0; colour < 2; ++colour)
        for (int j = 1; j <= g.ny; ++j)
          for (int i = 1 + ((1 + j + colour) & 1); i <= g.nx; i += 2) {
            const int k = g.at(i, j);
            const int e = g.at(i + 1, j), west = g.at(i - 1, j);
            const S we = wu(k), ww = wu(west), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
            if (W > 0) p(k) = (we * p(e) + ww * p(west) + wn * p(k + g.w) + ws * p(k - g.w) - b(k)) / W;
          }
  };
  if constexpr (kRowLoops<Exec>)
    solve(0);
  else
    Kokkos::parallel_for("stable_mg_coarsest", Kokkos::RangePolicy<Exec>(0, 1), solve);
}

// Residual and restriction in one pass: each coarse cell sums the fine residuals it covers and
// starts its correction at 0 (the coarse ghost cells are never written and stay 0). The
// pre-smoothing ended on the colour (i + j) odd, whose residuals are therefore 0 (up to rounding):
// only the two (i + j) even cells of each 2x2 block, (2I-1, 2J-1) and (2I, 2J), are summed. Their
// maximum is the residual of level l's current p.
template <class Exec>
double StableMultigrid<Exec>::restrict_residual(int l) const {
  const SplitGrid f = levels_[l].g, c = levels_[l + 1].g;
  auto wu = levels_[l].wu, wv = levels_[l].wv, p = levels_[l].p, b = levels_[l].b;
  auto cb = levels_[l + 1].b, cp = levels_[l + 1].p;
  auto restrict_cell = KOKKOS_LAMBDA(int I, int J, double& m) {
    S sum = 0;
    for (int d = 0; d < 2; ++d) {
      const int i = 2 * I - 1 + d, k = f.at(i, 2 * J - 1 + d), e = f.at(i + 1, 2 * J - 1 + d),
                west = f.at(i - 1, 2 * J - 1 + d);
      const S we = wu(k), ww = wu(west), wn = wv(k), ws = wv(k - f.w), W = we + ww + wn + ws;
      // A closed cell (W = 0) contributes nothing: a factor, not a branch, so the row vectorises.
      const S open = W > 0 ? S(1) : S(0);
      const S r = open * (b(k) - (we * p(e) + ww * p(west) + wn * p(k + f.w) + ws * p(k - f.w) - W * p(k)));
      const double a = Kokkos::Experimental::fabs(static_cast<double>(r));
      m = a > m ? a : m;
      sum += r;
    }
    cb(c.at(I, J)) = sum;
    cp(c.at(I, J)) = 0;
  };
  double rmax = 0;
#if defined(IMMERSE_HOST_LANES)
  if constexpr (kRowLoops<Exec>) {
    auto row = [=](int J, double& m) {
      int done = 0;
      split_rows::restrict_row(f, c, J, wu.data(), wv.data(), p.data(), b.data(), cb.data(), cp.data(), m, &done);
      for (int I = done + 1; I <= c.nx; ++I) restrict_cell(I, J, m);
    };
    if (run_inline(1, c.nx + 1, 1, c.ny + 1)) {
      for (int J = 1; J <= c.ny; ++J) row(J, rmax);
    } else {
      Kokkos::parallel_reduce("stable_mg_restrict", Kokkos::RangePolicy<Exec>(1, c.ny + 1), row,
                              Kokkos::Max<double>(rmax));
    }
    return rmax;
  }
#endif
  cell_reduce<Exec>("stable_mg_restrict", 1, c.nx + 1, 1, c.ny + 1, restrict_cell, Kokkos::Max<double>(rmax));
  return rmax;
}

// Pre-smoothing from p as it is (0 on the first visit: the restriction zeroed it), the residual to
// level l + 1, its correction (coarse_cycles times on level 1), post-smoothing with the correction
// prolonged. A repeated visit to level l + 1 starts from the correction the last one left.
template <class Exec>
void StableMultigrid<Exec>::coarse_correction(int l, bool symmetric) {
  const int L = static_cast<int>(levels_.size());
  if (l == L - 1) {
    coarsest(levels_[l], kCoarsestSweeps);
    return;
  }
  smooth(levels_[l], kPreSmooth, false, nullptr, /*zero_start=*/false);
  restrict_residual(l);
  for (int c = 0; c < (l == 1 ? coarse_cycles : 1); ++c) coarse_correction(l + 1, symmetric);
  smooth(levels_[l], kPostSmooth, /*reverse=*/symmetric, &levels_[l + 1], /*zero_start=*/false);
}

template <class Exec>
double StableMultigrid<Exec>::cycle(bool symmetric, double stop_at, bool zero_start) {
  if (levels_.size() == 1) {  // a grid too small or odd to coarsen: the coarsest level's sweeps
    coarsest(levels_[0], kCoarsestSweeps);
    return 0;
  }
  smooth(levels_[0], kPreSmooth, false, nullptr, zero_start);
  const double r0 = restrict_residual(0);
  if (r0 <= stop_at) return r0;
  coarse_correction(1, symmetric);
  smooth(levels_[0], kPostSmooth, /*reverse=*/symmetric, &levels_[1], /*zero_start=*/false);
  return r0;
}

#define IMMERSE_INSTANTIATE(Exec) template class StableMultigrid<Exec>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
