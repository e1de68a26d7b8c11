#pragma once
// Cell loops of the Stable Fluids solver: one kernel body f(i, j) for every execution space, two
// ways of running it. Host spaces take one row per work item and walk i inside it (no index
// division per cell, contiguous or stride-2 access the compiler can vectorise); device spaces take
// one cell per thread (a flat index divided into (i, j) per cell is markedly slower on hosts).
// Small ranges on host spaces run inline on the calling thread: the multigrid's coarse levels are a
// few hundred cells, less work than waking the thread team (kInlineCells is the measured best
// threshold on the elastic bar: lower and higher ones are slower).
#include <Kokkos_Core.hpp>
#include <type_traits>
#include <utility>

#include "stable_grid.hpp"

// Iterations of a cell loop are independent (every kernel also runs one cell per device thread), so
// the row loops may be vectorised: omp simd says so to the compiler, which cannot prove it through
// the views' pointers. The row loops of cell_for and reduce_row call a local copy of the kernel:
// through the caller's reference GCC reloads every view's data pointer after each store (a store
// might change the kernel object), so the addresses are not affine and the loop is either scalar
// or gathers and scatters. colour_sweeps' row loops keep the reference: their kernels vectorise as
// they are, and a copy there measured slower.
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define IMMERSE_ROW_SIMD _Pragma("omp simd")
#else
#define IMMERSE_ROW_SIMD
#endif
// A reduction's row loop is flattened (every call in it inlined). Otherwise GCC decides per
// translation unit whether the kernel's body is inlined into the loop (its growth limits scale with
// the unit's size): in a small file the viscosity residual's kernel stayed a call per cell, neither
// vectorised nor with its view loads hoisted, and the diffusion phase took 1.4x as long.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define IMMERSE_ROW_FLATTEN __attribute__((flatten))
#else
#define IMMERSE_ROW_FLATTEN
#endif

namespace immerse::mac2d {

template <class Exec>
inline constexpr bool kRowLoops = std::is_same<typename Exec::memory_space, Kokkos::HostSpace>::value;
inline constexpr long kInlineCells = 2048;  // host ranges smaller than this run on the calling thread

inline bool run_inline(int i0, int i1, int j0, int j1) { return static_cast<long>(i1 - i0) * (j1 - j0) < kInlineCells; }

// f(k) for k0 <= k < k1 over a list (a side's wall faces, a body's constrained faces, sample
// points): on host spaces a list shorter than kInlineCells runs on the calling thread, an item
// being about a cell's work.
template <class Exec, class F>
void list_for(const char* name, int k0, int k1, const F& f) {
  if constexpr (kRowLoops<Exec>) {
    if (k1 - k0 < kInlineCells) {
      for (int k = k0; k < k1; ++k) f(k);
      return;
    }
  }
  Kokkos::parallel_for(name, Kokkos::RangePolicy<Exec>(k0, k1), f);
}

// f(i, j) for i0 <= i < i1, j0 <= j < j1.
template <class Exec, class F>
void cell_for(const char* name, int i0, int i1, int j0, int j1, const F& f) {
  if constexpr (kRowLoops<Exec>) {
    if (run_inline(i0, i1, j0, j1)) {
      for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) f(i, j);
      return;
    }
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<Exec>(j0, j1), KOKKOS_LAMBDA(int j) {
          const F fl = f;
          IMMERSE_ROW_SIMD
          for (int i = i0; i < i1; ++i) fl(i, j);
        });
  } else {
    Kokkos::parallel_for(
        name, Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({i0, j0}, {i1, j1}),
        KOKKOS_LAMBDA(int i, int j) { f(i, j); });
  }
}

// The accumulator of a reduction into R: R itself for a plain number (a sum), else the reducer's.
template <class R, bool = std::is_arithmetic<std::decay_t<R>>::value>
struct ReduceValue {
  using type = std::decay_t<R>;
};
template <class R>
struct ReduceValue<R, false> {
  using type = typename std::decay_t<R>::value_type;
};

