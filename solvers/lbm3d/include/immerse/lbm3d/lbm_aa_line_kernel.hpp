#pragma once
// The host-space form of the AA pattern's two steps (lbm_aa_kernels.hpp): one x line per work item,
// its plain cells through the pull line kernel's SIMD runs (CollideStreamLines::water_run), whose
// input and output pointers here address the same buffer.
//
// In place is safe in a run: water_run loads all 15 inputs of a cell before it stores its results,
// and the 15 results go exactly where the 15 inputs came from (result q replaces input -q, at the
// same run index), so nothing is overwritten before it is read and cells never share a location.
// - local step: every run of plain water cells in every line; cells next to a body go one by one
//   through AaStep::local_cell (the C3 rule with the body's current state); body cells are left
//   alone.
// - exchange step: runs of plain water cells (no body neighbour) between the two x ends, with the
//   line's plan (plan_interior) giving each direction's source and, through its opposite, each
//   result's destination; the two x ends are one-cell runs with their end plans (plan_end); cells
//   next to a body, lines where a periodic face brings a body in, and ends with a body across a
//   face go cell by cell through AaStep::exchange_cell, the reference the device spaces run.
// - whole lines (AVX-512 and AVX2 hosts, FP32 and binary16; lbm_line_run.hpp): in the local step a
//   line of plain water, in the exchange step one whose plan pulls every direction and whose ends
//   are plain too, runs as one pass of vectors (16 or 8 cells), the end cells in the first and last.
// - cells next to a body in vectors too, on the same hosts (lbm_near_body_run.hpp).
#include <array>

#include "immerse/lbm3d/lbm_aa_kernels.hpp"
#include "immerse/lbm3d/lbm_line_kernel.hpp"
#include "immerse/lbm3d/lbm_line_run.hpp"
#include "immerse/lbm3d/lbm_near_body_run.hpp"

namespace immerse::lbm3d {

template <class Pop, class Exec>
struct AaLines {
  using Lines = CollideStreamLines<Pop, Exec>;
  using Plan = typename Lines::LinePlan;
  using Real = typename Lines::Real;
  static constexpr int kRun = Lines::kRun;
  AaStep<Pop, Exec> step;      // the buffer, the lattice and the relaxation (step.k); cells outside the runs
  Lines lines{step.k, false};  // plans and SIMD runs over the same lattice and relaxation
  // The end plans of a line away from the y and z faces (every direction pulls from a neighbour
  // line), with sources relative to the line's first cell: the same for every such line, so
  // exchange_end takes them from here instead of building and checking two plans per line (which
  // cost up to a tenth of the step at 256^3). Whether such an end is plain water is then its own
  // group alone, where no body can come in across a periodic x face (the groups mark body
  // neighbours inside the box only): on a lattice without bodies, or one without periodic x faces.
  struct InsideEnds {
    bool usable = false;  // the lattice has lines away from the y and z faces, and the own group decides
    Plan plan[2];         // end cell 0, end cell nx - 1; sources relative to the line's first cell
    Pop value[2][15];     // their constant-kind sources as stored
  };
  InsideEnds inside_ends = make_inside_ends();
#if defined(IMMERSE_LBM_LINE_VECTORS)
  // Whole lines (lbm_line_run.hpp): the exchange step's lines by class (line_class: the first,
  // inner or last line along y, the same along z), their run and their ends' fixes worked out once
  // per step from one line of the class; lines of a class without one go line by line. The inner
  // class comes from the plans above. The classes on the y and z faces are worked out for the
  // exchange step of a lattice without bodies only, where every line of a class has the same plan
  // relative to its first cell (with bodies, a periodic face may bring one in: line by line).
  // Working out a face line's plan line by line cost more than relaxing it at 64^3.
  struct WholeLines {
    bool usable = false;   // FP32 or binary16, and the class's lines run whole
    long in[15], out[15];  // direction q of cell i from in[q] + i, result q to out[q] + i (from the first cell)
    LineEnd<Pop> ends[2];  // cells 0 and nx - 1
  };
  std::array<std::array<WholeLines, 3>, 3> whole = make_whole_lines();  // [y class][z class]
  BgkCoefficients<Real> line_coefficients = make_line_coefficients();   // binary16: with the storage's shift
  NearBodyCells<Pop> near_body_cells{step.k.lat, step.f.data()};        // lbm_near_body_run.hpp
#endif

