#pragma once
// Ghost-row exchange of a shallow-water lattice split among ranks along y (SwBlock): before every
// step each ghost row receives, from the rank that owns it, the 3 populations that stream across
// the block border (the pull step reads nothing else there). Rows are whole along x, so corner
// directions need no messages of their own. Packed and unpacked by Kokkos kernels into contiguous
// Views (HaloBuffers); the step updates its interior rows while they travel (SwSolver::launch_step).
// The corrected collision's gradients also read the neighbours' fields of the previous step:
// fill_fields() copies the three fields' border rows into the ghost rows.
#include <Kokkos_Core.hpp>

#include <array>
#include <functional>
#include <vector>

#include "immerse/core/halo_buffers.hpp"
#include "immerse/swlbm/sw_lattice.hpp"
#include "immerse/swlbm/sw_params.hpp"
#include "immerse/swlbm/sw_storage.hpp"

namespace immerse::swlbm {

// Row `row` of the lattice, slots slot[0..2], to or from a buffer of 3 nx values.
template <class V, class Device>
struct SwRowCopy {
  Kokkos::View<V**, Kokkos::LayoutLeft, Device> f;
  Kokkos::View<V*, Device> buffer;
  int nx, row, slot[3];
  bool pack;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    const int c = row * nx + k % nx, a = slot[k / nx];
    if (pack)
      buffer(k) = f(c, a);
    else
      f(c, a) = buffer(k);
  }
};

// Row `row` of three fields, to or from a buffer of 3 nx values.
template <class R, class Device>
struct SwFieldRowCopy {
  Kokkos::View<R*, Device> a, b, c;
  Kokkos::View<R*, Device> buffer;
  int nx, row;
  bool pack;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    const int cell = row * nx + k % nx, which = k / nx;
    const auto& f = which == 0 ? a : which == 1 ? b : c;
    if (pack)
      buffer(k) = f(cell);
    else
      f(cell) = buffer(k);
  }
};

template <class Exec, class V>
class SwHalo {
  using Device = Kokkos::Device<Exec, typename Exec::memory_space>;

 public:
  using real = typename SwStore<V>::real;
  using field = Kokkos::View<real*, Device>;
  using pops = Kokkos::View<V**, Kokkos::LayoutLeft, Device>;

  SwHalo(const SwParams& p, Comm& comm)
      : p_(p),
        buffers_{{{"swlbm::halo_up", 3 * static_cast<size_t>(p.nx), comm},
                  {"swlbm::halo_down", 3 * static_cast<size_t>(p.nx), comm}}},
        field_buffers_{{{"swlbm::field_halo_up", 3 * static_cast<size_t>(p.nx), comm},
                        {"swlbm::field_halo_down", 3 * static_cast<size_t>(p.nx), comm}}} {}

  // Ghost rows <- the neighbours' post-collision populations heading into this block.
  void fill(const pops& f) {
    begin_fill(f);
    end_fill();
  }
  // Ghost rows of the three fields <- the neighbours' border rows (the same rows fill() sends).
  void fill_fields(const field& a, const field& b, const field& c) {
    begin_fill_fields(a, b, c);
    end_fill();
  }
  // The same in two halves, for the rows that read no ghost row to step in between: begin_ packs
  // and starts the transfers, both directions at once through their own buffers; end_fill waits for
  // every transfer begun and unpacks it.
  void begin_fill(const pops& f) {
    transfer(f, 0, own_top(), 0);             // upward: into the upper block's bottom ghost row
    transfer(f, 1, own_bottom(), p_.ny - 1);  // downward: into the lower block's top ghost row
  }
  void begin_fill_fields(const field& a, const field& b, const field& c) {
    transfer_fields(a, b, c, 0, own_top(), 0);
    transfer_fields(a, b, c, 1, own_bottom(), p_.ny - 1);
  }
  void end_fill() {
    for (auto& finish : pending_) finish();
    pending_.clear();
  }
  // Between begin_ and end_fill: lets the transfers move on (a message past Open MPI's eager limit,
  // a few kB, moves only inside MPI calls on both sides: HaloBuffers::progress; a pair with
  // nothing in flight returns at once).
  void progress() {
    for (int d = 0; d < 2; ++d) buffers_[d].progress(), field_buffers_[d].progress();
  }
  // Bytes sent so far, populations and fields.
  std::size_t bytes_sent() const {
    std::size_t sent = 0;
    for (int d = 0; d < 2; ++d) sent += buffers_[d].bytes_sent() + field_buffers_[d].bytes_sent();
    return sent;
  }