// A maximum and a sum in one pass (conjugate gradients: max |r| for the stopping test and a dot
// product), as a Kokkos reducer over MaxSum. The result lives on the host (like Kokkos::Max's
// default): a device backend copies it back there.
struct MaxSum {
  double max, sum;
};
struct MaxSumReducer {
  using reducer = MaxSumReducer;
  using value_type = MaxSum;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  value_type* result;
  explicit MaxSumReducer(value_type& r) : result(&r) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest.max = src.max > dest.max ? src.max : dest.max;
    dest.sum += src.sum;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest, const volatile value_type& src) const {
    dest.max = src.max > dest.max ? src.max : dest.max;
    dest.sum += src.sum;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.max = 0, v.sum = 0; }  // max of magnitudes: 0
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *result; }
  result_view_type view() const { return result_view_type(result); }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

// One row of a host reduction: f(i, j, acc) for i0 <= i < i1 into acc. The sums, maxima and
// max-and-sum pairs the solver uses accumulate into per-row locals under omp simd, so the row
// loop vectorises (a reference accumulator keeps it scalar); f then sees a fresh accumulator per
// cell, which it may only combine into (acc += x, acc = max(acc, x)), as in any Kokkos reduction.
// Other reducers keep the scalar loop. Vectorised sums add in a different order: the last bits of
// a dot product change with the vector width.
template <class R, class F, class V>
IMMERSE_ROW_FLATTEN KOKKOS_INLINE_FUNCTION void reduce_row(int i0, int i1, int j, const F& f, V& acc) {
  using RD = std::decay_t<R>;
  const F fl = f;
  if constexpr (std::is_arithmetic<RD>::value) {
    V s = 0;
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd reduction(+ : s)
#endif
    for (int i = i0; i < i1; ++i) fl(i, j, s);
    acc += s;
  } else if constexpr (std::is_same<RD, Kokkos::Max<double>>::value) {
    double m = acc;
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd reduction(max : m)
#endif
    for (int i = i0; i < i1; ++i) {
      double a = Kokkos::reduction_identity<double>::max();
      fl(i, j, a);
      m = a > m ? a : m;
    }
    acc = m;
  } else if constexpr (std::is_same<RD, MaxSumReducer>::value) {
    double m = acc.max, s = acc.sum;
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd reduction(max : m) reduction(+ : s)
#endif
    for (int i = i0; i < i1; ++i) {
      MaxSum a{0, 0};
      fl(i, j, a);
      m = a.max > m ? a.max : m;
      s += a.sum;
    }
    acc.max = m;
    acc.sum = s;
  } else {
    for (int i = i0; i < i1; ++i) fl(i, j, acc);
  }
}

// f(i, j, acc) over the same range, reduced into result (a Kokkos reducer or a double for a sum).
template <class Exec, class F, class Result>
void cell_reduce(const char* name, int i0, int i1, int j0, int j1, const F& f, Result&& result) {
  using value = typename ReduceValue<Result>::type;
  if constexpr (kRowLoops<Exec>) {
    if (run_inline(i0, i1, j0, j1)) {
      if constexpr (std::is_arithmetic<std::decay_t<Result>>::value) {
        value acc = 0;
        for (int j = j0; j < j1; ++j) reduce_row<Result>(i0, i1, j, f, acc);
        result = acc;
      } else {
        value acc;
        result.init(acc);
        for (int j = j0; j < j1; ++j) reduce_row<Result>(i0, i1, j, f, acc);
        result.reference() = acc;
      }
      return;
    }
    Kokkos::parallel_reduce(
        name, Kokkos::RangePolicy<Exec>(j0, j1),
        KOKKOS_LAMBDA(int j, value& acc) { reduce_row<Result>(i0, i1, j, f, acc); }, std::forward<Result>(result));
  } else {
    Kokkos::parallel_reduce(
        name, Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({i0, j0}, {i1, j1}),
        KOKKOS_LAMBDA(int i, int j, value& acc) { f(i, j, acc); }, std::forward<Result>(result));
  }
}

