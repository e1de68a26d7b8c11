#pragma once
// Ghost-layer exchange of a lattice split among ranks (LbmBlock, lbm_blocks.hpp). Blocks are split
// along y and z only; each face that borders another block has a one-cell ghost layer in the local
// lattice. Only the populations that cross a face travel: the 5 of the 15 whose velocity points
// through it (one face and four corner directions).
//
// Pull pattern, before every step: the ghost layers receive the neighbours' post-collision
// populations that will stream into this block (`fill`). AA pattern: the exchange step reads its
// neighbours' post-collision state (stored swapped) and pushes its results into their cells, so
// before it `fill` copies the swapped slots in, and after it `give_back` returns what this block's
// cells pushed into the ghost layers to the ranks that own those cells; the local step needs nothing.
// Cell groups that change between the two (set_groups, AaRelink) take one more `fill` first, with
// the old groups: a population pushed toward a body is kept reversed by its pusher, so across a
// border only the pusher's rank has it.
//
// Bodies (cell groups set on every local cell, ghosts included, from the whole lattice's groups):
// body cells are stored unswapped in both patterns, so where the AA pattern's `fill` moves slot -q
// of water, it moves slot q of a body cell (the one a water cell reads through the C3 rule). And a
// step never writes into a body cell, nor pushes from one: `give_back` leaves an owner's cell alone
// where that cell or the cell that would have pushed into it is a body cell (the owner's cell then
// got that population from its own C3 rule).
//
// Edges and corners: `fill` exchanges y, then z, each over the whole plane (x and the other axis's
// ghost cells included), so a z plane carries the y ghost rows the y exchange has just filled: a
// corner population reaches the diagonal block in two hops. `give_back` goes the other way: z, then
// y. Buffers are packed and unpacked by Kokkos kernels into contiguous Views and staged through host
// memory for the communicator (Comm::sendrecv), or handed to it as they are where MPI is CUDA-aware.
#include <Kokkos_Core.hpp>

#include <algorithm>

#include "immerse/core/halo_buffers.hpp"
#include "immerse/lbm3d/d3q15.hpp"
#include "immerse/lbm3d/lbm_params.hpp"