  InsideEnds make_inside_ends() const {
    const auto& lat = step.k.lat;
    InsideEnds e;
    const bool x_periodic = lat.border[0] == kPeriodic || lat.border[1] == kPeriodic;
    e.usable = (!step.bodies || !x_periodic) && lat.ny > 2 && lat.nz > 2 && lat.nx > 1;
    if (!e.usable) return e;
    const long base = static_cast<long>(lat.nx) * (1 + static_cast<long>(lat.ny));  // line (1, 1)
    const Plan interior = lines.plan_interior(1, 1);
    for (int end = 0; end < 2; ++end) {
      Plan& p = e.plan[end];
      p = lines.plan_end(interior, end == 0 ? 0 : lat.nx - 1, base);
      for (int q = 0; q < 15; ++q) {
        p.source[q] -= base;
        e.value[end][q] = lat.enc(p.value[q], q);
      }
    }
    return e;
  }

#if defined(IMMERSE_LBM_LINE_VECTORS)
  // End cell `cell` of a line whose run reads direction q of cell i at in[q] + i and writes result
  // q to out[q] + i (offsets from the line's first cell), by its end plan `end` (shift: added to its
  // pull sources to make them relative to that cell; `value`: its constant-kind sources as stored):
  // what it reads and writes elsewhere than the run, as end_run would.
  LineEnd<Pop> line_end(const Plan& end, const long shift, const Pop value[15], const int cell, const long in[15],
                        const long out[15]) const {
    long at_in[15], at_out[15];
    plan_offsets(end, 0, shift, at_in, at_out);
    LineEnd<Pop> e;
    e.cell = cell;
    for (int q = 0; q < 15; ++q) {
      e.value[q] = value[q];
      if (at_in[q] == kNoSlot)
        e.add_read(q, true, 0);
      else if (at_in[q] != in[q])
        e.add_read(q, false, at_in[q] + cell);
      if (at_out[q] == kNoSlot)  // pushed into an open face: the own slot -q takes the face's value
        e.add_write(q, true, D3Q15::opposite(q) * step.k.lat.stride + cell);
      else if (at_out[q] != out[q])
        e.add_write(q, false, at_out[q] + cell);
    }
    return e;
  }

  // 0 for the first line along an axis of n lines, 2 for the last, 1 between (n > 2).
  static int line_class(const int i, const int n) { return i == 0 ? 0 : i == n - 1 ? 2 : 1; }

  std::array<std::array<WholeLines, 3>, 3> make_whole_lines() const {
    std::array<std::array<WholeLines, 3>, 3> w;
    if (!kLineVectors<Pop> || !inside_ends.usable) return w;
    const auto& lat = step.k.lat;
    WholeLines& inner = w[1][1];
    Plan interior = lines.plan_interior(1, 1);
    const long base = static_cast<long>(lat.nx) * (1 + static_cast<long>(lat.ny));  // line (1, 1)
    for (int q = 0; q < 15; ++q) interior.source[q] -= base;
    plan_offsets(interior, 0, 0, inner.in, inner.out);
    for (int end = 0; end < 2; ++end)
      inner.ends[end] =
          line_end(inside_ends.plan[end], 0, inside_ends.value[end], end == 0 ? 0 : lat.nx - 1, inner.in, inner.out);
    inner.usable = true;
    if (step.bodies || !step.exchange) return w;
    const int first[3] = {0, 1, lat.ny - 1}, layer[3] = {0, 1, lat.nz - 1};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        if (a != 1 || b != 1) w[a][b] = line_form(first[a], layer[b]);
    return w;
  }

  // The whole-line form of line (j, kk), relative to its first cell, worked out from its own plans;
  // usable when its interior plan pulls every direction and its two ends are plain.
  WholeLines line_form(const int j, const int kk) const {
    const auto& lat = step.k.lat;
    WholeLines w;
    const long base = static_cast<long>(lat.nx) * (j + static_cast<long>(lat.ny) * kk);
    const Plan plan = lines.plan_interior(j, kk);
    if (plan.wrapped_body || !all_pull(plan)) return w;
    const Plan end[2] = {lines.plan_end(plan, 0, base), lines.plan_end(plan, lat.nx - 1, base)};
    if (!lines.plain_end(end[0], 0, base) || !lines.plain_end(end[1], lat.nx - 1, base)) return w;
    plan_offsets(plan, 0, -base, w.in, w.out);
    for (int e = 0; e < 2; ++e) {
      Pop value[15];
      for (int q = 0; q < 15; ++q) value[q] = lat.enc(end[e].value[q], q);
      w.ends[e] = line_end(end[e], -base, value, e == 0 ? 0 : lat.nx - 1, w.in, w.out);
    }
    w.usable = true;
    return w;
  }

