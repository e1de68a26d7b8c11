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
// y. Both directions of an axis travel at once, each through its own buffers, packed and unpacked
// by Kokkos kernels into contiguous Views and staged through host memory for the communicator
// (Comm::start_sendrecv), or handed to it as they are where MPI is CUDA-aware. A z plane of one
// slot is contiguous in the lattice: where its packing or unpacking would be a plain copy, it is
// sent from or received into the lattice itself, a message per slot: one copy instead of three.
// That is where no cell groups change what moves (they do in the AA fill's packing and in every
// unpacking of a lattice with bodies) and, for give_back's unpacking, no wall, inlet or outflow
// face in x or y trims the rows.
//
// Overlap: begin_fill / begin_give_back start the first split axis's transfers and return; the
// caller works in between (LbmSolver::step: the lines that touch no ghost layer), calling
// progress() now and then: MPI moves a large message only inside its calls. The other axis, if
// split, needs the first one's ghost rows: progress() starts it once the first has arrived, or
// else the end_ call, which waits for whatever is in flight and unpacks it. The populations sent
// and received are ones the work in between neither reads nor writes, so MPI may read and write
// them in the lattice while it runs: the AA exchange step's slots toward and from the ghost layers
// belong to the ghost cells' updates, which no rank does; the pull step writes the other buffer.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <functional>

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
      : p_(p),
        stride_(stride),
        buffers_{{{"lbm3d::halo_up", plane_values(p), comm}, {"lbm3d::halo_down", plane_values(p), comm}}} {}

  std::size_t bytes_sent() const { return buffers_[0].bytes_sent() + buffers_[1].bytes_sent(); }

  // Ghost layers <- the neighbours' post-collision populations heading into this block (stored in
  // slot -q when `swapped`: the AA pattern before its exchange step). `group`: the cell groups of a
  // lattice with bodies, else an empty View.
  void fill(const View& f, bool swapped, const HaloGroups<Exec>& group) {
    begin_fill(f, swapped, group);
    end_fill();
  }
  // fill in two halves, for the cells that read no ghost layer to be updated in between:
  // begin_fill starts the exchange across the first split axis, end_fill completes it and then
  // exchanges across the other (whose planes carry the first one's ghost rows).
  void begin_fill(const View& f, bool swapped, const HaloGroups<Exec>& group) {
    begin({1, 2}, Pending{f, swapped, false, swapped ? group : HaloGroups<Exec>()});
  }
  void end_fill() { end(); }

  // After an AA exchange step: what this block's cells pushed into the ghost layers (stored
  // unswapped, in slot q) goes to the owners of those cells, into their own planes.
  void give_back(const View& f, const HaloGroups<Exec>& group) {
    begin_give_back(f, group);
    end_give_back();
  }
  // give_back in two halves: the exchange across the first split axis (z, then y) runs between them.
  void begin_give_back(const View& f, const HaloGroups<Exec>& group) { begin({2, 1}, Pending{f, false, true, group}); }
  void end_give_back() { end(); }
  // Between a begin_ and its end_: lets the transfers in flight move on (Comm::progress); once
  // the first axis's have arrived, unpacks them and starts the second axis's.
  void progress() {
    if (pending_.next == 0) return;
    bool done = true;
    for (auto& b : buffers_) done = b.progress() && done;
    if (done && pending_.next < 2 && pending_.axes[pending_.next] != 0) {
      finish_axis();
      start_axis();
    }
  }

 private:
  // An exchange begun and not yet ended: the axes left, in order, and how they move.
  struct Pending {
    View f;
    bool swapped, returning;
    HaloGroups<Exec> group;
    int axes[2] = {0, 0};
    int next = 0;  // axes[next - 1]: the axis in flight
  };

  static std::size_t plane_values(const LbmParams& p) {
    return 5 * static_cast<std::size_t>(p.nx) * std::max(p.ny, p.nz);
  }
  int extent(int axis) const { return axis == 1 ? p_.ny : p_.nz; }
  bool split(int axis) const { return p_.block.ghost[2 * axis] || p_.block.ghost[2 * axis + 1]; }

  void begin(std::array<int, 2> order, Pending job) {
    int n = 0;
    for (int axis : order)
      if (split(axis)) job.axes[n++] = axis;
    job.next = 0;
    pending_ = job;
    if (n > 0) start_axis();
  }
  void end() {
    while (pending_.next > 0) {
      finish_axis();
      if (pending_.next < 2 && pending_.axes[pending_.next] != 0)
        start_axis();
      else
        pending_.next = 0;
    }
    pending_ = Pending{};
  }

  // Both directions across axis axes[next] at once, each through its own buffers. Toward dir:
  // fill sends this block's last own plane on that side to the neighbour there and receives the
  // same directions from the neighbour on the other side into the ghost plane there; give_back
  // sends the ghost plane on that side and receives into the own plane next to the other ghost.
  void start_axis() {
    const int axis = pending_.axes[pending_.next++];
    const int size = extent(axis);
    for (int d = 0; d < 2; ++d) {
      const int dir = d == 0 ? +1 : -1;
      const int from = pending_.returning ? (dir > 0 ? size - 1 : 0) : (dir > 0 ? size - 2 : 1);
      const int to = pending_.returning ? (dir > 0 ? 1 : size - 2) : (dir > 0 ? 0 : size - 1);
      start(d, axis, dir, from, to);
    }
  }
  void finish_axis() {
    for (int d = 0; d < 2; ++d) buffers_[d].end(unpack_[d]);
  }

  // Sends the populations with e_q along `axis` equal to `dir` of local plane `from` to the rank
  // across face (axis, dir), and receives those from the rank across face (axis, -dir), to be stored
  // in plane `to` (the same slots) by unpack_[d]. Where bodies are set, they change what moves
  // (HaloPack, HaloUnpack).
  void start(int d, int axis, int dir, int from, int to) {
    const Pending& job = pending_;
    const int hi = 2 * axis + 1, lo = 2 * axis;
    const int dest = p_.block.ghost[dir > 0 ? hi : lo] ? p_.block.neighbour[dir > 0 ? hi : lo] : -1;
    const int source = p_.block.ghost[dir > 0 ? lo : hi] ? p_.block.neighbour[dir > 0 ? lo : hi] : -1;
    int slots[5], m = 0;
    for (int q = 1; q < 15; ++q)
      if ((axis == 1 ? D3Q15::cy(q) : D3Q15::cz(q)) == dir) slots[m++] = job.swapped ? D3Q15::opposite(q) : q;
    const long other = axis == 1 ? p_.nz : p_.ny;
    HaloPlane pl{p_.nx, p_.ny, p_.nz, axis, other, stride_, {slots[0], slots[1], slots[2], slots[3], slots[4]}, {}, {}};
    for (int face = 0; face < 6; ++face) {
      pl.shut[face] = !p_.block.ghost[face] && p_.border[face] != Border::periodic;
      pl.wrap[face] = !p_.block.ghost[face] && p_.border[face] == Border::periodic;
    }
    auto& b = buffers_[d];
    const HaloPack<Pop, Exec> pack{pl, job.f, b.send, from, job.returning ? HaloGroups<Exec>() : job.group};
    // The sender's ghost plane mirrors this block's receiving plane: same cells, same shut faces.
    const HaloUnpack<Pop, Exec> unpack{pl, job.f, b.recv, to, job.returning ? to : -1, job.group};
    // Across z a message per slot: a z plane of one slot is contiguous in the lattice, and where
    // packing or unpacking it would be a plain copy, it travels from and into the lattice as it
    // lies. Across y one message of the packed planes.
    const int parts = axis == 2 ? 5 : 1;
    typename HaloBuffers<Pop, Exec>::Runs runs{parts, static_cast<std::size_t>(5 / parts * other * p_.nx), {}, {}};
    if (axis == 2 && b.in_place()) {
      const long plane = static_cast<long>(p_.nx) * p_.ny;
      if (pack.group.extent(0) == 0)
        for (int s = 0; s < 5; ++s) runs.from.push_back(job.f.data() + slots[s] * stride_ + plane * from);
      if (unpack.group.extent(0) == 0 && !(job.returning && (pl.shut[0] || pl.shut[1] || pl.shut[2] || pl.shut[3])))
        for (int s = 0; s < 5; ++s) runs.into.push_back(job.f.data() + slots[s] * stride_ + plane * to);
    }
    b.begin(
        runs, dest, source, [&] { for_rows("lbm3d::halo_pack", 5 * other, pack); }, 1 + d);
    unpack_[d] = [this, unpack, other] { for_rows("lbm3d::halo_unpack", 5 * other, unpack); };
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
  std::array<HaloBuffers<Pop, Exec>, 2> buffers_;  // per direction: toward +axis, toward -axis
  std::function<void()> unpack_[2];
  Pending pending_;
};

}  // namespace immerse::lbm3d
