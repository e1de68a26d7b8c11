#pragma once
// The lines (x rows) a step of a lattice block updates, and their split into the lines that read
// ghost layers and those that do not, so that the exchange can run while the latter are updated.
#include <Kokkos_Core.hpp>

#include <array>

namespace immerse::lbm3d {

// The lines and cells a step updates: every one, or, in a block with ghost layers (LbmBlock), the
// block's own, y in [j0, j0 + nyr) and z in [k0, k0 + nzr). Work item r is own line r.
struct OwnLines {
  int ny = 1, j0 = 0, nyr = 1, k0 = 0, nzr = 1;
  long nx = 1;
  KOKKOS_INLINE_FUNCTION long line(long r) const { return j0 + r % nyr + ny * (k0 + r / nyr); }
  KOKKOS_INLINE_FUNCTION long cell(long r) const { return r % nx + nx * line(r / nx); }
  KOKKOS_INLINE_FUNCTION bool owns(long c) const {
    const long l = c / nx, j = l % ny, k = l / ny;
    return j >= j0 && j < j0 + nyr && k >= k0 && k < k0 + nzr;
  }
  long lines() const { return static_cast<long>(nyr) * nzr; }
};
// A host line kernel kept elsewhere (LbmSolver's built AA kernels), run without copying it.
template <class Lines>
struct LinesAt {
  const Lines* lines;
  void operator()(const int line) const { (*lines)(line); }
};
// A line kernel (host) or a cell kernel (device) run over the own lines or cells only.
template <class Lines>
struct OwnLinesOf {
  Lines lines;
  OwnLines own;
  void operator()(const int r) const { lines(static_cast<int>(own.line(r))); }
};
template <class Cells>
struct OwnCellsOf {
  Cells cells;
  OwnLines own;
  KOKKOS_INLINE_FUNCTION void operator()(const long r) const { cells(own.cell(r)); }
};

// The own lines of a block split by what an update reads and writes (LbmSolver::step): `interior`,
// the lines all of whose neighbours are own lines (they neither read a ghost layer nor push into
// one), in two halves along z (y where z has a single interior line); `rim`, the own lines next to a
// ghost layer, in up to 4 boxes. Every own line is in exactly one box.
struct OwnSplit {
  OwnLines interior[2];
  OwnLines rim[4];
  int rims = 0;
};
inline OwnSplit split_own(const OwnLines& own, const std::array<bool, 6>& ghost) {
  OwnSplit s;
  OwnLines in = own;
  in.j0 += ghost[2];
  in.nyr -= ghost[2] + ghost[3];
  in.k0 += ghost[4];
  in.nzr -= ghost[4] + ghost[5];
  s.interior[0] = s.interior[1] = in;
  if (in.nyr <= 0 || in.nzr <= 0) {  // every own line borders a ghost layer
    s.interior[0].nyr = s.interior[1].nyr = 0;
    s.rim[s.rims++] = own;
    return s;
  }
  auto box = [&](int j0, int nyr, int k0, int nzr) {
    OwnLines b = own;
    b.j0 = j0, b.nyr = nyr, b.k0 = k0, b.nzr = nzr;
    s.rim[s.rims++] = b;
  };
  if (ghost[2]) box(own.j0, 1, own.k0, own.nzr);  // y rims: the whole z range
  if (ghost[3]) box(own.j0 + own.nyr - 1, 1, own.k0, own.nzr);
  if (ghost[4]) box(in.j0, in.nyr, own.k0, 1);  // z rims: between the y rims
  if (ghost[5]) box(in.j0, in.nyr, own.k0 + own.nzr - 1, 1);
  if (in.nzr >= 2) {
    s.interior[0].nzr = in.nzr / 2;
    s.interior[1].k0 = in.k0 + in.nzr / 2;
    s.interior[1].nzr = in.nzr - in.nzr / 2;
  } else {
    s.interior[0].nyr = in.nyr / 2;
    s.interior[1].j0 = in.j0 + in.nyr / 2;
    s.interior[1].nyr = in.nyr - in.nyr / 2;
  }
  return s;
}

}  // namespace immerse::lbm3d