// f(i, j, k, h, acc) over the interior cells of a colour-split grid (k = s.at(i, j), h = i & 1: the
// half the cell is in), reduced into result as cell_reduce. Host spaces walk each half of a row in
// order, so k runs contiguously (its neighbours too: stable_grid.hpp) and the loop vectorises;
// device spaces take a cell per thread.
template <class Exec, class F, class Result>
void split_cell_reduce(const char* name, const SplitGrid& s, const F& f, Result&& result) {
  using value = typename ReduceValue<Result>::type;
  if constexpr (kRowLoops<Exec>) {
    Kokkos::parallel_reduce(
        name, Kokkos::RangePolicy<Exec>(1, s.ny + 1),
        KOKKOS_LAMBDA(int j, value& acc) {
          for (int h = 1; h >= 0; --h) {
            const int base = s.row(j) + h * s.half, n = h ? (s.nx + 1) / 2 : s.nx / 2;
            reduce_row<Result>(
                0, n, j, [=](int q, int jj, value& a) { f(2 * q + 2 - h, jj, base + q, h, a); }, acc);
          }
        },
        std::forward<Result>(result));
  } else {
    cell_reduce<Exec>(
        name, 1, s.nx + 1, 1, s.ny + 1, KOKKOS_LAMBDA(int i, int j, value& acc) { f(i, j, s.at(i, j), i & 1, acc); },
        std::forward<Result>(result));
  }
}

// f(i, j) for the interior cells 1 <= i <= nx, 1 <= j <= ny of one colour: (i + j + colour) even.
// Cells of one colour have no neighbour of that colour, so any order gives the same result.
template <class Exec, class F>
void colour_for(const char* name, int nx, int ny, int colour, const F& f) {
  if constexpr (kRowLoops<Exec>) {
    if (run_inline(0, nx, 0, ny)) {
      for (int j = 1; j <= ny; ++j)
        for (int i = 1 + ((1 + j + colour) & 1); i <= nx; i += 2) f(i, j);
      return;
    }
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<Exec>(1, ny + 1), KOKKOS_LAMBDA(int j) {
          IMMERSE_ROW_SIMD
          for (int i = 1 + ((1 + j + colour) & 1); i <= nx; i += 2) f(i, j);
        });
  } else {
    const int half = (nx + 1) / 2;  // cells of one colour per row (at most)
    Kokkos::parallel_for(
        name, Kokkos::RangePolicy<Exec>(0, half * ny), KOKKOS_LAMBDA(int t) {
          const int j = 1 + t / half;
          const int i = 2 * (t % half) + 1 + ((1 + j + colour) & 1);
          if (i <= nx) f(i, j);
        });
  }
}

// A kernel may bring its own host row loop, f.row(j, H, i0, i1) for the cells i0, i0 + 2, ... <= i1
// of row j (what f(i, j, H) would do to each): where it can index something more cheaply along a
// row than per cell (the multigrid's coarse corrections).
template <class F, class = void>
struct HasRowLoop : std::false_type {};
template <class F>
struct HasRowLoop<F, std::void_t<decltype(std::declval<const F&>().row(0, 0, 0, 0))>> : std::true_type {};