  BgkCoefficients<Real> make_line_coefficients() const {
    const auto& k = step.k;
    BgkShift<Real> shift;
    if constexpr (LbmStore<Pop>::kHalf) shift = {k.lat.inv_scale, k.lat.ref[0], k.lat.ref[1], k.lat.ref[7]};
    return BgkCoefficients<Real>(k.omega, k.force_pref, k.force[0], k.force[1], k.force[2], shift);
  }

  // relax_line on line `base`: the run by the offsets in, out (plan_offsets, or the local step's
  // own slots when ends is nullptr).
  void relax_whole(const long base, const long in[15], const long out[15], const LineEnd<Pop>* ends) const {
    if constexpr (kLineVectors<Pop>) {
      Pop* f = step.f.data() + base;
      Pop* from[15];
      Pop* to[15];
      for (int q = 0; q < 15; ++q) from[q] = f + in[q], to[q] = f + out[q];
      const BgkCoefficients<LineLanes> c(line_coefficients);
      if (step.k.forced)
        relax_line<true>(c, from, to, f, step.k.lat.nx, ends);
      else
        relax_line<false>(c, from, to, f, step.k.lat.nx, ends);
    }
  }
#endif

  // The local step's line `base` in whole vectors (lbm_line_run.hpp) when it is plain water
  // throughout. False: not done, take the runs.
  bool local_whole(const long base) const {
#if defined(IMMERSE_LBM_LINE_VECTORS)
    const auto& lat = step.k.lat;
    if (!kLineVectors<Pop> || lines.water_cells(base, lat.nx, kWater) != lat.nx) return false;
    long in[15], out[15];
    for (int q = 0; q < 15; ++q) {
      in[q] = q * lat.stride;
      out[q] = D3Q15::opposite(q) * lat.stride;
    }
    relax_whole(base, in, out, nullptr);
    return true;
#else
    (void)base;
    return false;
#endif
  }

  // The exchange step's line (j, kk) in whole vectors, ends included (lbm_line_run.hpp), when it is
  // plain water throughout, its interior plan pulls every direction and its two ends are plain.
  // False: not done, take the runs. Which lines qualify depends on the lattice's faces, bodies and
  // groups only, never on its split into blocks.
  bool exchange_whole(const int j, const int kk, const long base) const {
#if defined(IMMERSE_LBM_LINE_VECTORS)
    const auto& lat = step.k.lat;
    if (!kLineVectors<Pop> || lat.nx < 2 || lines.water_cells(base, lat.nx, kWater) != lat.nx) return false;
    if (inside_ends.usable) {  // then ny, nz > 2: the three classes along each are apart
      const WholeLines& w = whole[line_class(j, lat.ny)][line_class(kk, lat.nz)];
      if (w.usable) {
        relax_whole(base, w.in, w.out, w.ends);
        return true;
      }
    }
    const WholeLines w = line_form(j, kk);
    if (w.usable) relax_whole(base, w.in, w.out, w.ends);
    return w.usable;
#else
    (void)j;
    (void)kk;
    (void)base;
    return false;
#endif
  }

  // Cells base + i .. nx - 2 at most of a line with `plan` (every direction pulling), from a cell
  // next to a body or in one, as one vector (lbm_near_body_run.hpp): how many it took. 0: not done
  // (no vector line kernel on this host, or a stored type without one), take the cell.
  int near_body(const Plan& plan, const long base, const int i, const bool exchange) const {
#if defined(IMMERSE_LBM_LINE_VECTORS)
    if constexpr (kLineVectors<Pop>) {
      const int w = (step.k.lat.nx - 1 - i) < kLineWidth ? (step.k.lat.nx - 1 - i) : kLineWidth;
      if (w <= 0 || i < 1) return 0;
      const NearBodyCells<Pop>& b = near_body_cells;
      const BgkCoefficients<LineLanes> c(line_coefficients);
      const LineMask lanes = (1u << w) - 1;
      if (exchange)
        step.k.forced ? relax_near_body<true, true>(c, b, plan.source, base, i, lanes)
                      : relax_near_body<false, true>(c, b, plan.source, base, i, lanes);
      else
        step.k.forced ? relax_near_body<true, false>(c, b, plan.source, base, i, lanes)
                      : relax_near_body<false, false>(c, b, plan.source, base, i, lanes);
      return w;
    }
#endif
    (void)plan;
    (void)base;
    (void)i;
    (void)exchange;
    return 0;
  }

