#pragma once
// Ghost-row exchange of a shallow-water lattice split among ranks along y (SwBlock): before every
// step each ghost row receives, from the rank that owns it, the 3 populations that stream across
// the block border (the pull step reads nothing else there). Rows are whole along x, so corner
// directions need no messages of their own. Packed and unpacked by Kokkos kernels into contiguous
// Views (HaloBuffers). The corrected collision's gradients also read the neighbours' fields of the
// previous step: fill_fields() copies the three fields' border rows into the ghost rows.
#include <Kokkos_Core.hpp>

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

  SwHalo(const SwParams& p, Comm& comm)
      : p_(p), buffers_("swlbm::halo", 3 * p.nx, comm), field_buffers_("swlbm::field_halo", 3 * p.nx, comm) {}

  // Ghost rows <- the neighbours' post-collision populations heading into this block.
  void fill(const Kokkos::View<V**, Kokkos::LayoutLeft, Device>& f) {
    transfer(f, +1, own_top(), 0);             // upward: into the upper block's bottom ghost row
    transfer(f, -1, own_bottom(), p_.ny - 1);  // downward: into the lower block's top ghost row
  }

  // Ghost rows of the three fields <- the neighbours' border rows (the same rows fill() sends).
  void fill_fields(const field& a, const field& b, const field& c) {
    transfer_fields(a, b, c, +1, own_top(), 0);
    transfer_fields(a, b, c, -1, own_bottom(), p_.ny - 1);
  }

 private:
  // The block's first and last own rows (a ghost row lies beyond each side that borders a block).
  int own_bottom() const { return p_.block.ghost[0] ? 1 : 0; }
  int own_top() const { return p_.ny - 1 - (p_.block.ghost[1] ? 1 : 0); }
  // The rank across the upper (up) or lower side, -1 where that side has no ghost row.
  int across(bool up) const { return p_.block.ghost[up ? 1 : 0] ? p_.block.neighbour[up ? 1 : 0] : -1; }

  void transfer_fields(const field& a, const field& b, const field& c, int dir, int from, int to) {
    const int dest = across(dir > 0), source = across(dir < 0);
    if (dest < 0 && source < 0) return;
    SwFieldRowCopy<real, Device> k{a, b, c, field_buffers_.send, p_.nx, from, true};
    const Kokkos::RangePolicy<Exec> values(0, 3 * p_.nx);
    field_buffers_.exchange(
        3 * static_cast<size_t>(p_.nx), dest, source,
        [&] { Kokkos::parallel_for("swlbm::field_halo_pack", values, k); },
        [&] {
          k.buffer = field_buffers_.recv;
          k.row = to;
          k.pack = false;
          Kokkos::parallel_for("swlbm::field_halo_unpack", values, k);
        });
  }

  // Sends the populations of own row `from` moving along dir (cy = dir) to the rank across that
  // side, and stores those received from the rank across the other side in ghost row `to`.
  void transfer(const Kokkos::View<V**, Kokkos::LayoutLeft, Device>& f, int dir, int from, int to) {
    const int dest = across(dir > 0), source = across(dir < 0);
    if (dest < 0 && source < 0) return;
    SwRowCopy<V, Device> k{f, buffers_.send, p_.nx, from, {}, true};
    for (int a = 1, m = 0; a < 9; ++a)
      if (lattice_cy(a) == dir) k.slot[m++] = a;
    const Kokkos::RangePolicy<Exec> values(0, 3 * p_.nx);
    buffers_.exchange(
        3 * static_cast<size_t>(p_.nx), dest, source, [&] { Kokkos::parallel_for("swlbm::halo_pack", values, k); },
        [&] {
          k.buffer = buffers_.recv;
          k.row = to;
          k.pack = false;
          Kokkos::parallel_for("swlbm::halo_unpack", values, k);
        });
  }

  SwParams p_;
  HaloBuffers<V, Exec> buffers_;
  HaloBuffers<real, Exec> field_buffers_;
};

}  // namespace immerse::swlbm