namespace immerse::lbm3d {

// A plane of the local lattice normal to y (axis 1) or z (axis 2) and the 5 slots that cross it.
// The buffer holds rows of nx values: row r is slot[r / other] at position r % other along the
// other axis (z for a y plane, y for a z plane). Host spaces copy a row per work item (contiguous,
// vectorised); device spaces one value per work item (coalesced along x).
struct HaloPlane {
  int nx, ny, nz;
  int axis;
  long other, stride;
  int slot[5];
  bool shut[6];  // faces of the local lattice with neither a ghost layer nor a periodic wrap
  bool wrap[6];  // periodic faces without a ghost layer: the local lattice wraps around there
  // Cell of element (row, 0) in plane `plane`.
  KOKKOS_INLINE_FUNCTION long row_cell(long row, int plane) const {
    const long t = row % other;
    return axis == 1 ? nx * (plane + ny * t) : nx * (t + ny * plane);
  }
  // Population index of element (row, 0) in plane `plane`.
  KOKKOS_INLINE_FUNCTION long row_start(long row, int plane) const {
    return slot[row / other] * stride + row_cell(row, plane);
  }
  // give_back: the cell x - e_q that pushed population q into element (row, i) of ghost plane
  // `plane`, or -1 where it lies past the local lattice's ghost layers (a value in transit to
  // the diagonal block: its owner checks it).
  KOKKOS_INLINE_FUNCTION long pusher(long row, int plane, int i) const {
    const int q = slot[row / other], t = static_cast<int>(row % other);
    int s[3] = {i - D3Q15::cx(q), (axis == 1 ? plane : t) - D3Q15::cy(q), (axis == 1 ? t : plane) - D3Q15::cz(q)};
    const int size[3] = {nx, ny, nz};
    for (int a = 0; a < 3; ++a) {
      if (s[a] >= 0 && s[a] < size[a]) continue;
      if (!wrap[2 * a + (s[a] < 0 ? 0 : 1)]) return -1;
      s[a] += s[a] < 0 ? size[a] : -size[a];
    }
    return s[0] + static_cast<long>(nx) * (s[1] + static_cast<long>(ny) * s[2]);
  }
  // give_back: the x range [lo, hi) of row `row` of ghost plane `plane` that cells of this block
  // pushed into (empty: none). The cell that pushes population q into ghost cell x is x - e_q;
  // where that lies past a wall, inlet or outflow face (shut), nobody did: the owner's cell got
  // that population from its own border rule, which the stale ghost value must not overwrite.
  KOKKOS_INLINE_FUNCTION void pushed(long row, int plane, int& lo, int& hi) const {
    const int q = slot[row / other], t = static_cast<int>(row % other);
    const int py = (axis == 1 ? plane : t) - D3Q15::cy(q), pz = (axis == 1 ? t : plane) - D3Q15::cz(q);
    lo = D3Q15::cx(q) > 0 && shut[0] ? 1 : 0;
    hi = D3Q15::cx(q) < 0 && shut[1] ? nx - 1 : nx;
    if ((py < 0 && shut[2]) || (py >= ny && shut[3]) || (pz < 0 && shut[4]) || (pz >= nz && shut[5])) hi = lo;
  }
};
// The groups of the local lattice's cells, for a lattice with bodies (empty View: none).
template <class Exec>
using HaloGroups = Kokkos::View<const unsigned char*, typename Exec::device_type>;

template <class Pop, class Exec>
struct HaloPack {
  HaloPlane pl;
  Kokkos::View<Pop*, typename Exec::device_type> f, buffer;
  int plane;
  HaloGroups<Exec> group;  // set when the AA state is swapped and the lattice has bodies
  // Slot to read at cell c for slot s of the row: s, or for a body cell its unswapped opposite.
  KOKKOS_INLINE_FUNCTION long at(long row, long i) const {
    const long c = pl.row_cell(row, plane) + i;
    const int s = pl.slot[row / pl.other];
    return (group.extent(0) > 0 && is_body(group(c)) ? D3Q15::opposite(s) : s) * pl.stride + c;
  }
  KOKKOS_INLINE_FUNCTION void operator()(long row, long i) const { buffer(row * pl.nx + i) = f(at(row, i)); }
  void operator()(long row) const {
    Pop* to = buffer.data() + row * pl.nx;
    if (group.extent(0) > 0) {
      for (int i = 0; i < pl.nx; ++i) to[i] = f(at(row, i));
      return;
    }
    const Pop* from = f.data() + pl.row_start(row, plane);
    for (int i = 0; i < pl.nx; ++i) to[i] = from[i];
  }
};
template <class Pop, class Exec>
struct HaloUnpack {
  HaloPlane pl;
  Kokkos::View<Pop*, typename Exec::device_type> f, buffer;
  int plane, sender_plane;  // sender_plane >= 0: give_back from that ghost plane of the sender
  // fill of a swapped AA state: body cells take the unswapped slot; give_back: skip body cells
  // and cells whose pusher is a body cell. Empty: a lattice without bodies.
  HaloGroups<Exec> group;
  KOKKOS_INLINE_FUNCTION void range(long row, int& lo, int& hi) const {
    lo = 0, hi = pl.nx;
    if (sender_plane >= 0) pl.pushed(row, sender_plane, lo, hi);
  }
  // Where element (row, i) goes, or -1: nowhere.
  KOKKOS_INLINE_FUNCTION long at(long row, long i) const {
    const long c = pl.row_cell(row, plane) + i;
    const int s = pl.slot[row / pl.other];
    if (!is_body(group(c))) {
      if (sender_plane < 0) return s * pl.stride + c;
      const long from = pl.pusher(row, sender_plane, static_cast<int>(i));
      return from >= 0 && is_body(group(from)) ? -1 : s * pl.stride + c;
    }
    return sender_plane < 0 ? D3Q15::opposite(s) * pl.stride + c : -1;
  }
  KOKKOS_INLINE_FUNCTION void operator()(long row, long i) const {
    int lo, hi;
    range(row, lo, hi);
    if (i < lo || i >= hi) return;
    const long to = group.extent(0) > 0 ? at(row, i) : pl.row_start(row, plane) + i;
    if (to >= 0) f(to) = buffer(row * pl.nx + i);
  }
  void operator()(long row) const {
    int lo, hi;
    range(row, lo, hi);
    const Pop* from = buffer.data() + row * pl.nx;
    if (group.extent(0) > 0) {
      for (int i = lo; i < hi; ++i)
        if (const long to = at(row, i); to >= 0) f(to) = from[i];
      return;
    }
    Pop* to = f.data() + pl.row_start(row, plane);
    for (int i = lo; i < hi; ++i) to[i] = from[i];
  }
};

template <class Pop, class Exec>
class LbmHalo {
  using View = Kokkos::View<Pop*, typename Exec::device_type>;