  static bool all_pull(const Plan& plan) {
    for (int q = 0; q < 15; ++q)
      if (plan.kind[q] != Plan::kPull) return false;
    return true;
  }

  void operator()(const int line) const {
    if (step.exchange)
      exchange_line(line);
    else
      local_line(line);
  }

  void local_line(const int line) const {
    const auto& lat = step.k.lat;
    const long base = static_cast<long>(line) * lat.nx, n = lat.stride;
    Pop* f = step.f.data();
    const Pop* in[15];
    Pop* out[15];
    // The groups mark body neighbours without wrapping, so a plain cell may still receive from a
    // body across a periodic face: the two x ends of a line on such a face (or with x periodic) and
    // every cell of a line that a y or z face brings a body next to go cell by cell.
    const int j = line % lat.ny, kk = line / lat.ny;
    const bool seam = (lat.border[2] == kPeriodic && (j == 0 || j == lat.ny - 1)) ||
                      (lat.border[4] == kPeriodic && (kk == 0 || kk == lat.nz - 1));
    const bool ends_apart = step.bodies && lat.nx > 1 && (seam || lat.border[0] == kPeriodic);
    if (!ends_apart && local_whole(base)) return;
    const Plan plan = lines.plan_interior(j, kk);  // where a body's populations come from
    const bool wrapped = step.bodies && seam && plan.wrapped_body, pull = all_pull(plan);
    int i = 0, end = lat.nx;
    if (ends_apart) {
      step.local_cell(base);
      step.local_cell(base + lat.nx - 1);
      i = 1;
      end = lat.nx - 1;
    }
    while (i < end) {
      const int limit = (end - i) < kRun ? (end - i) : kRun;
      const int m = wrapped ? 0 : lines.water_cells(base + i, limit, kWater);
      if (m == 0) {  // next to a body, or a body cell (which no step touches)
        const int w = pull ? near_body(plan, base, i, false) : 0;
        if (w == 0) step.local_cell(base + i);
        i += w > 0 ? w : 1;
        continue;
      }
      for (int q = 0; q < 15; ++q) in[q] = f + q * n + base + i, out[q] = f + D3Q15::opposite(q) * n + base + i;
      lines.water_run(in, out, m);
      i += m;
    }
  }

  static constexpr long kNoSlot = -(1L << 62);  // plan_offsets: a constant-kind source, or a result pushed into a face

  // Where the populations arriving at cell 0 of a line with `plan` come from and where its results
  // go, as offsets into the population buffer (kNoSlot: a constant-kind source, or a result pushed
  // into an outflow/inlet face). shift: added to the plan's pull sources (a plan with sources
  // relative to the line's first cell).
  void plan_offsets(const Plan& plan, const long base, const long shift, long in[15], long out[15]) const {
    const long n = step.k.lat.stride;
    for (int q = 0; q < 15; ++q) {
      const int r = D3Q15::opposite(q);
      // Arriving q: the upwind neighbour's result q (its slot -q), or the own result -q (slot q).
      in[q] = plan.kind[q] == Plan::kPull     ? r * n + plan.source[q] + shift
              : plan.kind[q] == Plan::kBounce ? q * n + base
                                              : kNoSlot;
      // Result q goes to x + e_q, the upwind cell of direction -q (slot q), or bounces back into
      // slot -q of the cell itself; toward an outflow/inlet face slot -q gets the face's constant.
      out[q] = plan.kind[r] == Plan::kPull     ? q * n + plan.source[r] + shift
               : plan.kind[r] == Plan::kBounce ? r * n + base
                                               : kNoSlot;
    }
  }

  // plan_offsets as pointers (nullptr: kNoSlot).
  void plan_pointers(const Plan& plan, const long base, const Pop* in0[15], Pop* out0[15], const long shift = 0) const {
    long in[15], out[15];
    plan_offsets(plan, base, shift, in, out);
    Pop* f = step.f.data();
    for (int q = 0; q < 15; ++q) {
      in0[q] = in[q] == kNoSlot ? nullptr : f + in[q];
      out0[q] = out[q] == kNoSlot ? nullptr : f + out[q];
    }
  }

