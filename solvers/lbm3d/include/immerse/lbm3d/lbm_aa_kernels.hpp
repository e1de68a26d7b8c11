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
// Starting from the initial state stored swapped, the exchange step is the pull step: both patterns
// compute the same populations (tests/lbm3d/test_aa_pattern.cpp), with groups that change after a
// local step as they are (ApplyGroups) and after an exchange step once AaRelink (below) re-pairs the
// links of the cells that change. Body cells are never touched by either step; they are stored
// unswapped (ApplyGroups).
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
      const auto [i, j, kk] = lat.cell_at(c);
      lat.arrive_from_bodies(f, i, j, kk, c, a);
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
    const auto [i, j, kk] = k.lat.cell_at(c);
    exchange_cell(i, j, kk, c);
  }
};

// Cells that turn from water to body or back while the AA pattern holds its arrived state (after an
// exchange step). There the population each link carries sits in the slot of the cell it went to
// (q from u to x = u + e_q: slot q of x), or, where x was a body, back in u's slot -q (the C3 rule
// follows in the local step). The pull pattern would re-read every link from its post-collision
// state with the new groups; here each link of a changed cell is re-paired the same way:
//   the two link slots, A(x, q) and A(u, -q), hold under the old groups the populations
//     u -> x (if u was water): A(x, q) if x was water, else A(u, -q);
//     x -> u (if x was water): A(u, -q) if u was water, else A(x, q);
//   a cell that turns to water sends its body populations (C1 equilibrium, C2 average, A: rest
//   equilibrium, as ApplyGroups starts it), and under the new groups the link slots of the water
//   ends take what arrives from the other end, or, where that is a body, their own population reversed.
// A changed cell's link through a lattice face takes the face's rule (bounce-back: its own population
// reversed; outflow, inlet: the fictitious cell's equilibrium). Without this, a cell turning to water
// was collided with its body populations unstreamed and a cell turning to body left its neighbours
// the populations pushed to it (docs/jellyfish.md). `changed_cells` lists the cells that turn (found
// by `count_changed`); the gather pass runs before ApplyGroups overwrites their slots (previous: the old
// groups, lat.group: the new ones) and writes up to 28 values per changed cell, raw (slots q and -q
// share their binary16 shift), with their target (-1: none); the `store` pass runs after it. A link between
// two changed cells is taken by the lower cell index only.
template <class Pop, class Exec>
struct AaRelink {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  Lattice<Pop, Device> lat;
  Kokkos::View<const int*, Device> changed_cells;
  Kokkos::View<const unsigned char*, Device> previous;
  Kokkos::View<Pop*, Device> f;
  Kokkos::View<Pop*, Device> value;  // 28 per changed cell
  Kokkos::View<long*, Device> target;
  bool store = false;

  KOKKOS_INLINE_FUNCTION bool changed(long c) const { return is_body(previous(c)) != is_body(lat.group(c)); }
  // What body cell b (under the old groups) sends as population q once it is water.
  KOKKOS_INLINE_FUNCTION Pop body_population(long b, int q) const {
    return previous(b) == kInner ? lat.enc(Real(D3Q15::w(q)) * lat.rho0, q) : f(q * lat.stride + b);
  }
  KOKKOS_INLINE_FUNCTION void put(long r, int q, int end, long where, Pop v) const {
    const long e = 28 * r + 2 * (q - 1) + end;
    target(e) = where;
    value(e) = v;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    const long S = lat.stride, c = changed_cells(r);
    if (store) {
      for (long e = 28 * r; e < 28 * r + 28; ++e)
        if (target(e) >= 0) f(target(e)) = value(e);
      return;
    }
    for (long e = 28 * r; e < 28 * r + 28; ++e) target(e) = -1;
    const bool x0 = !is_body(previous(c)), x1 = !is_body(lat.group(c));  // this cell water before, after
    const auto [i, j, k] = lat.cell_at(c);
    for (int q = 1; q < 15; ++q) {
      const int o = D3Q15::opposite(q);
      long u;
      const int rule = lat.upwind(q, i, j, k, u);
      if (rule != kPeriodic) {  // a lattice face: only a cell turning to water has something to take
        if (!x1) continue;
        const Pop v = rule == kBounceBack ? body_population(c, o)
                      : rule == kOutflow  ? lat.enc(lat.rest_feq[q], q)
                                          : lat.enc(lat.inlet_feq[q], q);
        put(r, q, 0, q * S + c, v);
        continue;
      }
      if (u == c || (changed(u) && u < c)) continue;
      const bool u0 = !is_body(previous(u)), u1 = !is_body(lat.group(u));
      const Pop sx = f(q * S + c), su = f(o * S + u);
      // Populations on the link: q from u to this cell, o back; under the new groups.
      const Pop forth = u0 ? (x0 ? sx : su) : body_population(u, q);
      const Pop back = x0 ? (u0 ? su : sx) : body_population(c, o);
      if (x1) put(r, q, 0, q * S + c, u1 ? forth : back);
      if (u1) put(r, q, 1, o * S + u, x1 ? back : forth);
    }
  }
};

// The cells of `region` that turn between water and body (previous: the old groups, group: the new
// ones), into `changed` in region order; returns their count.
template <class Exec>
int count_changed(const Kokkos::View<const int*, typename Exec::device_type>& region, int size,
                  const Kokkos::View<const unsigned char*, typename Exec::device_type>& previous,
                  const Kokkos::View<const unsigned char*, typename Exec::device_type>& group,
                  const Kokkos::View<int*, typename Exec::device_type>& changed) {
  int count = 0;
  Kokkos::parallel_scan(
      "lbm3d::aa_relink_changed", Kokkos::RangePolicy<Exec>(0, size),
      KOKKOS_LAMBDA(const int r, int& at, const bool final) {
        const int c = region(r);
        if (is_body(previous(c)) == is_body(group(c))) return;
        if (final) changed(at) = c;
        ++at;
      },
      count);
  return count;
}

}  // namespace immerse::lbm3d