// Red-black sweeps: the half-sweeps h = 0 .. halves - 1 in order, half-sweep h calling f(i, j, H)
// on the interior cells of colour (first + h) % 2 (colour as in colour_for), with H = min(h, 2): a
// kernel can tell the first two half-sweeps from the rest (the multigrid's prolongation), and H is a
// constant in each row loop, so such tests fold away and the loop vectorises.
// A half-sweep reads only the other colour, so on row j it needs half-sweep h - 1 done on rows j - 1,
// j, j + 1, and half-sweep h + 1 not yet done on rows j +- 1; any schedule keeping that gives the
// plain order's result bit for bit. Device spaces launch the half-sweeps one after another. Host
// spaces pipeline them (temporal blocking): in one pass down the rows, half-sweep h runs 2 h rows
// behind half-sweep 0, so all of them read rows still in cache instead of each streaming the arrays
// again. Threads take blocks of rows; half-sweep h leaves h rows out at each inner block edge (a
// trapezoid), and after a barrier in the same launch (a launch costs several barriers' time on a
// small host) each thread but the first fills the gap where its block starts, half-sweep by
// half-sweep. The result is bitwise the plain order's (test ColourSweeps.AnyScheduleGivesThePlainOrder).
template <class Exec, class F>
void colour_sweeps(const char* name, int nx, int ny, int first, int halves, const F& f) {
  if constexpr (kRowLoops<Exec>) {
    auto row = [&](int j, int h) {
      const int i0 = 1 + ((1 + j + first + h) & 1);
      if constexpr (HasRowLoop<F>::value) {
        f.row(j, h < 2 ? h : 2, i0, nx);
      } else if (h == 0) {
        IMMERSE_ROW_SIMD
        for (int i = i0; i <= nx; i += 2) f(i, j, 0);
      } else if (h == 1) {
        IMMERSE_ROW_SIMD
        for (int i = i0; i <= nx; i += 2) f(i, j, 1);
      } else {
        IMMERSE_ROW_SIMD
        for (int i = i0; i <= nx; i += 2) f(i, j, 2);
      }
    };
    if (run_inline(0, nx, 0, ny)) {
      for (int h = 0; h < halves; ++h)
        for (int j = 1; j <= ny; ++j) row(j, h);
      return;
    }
    constexpr int kChunk = 8;  // half-sweeps per pass: the rows in flight (2 per half-sweep) stay in L1/L2
    const int threads = Exec().concurrency();
    for (int h0 = 0; h0 < halves; h0 += kChunk) {
      const int n = halves - h0 < kChunk ? halves - h0 : kChunk;
      // Blocks at least 2 n + 2 rows tall, so that the gaps of two inner edges never meet.
      int blocks = ny / (2 * n + 2);
      blocks = blocks < threads ? blocks : threads;
      blocks = blocks < 1 ? 1 : blocks;
      auto lo = [=](int b) { return 1 + static_cast<int>(static_cast<long>(ny) * b / blocks); };
      auto trapezoid = [&](int b) {
        const int j0 = lo(b), j1 = lo(b + 1) - 1;
        for (int t = j0; t <= j1 + 2 * (n - 1); ++t)
          for (int h = 0; h < n; ++h) {
            const int j = t - 2 * h;  // half-sweep h trails half-sweep 0 by 2 h rows
            if (j >= j0 + (b > 0 ? h : 0) && j <= j1 - (b + 1 < blocks ? h : 0)) row(j, h0 + h);
          }
      };
      auto gap = [&](int b) {     // between blocks b - 1 and b
        const int m = lo(b) - 1;  // last row of block b - 1
        for (int h = 1; h < n; ++h)
          for (int j = m - h + 1; j <= m + h; ++j) row(j, h0 + h);
      };
      if (blocks == 1) {
        trapezoid(0);
        continue;
      }
      using Team = Kokkos::TeamPolicy<Exec>;
      Kokkos::parallel_for(name, Team(1, blocks), [&](const typename Team::member_type& m) {
        const int b = m.team_rank();
        trapezoid(b);
        m.team_barrier();
        if (b > 0) gap(b);
      });
    }
  } else {
    for (int h = 0; h < halves; ++h) {
      const int H = h < 2 ? h : 2;
      colour_for<Exec>(
          name, nx, ny, (first + h) & 1, KOKKOS_LAMBDA(int i, int j) { f(i, j, H); });
    }
  }
}

}  // namespace immerse::mac2d