  void exchange_line(const int line) const {
    const auto& lat = step.k.lat;
    const int j = line % lat.ny, kk = line / lat.ny;
    const long base = static_cast<long>(line) * lat.nx, n = lat.stride;
    if (exchange_whole(j, kk, base)) return;
    const Plan plan = lines.plan_interior(j, kk);
    const bool pull = all_pull(plan);
    Pop* f = step.f.data();
    Pop constant[15][kRun];  // constant-kind sources read these as if they were a line
    Pop discard[kRun];       // results pushed into an outflow/inlet face are dropped here
    const Pop* in0[15];      // source of direction q at cell 0 of the line (nullptr: constant[q])
    Pop* out0[15];           // destination of result q at cell 0 (nullptr: discard)
    plan_pointers(plan, base, in0, out0);
    for (int q = 0; q < 15; ++q)
      if (plan.kind[q] == Plan::kConstant)
        for (int a = 0; a < kRun; ++a) constant[q][a] = lat.enc(plan.value[q], q);
    const Pop* in[15];
    Pop* out[15];
    int i = 1;
    while (i < lat.nx - 1) {
      int m = 0;
      const int limit = (lat.nx - 1 - i) < kRun ? (lat.nx - 1 - i) : kRun;
      if (!plan.wrapped_body) m = lines.water_cells(base + i, limit, kWater);
      if (m == 0) {
        const int w = pull ? near_body(plan, base, i, true) : 0;
        if (w == 0) step.exchange_cell(i, j, kk, base + i);
        i += w > 0 ? w : 1;
        continue;
      }
      for (int q = 0; q < 15; ++q) {
        in[q] = in0[q] ? in0[q] + i : constant[q];
        out[q] = out0[q] ? out0[q] + i : discard;
      }
      lines.water_run(in, out, m);
      for (int q = 0; q < 15; ++q) {
        if (out0[q]) continue;
        const int r = D3Q15::opposite(q);
        Pop* to = f + r * n + base + i;
        const Pop v = lat.enc(plan.value[r], r);
        for (int a = 0; a < m; ++a) to[a] = v;
      }
      i += m;
    }
    exchange_end(plan, 0, j, kk, base);
    if (lat.nx > 1) exchange_end(plan, lat.nx - 1, j, kk, base);
  }

  // End cell i (0 or nx-1) of a line: a one-cell run with the end plan (the x face added) where no
  // body is among the cells it exchanges with, else cell by cell (AaStep::exchange_cell). The
  // one-cell run costs a fraction of the cell-by-cell gather and border rules.
  void exchange_end(const Plan& interior, const int i, const int j, const int kk, const long base) const {
    const auto& lat = step.k.lat;
    const bool inside = j > 0 && kk > 0 && j < lat.ny - 1 && kk < lat.nz - 1;
    if (inside_ends.usable && inside) {
      if (lat.group(base + i) != kWater) {
        step.exchange_cell(i, j, kk, base + i);
        return;
      }
      const int end = i == 0 ? 0 : 1;
      end_run(inside_ends.plan[end], inside_ends.value[end], i, base, base);
      return;
    }
    const Plan plan = lines.plan_end(interior, i, base);
    if (!lines.plain_end(plan, i, base)) {
      step.exchange_cell(i, j, kk, base + i);
      return;
    }
    Pop value[15];  // the constant-kind sources as stored
    for (int q = 0; q < 15; ++q) value[q] = lat.enc(plan.value[q], q);
    end_run(plan, value, i, base, 0);
  }

  // End cell i as a one-cell run by its end plan (pull sources plus `shift`), `value` its
  // constant-kind sources as stored.
  void end_run(const Plan& plan, const Pop value[15], const int i, const long base, const long shift) const {
    const Pop* in0[15];
    Pop* out0[15];
    plan_pointers(plan, base, in0, out0, shift);
    Pop discard[15];
    const Pop* in[15];
    Pop* out[15];
    for (int q = 0; q < 15; ++q) {
      in[q] = in0[q] ? in0[q] + i : &value[q];
      out[q] = out0[q] ? out0[q] + i : &discard[q];
    }
    lines.water_run(in, out, 1);
    const long n = step.k.lat.stride;
    for (int q = 0; q < 15; ++q)
      if (!out0[q]) step.f(D3Q15::opposite(q) * n + base + i) = value[D3Q15::opposite(q)];
  }
};

}  // namespace immerse::lbm3d
