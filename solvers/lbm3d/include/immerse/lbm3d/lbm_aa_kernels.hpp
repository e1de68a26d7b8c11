#pragma once
// The AA pattern (Bailey et al. 2009): collide and stream in place, in one population buffer.
//
// Why: the pull pattern (lbm_kernels.hpp) reads one buffer and writes a second one, and on a CPU
// every ordinary store first reads the cache line it writes (write-allocate), so a step moves 1.5x
// the bytes it counts; bench_lbm3d's stream15/pull ceiling stops at 0.66 of STREAM triad. Here a
// cell writes exactly the 15 values it read, so the lines are already in cache (stream15/in_place:
// 1.9x triad), and the lattice needs half the memory.
//
// Two steps alternate, and each cell reads and writes only its own set of 15 locations, so cells
// run in any order and in parallel:
// - exchange (the state is post-collision, stored swapped: slot -q of cell x holds population q):
//   gather the arriving populations (q from x - e_q, where the neighbour stored it in slot -q),
//   collide, and push each result q to x + e_q, slot q. After it the buffer holds the streamed
//   populations, unswapped (Stored::kArrived).
// - local: collide the arrived populations of x and store result q in slot -q of x itself.
// Borders act in the exchange step, as the pull pattern's gather does: a population arriving from a
// bounce-back face is the cell's own opposite one (from slot q, where the swapped state keeps -q),
// one arriving from a body follows the C3 rule (Lattice::from_body), and a result pushed toward a
// face is replaced in the cell by the population it will receive (the one reversed; at outflow and
// inlet faces the fictitious cell's equilibrium), in the slot nobody else writes. A result pushed
// toward a body is stored reversed the same way, and the local step applies the C3 rule to it with
// the body's state of that step (Lattice::arrive_from_bodies), as the pull step does.
// Starting from the initial state stored swapped, the exchange step is the pull step: with fixed
// cell groups both patterns compute the same populations (tests/lbm3d/test_aa_pattern.cpp). Body
// cells are never touched by either step; they are stored unswapped (ApplyGroups).
#include "immerse/lbm3d/lbm_kernels.hpp"

namespace immerse::lbm3d {

template <class Pop, class Exec>
struct AaStep {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  CollideStream<Pop, Exec> k;    // the lattice and the relaxation constants (its src/dst are not used)
  Kokkos::View<Pop*, Device> f;  // the one population buffer
  bool exchange = true;          // which of the two steps (the state says: swapped post-collision -> exchange)
  bool bodies = true;            // false: no body cell anywhere, the local step looks for none

  KOKKOS_INLINE_FUNCTION void relax(const Real a[15], Real g[15]) const {
    bgk_relax(a, g, k.omega, k.force_pref, k.force[0], k.force[1], k.force[2], k.forced);
  }

  KOKKOS_INLINE_FUNCTION void local_cell(const long c) const {
    const auto& lat = k.lat;
    if (is_body(lat.group(c))) return;
    const long S = lat.stride;
    Real a[15], g[15];
    for (int q = 0; q < 15; ++q) a[q] = lat.load(f(q * S + c), q);
    // The C3 rule with the bodies' state of this step, as the pull step's gather applies it (in the
    // exchange step it would see the state of the step before: on a moving body a lag that
    // alternates from step to step).
    if (bodies) {
      const int i = static_cast<int>(c % lat.nx);
      const long rest = c / lat.nx;
      lat.arrive_from_bodies(f, i, static_cast<int>(rest % lat.ny), static_cast<int>(rest / lat.ny), c, a);
    }
    relax(a, g);
    for (int q = 0; q < 15; ++q) f(D3Q15::opposite(q) * S + c) = lat.enc(g[q], q);
  }

  KOKKOS_INLINE_FUNCTION void exchange_cell(const int i, const int j, const int kk, const long c) const {
    const auto& lat = k.lat;
    if (is_body(lat.group(c))) return;
    const long S = lat.stride;
    Real a[15], g[15];
    lat.template gather<true>(f, i, j, kk, c, a);
    relax(a, g);
    const bool interior = i > 0 && j > 0 && kk > 0 && i < lat.nx - 1 && j < lat.ny - 1 && kk < lat.nz - 1;
    if (interior && lat.group(c) == kWater) {  // fast path, as the gather's: no border, no body neighbour
      for (int q = 0; q < 15; ++q) f(q * S + c + lat.offset[q]) = lat.enc(g[q], q);
      return;
    }
    for (int q = 0; q < 15; ++q) {
      // Result q goes to x + e_q, the upwind cell of direction r = -q: its border rule decides.
      const int r = D3Q15::opposite(q);
      long dc = c + lat.offset[q];
      const int rule = interior ? int(kPeriodic) : lat.upwind(r, i, j, kk, dc);
      if (rule == kOutflow) {
        f(r * S + c) = lat.enc(lat.rest_feq[r], r);
      } else if (rule == kVelocity) {
        f(r * S + c) = lat.enc(lat.inlet_feq[r], r);
      } else if (rule == kBounceBack || is_body(lat.group(dc))) {
        f(r * S + c) = lat.enc(g[q], r);  // a body's part follows in the local step
      } else {
        f(q * S + dc) = lat.enc(g[q], q);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const long c) const {
    if (!exchange) {
      local_cell(c);
      return;
    }
    const int i = static_cast<int>(c % k.lat.nx);
    const long r = c / k.lat.nx;
    exchange_cell(i, static_cast<int>(r % k.lat.ny), static_cast<int>(r / k.lat.ny), c);
  }
};

}  // namespace immerse::lbm3d