 public:
  LbmHalo(const LbmParams& p, long stride, Comm& comm)
      : p_(p), stride_(stride), buffers_("lbm3d::halo", 5 * static_cast<long>(p.nx) * std::max(p.ny, p.nz), comm) {}

  std::size_t bytes_sent() const { return buffers_.bytes_sent(); }

  // Ghost layers <- the neighbours' post-collision populations heading into this block (stored in
  // slot -q when `swapped`: the AA pattern before its exchange step). `group`: the cell groups of a
  // lattice with bodies, else an empty View.
  void fill(const View& f, bool swapped, const HaloGroups<Exec>& group) {
    for (int axis : {1, 2})
      for (int dir : {+1, -1}) {
        const int size = extent(axis);
        // Toward dir: this block's last own plane on that side goes to the neighbour there; the
        // ghost plane on the other side receives the same directions from the neighbour there.
        transfer(f, axis, dir, dir > 0 ? size - 2 : 1, dir > 0 ? 0 : size - 1, swapped, false,
                 swapped ? group : HaloGroups<Exec>());
      }
  }

  // After an AA exchange step: what this block's cells pushed into the ghost layers (stored
  // unswapped, in slot q) goes to the owners of those cells, into their own planes.
  void give_back(const View& f, const HaloGroups<Exec>& group) {
    for (int axis : {2, 1})
      for (int dir : {+1, -1}) {
        const int size = extent(axis);
        transfer(f, axis, dir, dir > 0 ? size - 1 : 0, dir > 0 ? 1 : size - 2, false, true, group);
      }
  }

 private:
  int extent(int axis) const { return axis == 1 ? p_.ny : p_.nz; }

  // Sends the populations with e_q along `axis` equal to `dir` of local plane `from` to the rank
  // across face (axis, dir), and stores those received from the rank across face (axis, -dir) in
  // plane `to` (the same slots). `returning`: give_back (the sender's plane is its ghost plane).
  // `group`: where bodies change what moves (HaloPack, HaloUnpack), else empty.
  void transfer(const View& f, int axis, int dir, int from, int to, bool swapped, bool returning,
                const HaloGroups<Exec>& group) {
    const int hi = 2 * axis + 1, lo = 2 * axis;
    const int dest = p_.block.ghost[dir > 0 ? hi : lo] ? p_.block.neighbour[dir > 0 ? hi : lo] : -1;
    const int source = p_.block.ghost[dir > 0 ? lo : hi] ? p_.block.neighbour[dir > 0 ? lo : hi] : -1;
    if (dest < 0 && source < 0) return;
    int slots[5], m = 0;
    for (int q = 1; q < 15; ++q)
      if ((axis == 1 ? D3Q15::cy(q) : D3Q15::cz(q)) == dir) slots[m++] = swapped ? D3Q15::opposite(q) : q;
    const long other = axis == 1 ? p_.nz : p_.ny, count = 5 * other * p_.nx;
    HaloPlane pl{p_.nx, p_.ny, p_.nz, axis, other, stride_, {slots[0], slots[1], slots[2], slots[3], slots[4]}, {}, {}};
    for (int face = 0; face < 6; ++face) {
      pl.shut[face] = !p_.block.ghost[face] && p_.border[face] != Border::periodic;
      pl.wrap[face] = !p_.block.ghost[face] && p_.border[face] == Border::periodic;
    }
    buffers_.exchange(
        count, dest, source,
        [&] {
          for_rows("lbm3d::halo_pack", 5 * other,
                   HaloPack<Pop, Exec>{pl, f, buffers_.send, from, returning ? HaloGroups<Exec>() : group});
        },
        // The sender's ghost plane mirrors this block's receiving plane: same cells, same shut faces.
        [&] {
          for_rows("lbm3d::halo_unpack", 5 * other,
                   HaloUnpack<Pop, Exec>{pl, f, buffers_.recv, to, returning ? to : -1, group});
        });
  }

  // A row kernel over `rows` rows of nx values: a row per work item on host spaces, a value per
  // work item (x fastest) on devices.
  template <class Kernel>
  void for_rows(const char* label, long rows, const Kernel& k) const {
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible)
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, rows), k);
    else
      Kokkos::parallel_for(label,
                           Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2, Kokkos::Iterate::Right>>(
                               {0, 0}, {rows, static_cast<long>(p_.nx)}),
                           k);
  }

  LbmParams p_;
  long stride_;
  HaloBuffers<Pop, Exec> buffers_;
};

}  // namespace immerse::lbm3d