 private:
  // The block's first and last own rows (a ghost row lies beyond each side that borders a block).
  int own_bottom() const { return p_.block.ghost[0] ? 1 : 0; }
  int own_top() const { return p_.ny - 1 - (p_.block.ghost[1] ? 1 : 0); }
  // The rank across the upper (up) or lower side, -1 where that side has no ghost row.
  int across(bool up) const { return p_.block.ghost[up ? 1 : 0] ? p_.block.neighbour[up ? 1 : 0] : -1; }

  // Direction d (0: up, 1: down): sends row `from` of the three fields to the rank across that
  // side, and stores the row received from the rank across the other side in ghost row `to`.
  void transfer_fields(const field& a, const field& b, const field& c, int d, int from, int to) {
    const int dest = across(d == 0), source = across(d == 1);
    if (dest < 0 && source < 0) return;
    auto& buffers = field_buffers_[d];
    const SwFieldRowCopy<real, Device> pack{a, b, c, buffers.send, p_.nx, from, true};
    const SwFieldRowCopy<real, Device> unpack{a, b, c, buffers.recv, p_.nx, to, false};
    const Kokkos::RangePolicy<Exec> values(0, 3 * p_.nx);
    buffers.begin(
        3 * static_cast<size_t>(p_.nx), dest, source,
        [&] { Kokkos::parallel_for("swlbm::field_halo_pack", values, pack); }, 3 + d);
    pending_.push_back([&buffers, unpack, values] {
      buffers.end([&] { Kokkos::parallel_for("swlbm::field_halo_unpack", values, unpack); });
    });
  }
  // Direction d (0: up, 1: down): sends the populations of own row `from` moving that way (cy = +1
  // or -1) to the rank across that side, and stores those received from the rank across the other
  // side in ghost row `to`.
  void transfer(const pops& f, int d, int from, int to) {
    const int dest = across(d == 0), source = across(d == 1);
    if (dest < 0 && source < 0) return;
    auto& buffers = buffers_[d];
    SwRowCopy<V, Device> pack{f, buffers.send, p_.nx, from, {}, true};
    for (int a = 1, m = 0; a < 9; ++a)
      if (lattice_cy(a) == (d == 0 ? 1 : -1)) pack.slot[m++] = a;
    SwRowCopy<V, Device> unpack = pack;
    unpack.buffer = buffers.recv;
    unpack.row = to;
    unpack.pack = false;
    const Kokkos::RangePolicy<Exec> values(0, 3 * p_.nx);
    buffers.begin(
        3 * static_cast<size_t>(p_.nx), dest, source, [&] { Kokkos::parallel_for("swlbm::halo_pack", values, pack); },
        1 + d);
    pending_.push_back([&buffers, unpack, values] {
      buffers.end([&] { Kokkos::parallel_for("swlbm::halo_unpack", values, unpack); });
    });
  }

  SwParams p_;
  std::array<HaloBuffers<V, Exec>, 2> buffers_;           // per direction: up, down
  std::array<HaloBuffers<real, Exec>, 2> field_buffers_;  // the same for the three fields
  std::vector<std::function<void()>> pending_;            // the transfers begun: wait and unpack
};

}  // namespace immerse::swlbm
