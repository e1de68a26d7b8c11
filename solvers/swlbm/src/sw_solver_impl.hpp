#pragma once
// Definitions of SwSolver<Exec, V>; included once by sw_flow.cpp, which instantiates them for every
// enabled execution space and storage.
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <string>
#include <type_traits>

#include "immerse/core/block_stride.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/large_view.hpp"
#include "immerse/core/node_shared.hpp"
#include "immerse/core/ordered_sum.hpp"
#include "immerse/core/state_views.hpp"
#include "immerse/swlbm/sw_solver.hpp"

namespace immerse::swlbm {

// Rows of `width` values in each of the vectors `mine` (this rank's rows [first, first + rows) of
// the whole lattice), gathered from every rank into the matching vectors `out`, resized to rows
// [lo, lo + out_rows). Collective.
inline void gather_rows(int first, int rows, int width, const std::vector<const std::vector<double>*>& mine, int lo,
                        int out_rows, const std::vector<std::vector<double>*>& out) {
  std::vector<double> send = {static_cast<double>(first), static_cast<double>(rows)};
  for (const auto* v : mine) send.insert(send.end(), v->begin(), v->end());
  const std::vector<double> all = world().allgather(send);
  for (auto* v : out) v->assign(static_cast<size_t>(width) * out_rows, 0.0);
  for (size_t at = 0; at < all.size();) {  // each rank's [first row, rows, values of each vector...]
    const size_t count = static_cast<size_t>(all[at + 1]) * width;
    const size_t to = (static_cast<size_t>(all[at]) - static_cast<size_t>(lo)) * width;
    at += 2;
    for (auto* v : out) {
      if (count > 0) std::copy(all.begin() + at, all.begin() + at + count, v->begin() + to);
      at += count;
    }
  }
}

template <class Exec, class V>
SwSolver<Exec, V>::SwSolver(const SwParams& p)
    : p_(p),
      inflow_h_(p.inflow_h, p.source + ": key 'boundaries.inflow_h'"),
      inflow_u_(p.inflow_u, p.source + ": key 'boundaries.inflow_u'"),
      inflow_v_(p.inflow_v, p.source + ": key 'boundaries.inflow_v'") {
  if (p.storage != storage_of<V>())
    throw Error(fmt::format("SwSolver: lattice.storage {} built with the value type of {}", to_string(p.storage),
                            to_string(storage_of<V>())),
                kExitInternal);
  const int n = p.nx * p.ny;
  if (p.block.shared()) {  // this rank's rows of the whole lattice; its rims are those next to another rank's
    j0_ = p.block.rows[0];
    rows_ = p.block.rows[1];
    signals_ = std::make_unique<StepSignals>(p.block.row_neighbour, world());
  } else {
    j0_ = p.block.ghost[0] ? 1 : 0;
    rows_ = p.ny - j0_ - (p.block.ghost[1] ? 1 : 0);
  }
  // Population q of cell c at f(c, q); the columns block_stride apart (block_stride.hpp), the
  // rows past n unused.
  const long stride = static_cast<long>(block_stride<V>(n));
  for (int l = 0; l < 2; ++l)
    f_[l] = signals_ ? pops(shared_fields_.make<V>(world(), 9, stride, own_cells()), stride, 9)
                     : large_view<pops>(fmt::format("swlbm::f{}", l), stride, 9);
  h_ = lattice_field("swlbm::h");
  ux_ = lattice_field("swlbm::u");
  uy_ = lattice_field("swlbm::v");
  fx_ = lattice_field("swlbm::Fx");
  fy_ = lattice_field("swlbm::Fy");
  if (p.collision == Collision::corrected) {
    h_prev_ = field("swlbm::h_prev", n);
    ux_prev_ = field("swlbm::u_prev", n);
    uy_prev_ = field("swlbm::v_prev", n);
  }
  const int len[4] = {p.ny, p.ny, p.nx, p.nx};
  for (int s = 0; s < 4; ++s) {
    border_[s] = typename SwStep<device, V>::border(fmt::format("swlbm::border{}", s), len[s]);
    border_host_[s] = Kokkos::create_mirror_view(border_[s]);
  }
  const Border kinds[4] = {p.left, p.right, p.bottom, p.top};
  for (Border b : kinds)
    borders_move_ = borders_move_ || b == Border::wave ||
                    (b == Border::inflow && (inflow_h_.uses("t") || inflow_u_.uses("t") || inflow_v_.uses("t")));
  if (p.block.split() && !signals_) halo_ = std::make_unique<SwHalo<Exec, V>>(p, world());
  fill_borders(0.0);

  const Expression h0(p.initial_h, p.source + ": key 'initial.h'"), u0(p.initial_u, p.source + ": key 'initial.u'"),
      v0(p.initial_v, p.source + ": key 'initial.v'");
  auto hh = Kokkos::create_mirror_view(h_);
  auto hu = Kokkos::create_mirror_view(ux_);
  auto hv = Kokkos::create_mirror_view(uy_);
  double sum = 0;  // of the initial depths (before their rounding to `real`), over the whole lattice
  const int whole_ny = p.block.split() ? p.block.whole_ny : p.ny;
  for (int jw = 0; jw < whole_ny; ++jw)
    for (int i = 0; i < p.nx; ++i) sum += h0((i + 0.5) * p.dx, (jw + 0.5) * p.dx);
  // Shared rows: this rank's only (the fields are the shared memory itself, host memory).
  const int j_lo = signals_ ? j0_ : 0, j_hi = signals_ ? j0_ + rows_ : p.ny;
  for (int j = j_lo; j < j_hi; ++j)
    for (int i = 0; i < p.nx; ++i) {
      // A block's rows at their place in the whole lattice (a ghost row across a periodic border
      // takes its values when it is filled).
      const double x = (i + 0.5) * p.dx, y = (p.block.origin_y + j + 0.5) * p.dx;
      const int c = j * p.nx + i;
      hh(c) = static_cast<real>(h0(x, y));
      hu(c) = static_cast<real>(u0(x, y));
      hv(c) = static_cast<real>(v0(x, y));
    }
  Kokkos::deep_copy(h_, hh);
  Kokkos::deep_copy(ux_, hu);
  Kokkos::deep_copy(uy_, hv);
  // The reduced formats store deviations from the still-water equilibrium at the mean initial depth;
  // binary16's scale puts that depth between 2^13 and 2^14 (a power of two: scaling is exact), so a
  // deviation of 4 to 8 depths still fits below its largest finite value, 65504; FP16C's between
  // 1/2 and 1, below its largest, 2 (sw_storage.hpp).
  ref_depth_ = sum / (static_cast<double>(p.nx) * whole_ny) > 0 ? sum / (static_cast<double>(p.nx) * whole_ny) : 1.0;
  for (int a = 0; a < 9; ++a) ref_[a] = sw_equilibrium(a, ref_depth_, 0, 0, p.g, p.lattice_speed());
  if constexpr (kShifted16<V>) inv_scale_ = shifted16_inv_scale<V>(ref_depth_);
  // The equilibrium populations of the initial fields.
  SwInitEquilibrium<device, V> k{f_[0], h_, ux_, uy_, p.g, p.lattice_speed()};
  if constexpr (!std::is_same_v<V, double>)
    for (int a = 0; a < 9; ++a) k.ref[a] = static_cast<real>(ref_[a]), k.inv_scale = static_cast<real>(inv_scale_);
  Kokkos::parallel_for("swlbm::init", Kokkos::RangePolicy<Exec>(j_lo * p.nx, j_hi * p.nx), k);
  Exec().fence();
  if (signals_) world().barrier();  // every rank's rows are set before any reads its neighbours'
}

template <class Exec, class V>
SwSolver<Exec, V>::~SwSolver() {
  if (signals_ && std::uncaught_exceptions() == 0) signals_->wait();  // unwinding: the run is being ended anyway
}

template <class Exec, class V>
typename SwSolver<Exec, V>::field SwSolver<Exec, V>::lattice_field(const char* label) {
  const long n = static_cast<long>(p_.nx) * p_.ny;
  if (!signals_) return field(std::string(label), n);
  return field(shared_fields_.make<real>(world(), 1, n, own_cells()), n);
}

template <class Exec, class V>
void SwSolver<Exec, V>::fill_borders(double t) {
  const Border kinds[4] = {p_.left, p_.right, p_.bottom, p_.top};
  const WaveMaker& w = p_.wave;
  const double c = w.speed(p_.g);
  const double pi = 3.14159265358979323846;
  for (int s = 0; s < 4; ++s) {
    if (kinds[s] != Border::inflow && kinds[s] != Border::wave) continue;
    auto& b = border_host_[s];
    for (int k = 0; k < static_cast<int>(b.extent(0)); ++k) {
      // The border face's centre: x = 0 / nx dx on the left / right, y = 0 / ny dx on bottom / top.
      // A block's rows at their place in the whole lattice (only the top block has a top border).
      const double along = ((s == kLeft || s == kRight ? p_.block.origin_y : 0) + k + 0.5) * p_.dx;
      const double x = s == kLeft ? 0.0 : s == kRight ? p_.nx * p_.dx : along;
      const double y = s == kBottom ? 0.0 : s == kTop ? (p_.block.origin_y + p_.ny) * p_.dx : along;
      if (kinds[s] == Border::inflow) {
        b(k, 0) = inflow_h_(x, y, 0, t);
        b(k, 1) = inflow_u_(x, y, 0, t);
        b(k, 2) = inflow_v_(x, y, 0, t);
      } else {
        // The floating paper's eq. 10 at the border; the crest carries the mass flux of a progressive wave, h u = c H,
        // directed into the water.
        const double H = w.A * std::pow(std::abs(std::sin(2 * pi * (x + c * t) / w.L)), w.n);
        const double h = w.depth + H, un = std::abs(c) * H / h;
        const double nxs[4] = {1, -1, 0, 0}, nys[4] = {0, 0, 1, -1};
        b(k, 0) = h;
        b(k, 1) = un * nxs[s];
        b(k, 2) = un * nys[s];
      }
    }
    Kokkos::deep_copy(border_[s], b);
  }
}

template <class Exec, class V>
template <bool Corrected>
void SwSolver<Exec, V>::launch_kernel(int first, int last) {
  if (last <= first) return;
  using Step = SwStep<device, V, Corrected>;
  const double v = p_.lattice_speed();
  Step k{f_[cur_],
         f_[1 - cur_],
         h_,
         ux_,
         uy_,
         fx_,
         fy_,
         border_[0],
         border_[1],
         border_[2],
         border_[3],
         p_.nx,
         p_.ny,
         {static_cast<int>(p_.left), static_cast<int>(p_.right), static_cast<int>(p_.bottom), static_cast<int>(p_.top)},
         p_.g,
         v,
         static_cast<real>(v),
         static_cast<real>(1.0 / p_.tau),
         static_cast<real>(p_.dt / (6.0 * v * v) * v),
         static_cast<real>(p_.g / (6.0 * v * v))};
  if constexpr (!std::is_same_v<V, double>) {
    for (int a = 0; a < 9; ++a) k.ref[a] = static_cast<real>(ref_[a]);
    k.inv_scale = static_cast<real>(inv_scale_);
  }
  if constexpr (Corrected) {
    k.h_prev = h_prev_;
    k.u_prev = ux_prev_;
    k.v_prev = uy_prev_;
    k.visc_dt = static_cast<real>((p_.tau - 0.5) * p_.dt);
    k.gr = static_cast<real>(p_.g);
    k.inv_v2 = static_cast<real>(1.0 / (v * v));
    k.inv_dx = static_cast<real>(1.0 / p_.dx);
  }
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible)
    Kokkos::parallel_for("swlbm::step_rows", Kokkos::RangePolicy<Exec>(first, last), typename Step::Rows{k});
  else
    Kokkos::parallel_for("swlbm::step", Kokkos::RangePolicy<Exec>(first * p_.nx, last * p_.nx), k);
}

template <class Exec, class V>
void SwSolver<Exec, V>::launch_step() {
  {
    auto scope = phases_.scope("borders");
    if (borders_move_) fill_borders(time_);
  }
  const bool corrected = p_.collision == Collision::corrected;
  if (corrected) {
    // The corrected collision's gradients read the previous step's fields while the step writes them.
    auto scope = phases_.scope("water step");
    Kokkos::deep_copy(Exec(), h_prev_, h_);
    Kokkos::deep_copy(Exec(), ux_prev_, ux_);
    Kokkos::deep_copy(Exec(), uy_prev_, uy_);
  }
  // On host spaces a launch runs the kernel; on a device it only queues it (with phase timing on,
  // the scope waits for it).
  auto rows = [&](int first, int last) {
    auto scope = phases_.scope("water step");
    if (corrected)
      launch_kernel<true>(first, last);
    else
      launch_kernel<false>(first, last);
  };
  if (signals_) {
    // Shared rows: the rows between the rims first, then the wait for the neighbours' word that
    // their last step is done (their rims read and write next to this rank's), the rims, and this
    // rank's word. Without block.overlap the wait comes first.
    const int inner0 = j0_ + (p_.block.row_neighbour[0] >= 0 ? 1 : 0),
              inner1 = j0_ + rows_ - (p_.block.row_neighbour[1] >= 0 ? 1 : 0);
    const bool overlap = p_.block.overlap && inner0 < inner1;
    if (overlap) rows(inner0, inner1);
    {
      auto scope = phases_.scope("halo");
      signals_->wait();
    }
    if (overlap) {
      rows(j0_, inner0);
      rows(inner1, j0_ + rows_);
    } else {
      rows(j0_, j0_ + rows_);
    }
    auto scope = phases_.scope("halo");
    signals_->send();
  } else if (!halo_) {
    rows(j0_, j0_ + rows_);
  } else {
    // With block.overlap the exchange travels while the rows that read no ghost row step (in
    // slices, MPI given a moment after each: SwHalo::progress); the rows next to one follow.
    // Without, it ends before any row steps.
    const bool overlap = p_.block.overlap;
    const int inner0 = j0_ + (p_.block.ghost[0] ? 1 : 0), inner1 = j0_ + rows_ - (p_.block.ghost[1] ? 1 : 0);
    {
      auto scope = phases_.scope("halo");
      halo_->begin_fill(f_[cur_]);
      if (corrected) halo_->begin_fill_fields(h_prev_, ux_prev_, uy_prev_);
    }
    constexpr int kSlices = 8;
    for (int s = 0; overlap && s < kSlices; ++s) {
      rows(inner0 + static_cast<long>(inner1 - inner0) * s / kSlices,
           inner0 + static_cast<long>(inner1 - inner0) * (s + 1) / kSlices);
      auto scope = phases_.scope("halo");
      halo_->progress();
    }
    {
      auto scope = phases_.scope("halo");
      halo_->end_fill();
    }
    if (!overlap || inner1 <= inner0) {  // inner1 <= inner0: every own row is next to a ghost row
      rows(j0_, j0_ + rows_);
    } else {
      rows(j0_, inner0);
      rows(inner1, j0_ + rows_);
    }
  }
  cur_ = 1 - cur_;
  time_ += p_.dt;
  ++steps_;
}

template <class Exec, class V>
void SwSolver<Exec, V>::step() {
  launch_step();
}

template <class Exec, class V>
HostFields SwSolver<Exec, V>::own_rows(int first, int last) const {
  HostFields out;
  out.nx = p_.nx;
  out.j0 = first;
  out.ny = std::max(0, last - first);
  out.dx = p_.dx;
  out.time = time_;
  const size_t local = static_cast<size_t>(std::max(0, first - p_.block.origin_y)) * p_.nx;
  const std::pair<size_t, size_t> rows(local, local + static_cast<size_t>(out.ny) * p_.nx);
  // Host copies (the fields themselves on host spaces), widened to double.
  auto to_host = [&](const field& f, std::vector<double>& out) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(f, rows));
    out.assign(host.data(), host.data() + host.extent(0));
  };
  to_host(h_, out.h);
  to_host(ux_, out.u);
  to_host(uy_, out.v);
  return out;
}

template <class Exec, class V>
HostFields SwSolver<Exec, V>::own_fields() const {
  const int first = p_.block.origin_y + j0_;
  return own_rows(first, first + rows_);
}

template <class Exec, class V>
HostFields SwSolver<Exec, V>::fields() const {
  return p_.block.split() ? fields(0, p_.block.whole_ny) : own_fields();
}

template <class Exec, class V>
HostFields SwSolver<Exec, V>::fields(int j_lo, int j_hi) const {
  // This process's rows of [j_lo, j_hi).
  const int own = p_.block.origin_y + j0_;
  const HostFields mine = own_rows(std::max(j_lo, own), std::max(std::max(j_lo, own), std::min(j_hi, own + rows_)));
  if (!p_.block.split()) return mine;
  HostFields out = mine;
  out.j0 = j_lo;
  out.ny = j_hi - j_lo;
  gather_rows(mine.j0, mine.ny, p_.nx, {&mine.h, &mine.u, &mine.v}, j_lo, out.ny, {&out.h, &out.u, &out.v});
  return out;
}

template <class Exec, class V>
FieldStatus SwSolver<Exec, V>::status() const {
  // The own cells [c0, c0 + n); a bad cell's code counts from the whole lattice's first cell.
  const int n = p_.nx * rows_, c0 = p_.nx * j0_;
  const long shift = static_cast<long>(p_.block.origin_y) * p_.nx;  // global index of local cell 0
  auto h = h_;
  auto u = ux_;
  auto w = uy_;
  const double g = p_.g, v = p_.lattice_speed();
  int first_bad = n;
  // 3 c + field (0 h, 1 u, 2 v) of the first cell whose depth is not a positive number or whose
  // velocity is not finite.
  Kokkos::parallel_reduce(
      "swlbm::first_bad", Kokkos::RangePolicy<Exec>(c0, c0 + n),
      KOKKOS_LAMBDA(const int c, int& m) {
        const double hc = h(c), uc = u(c), wc = w(c);
        int code = 3 * n;
        if (!(hc > 0) || !Kokkos::Experimental::isfinite(hc))
          code = 3 * (c - c0);
        else if (!Kokkos::Experimental::isfinite(uc))
          code = 3 * (c - c0) + 1;
        else if (!Kokkos::Experimental::isfinite(wc))
          code = 3 * (c - c0) + 2;
        if (code < m) m = code;
      },
      Kokkos::Min<int>(first_bad));
  FieldStatus s;
  // The whole lattice's first bad cell: the lowest global code of any rank (-1: none).
  double bad = first_bad < 3 * n ? 3.0 * (shift + c0) + first_bad : -1.0;
  if (p_.block.split()) {
    const std::vector<double> all = world().allgather({bad});
    bad = -1;
    for (double b : all)
      if (b >= 0 && (bad < 0 || b < bad)) bad = b;
  }
  if (bad >= 0) {
    static const char* names[3] = {"h", "u", "v"};
    const long code = static_cast<long>(bad);
    s.healthy = false;
    s.field = names[code % 3];
    s.i = static_cast<int>((code / 3) % p_.nx);
    s.j = static_cast<int>((code / 3) / p_.nx);
    return s;
  }
  double min_h = 0, max_speed = 0, max_courant = 0;
  Kokkos::parallel_reduce(
      "swlbm::min_h", Kokkos::RangePolicy<Exec>(c0, c0 + n),
      KOKKOS_LAMBDA(const int c, double& m) {
        const double hc = h(c);
        m = hc < m ? hc : m;
      },
      Kokkos::Min<double>(min_h));
  Kokkos::parallel_reduce(
      "swlbm::max_speed", Kokkos::RangePolicy<Exec>(c0, c0 + n),
      KOKKOS_LAMBDA(const int c, double& m) {
        const double uc = u(c), wc = w(c);
        const double sp = Kokkos::Experimental::sqrt(uc * uc + wc * wc);
        m = sp > m ? sp : m;
      },
      Kokkos::Max<double>(max_speed));
  Kokkos::parallel_reduce(
      "swlbm::max_courant", Kokkos::RangePolicy<Exec>(c0, c0 + n),
      KOKKOS_LAMBDA(const int c, double& m) {
        const double uc = u(c), wc = w(c), hc = h(c);
        const double cr = (Kokkos::Experimental::sqrt(uc * uc + wc * wc) + Kokkos::Experimental::sqrt(g * hc)) / v;
        m = cr > m ? cr : m;
      },
      Kokkos::Max<double>(max_courant));
  if (p_.block.split()) {
    Comm& comm = world();
    min_h = -comm.max(-min_h);
    max_speed = comm.max(max_speed);
    max_courant = comm.max(max_courant);
  }
  s.min_h = min_h;
  s.max_speed = max_speed;
  s.max_lattice_courant = max_courant;
  return s;
}

template <class Exec, class V>
std::vector<double> SwSolver<Exec, V>::own_row_volumes() const {
  auto h = h_;
  const long nx = p_.nx, j0 = j0_;
  const auto rows = ordered_rows<Exec>(
      "swlbm::volume", rows_, KOKKOS_LAMBDA(const long r, double* acc) {
        for (long c = (j0 + r) * nx; c < (j0 + r + 1) * nx; ++c) acc[0] += h(c);
      });
  std::vector<double> out;
  for (const auto& row : rows) out.push_back(row[0]);
  return out;
}

template <class Exec, class V>
double SwSolver<Exec, V>::volume() const {
  // Rows added in order, split among ranks or not: the same bits on every backend, thread count
  // and number of ranks.
  std::vector<double> rows = own_row_volumes();
  if (p_.block.split()) {
    const std::vector<double> mine = rows;
    gather_rows(p_.block.origin_y + j0_, rows_, 1, {&mine}, 0, p_.block.whole_ny, {&rows});
  }
  double sum = 0;
  for (double r : rows) sum += r;
  return sum * p_.dx * p_.dx;
}

template <class Exec, class V>
std::vector<std::pair<std::string, double>> SwSolver<Exec, V>::phase_seconds() const {
  return {phases_.totals_s().begin(), phases_.totals_s().end()};
}

template <class Exec, class V>
void SwSolver<Exec, V>::archive(StateArchive& a) {
  // A block's rows first: a checkpoint of another split is refused, not misread.
  int rows[2] = {p_.block.origin_y + j0_, rows_};
  a.value("swlbm.rows", rows);
  if (rows[0] != p_.block.origin_y + j0_ || rows[1] != rows_)
    throw InputError(fmt::format(
        "{}: the checkpoint holds rows {} to {}, this rank's are {} to {}: resume with the "
        "split it was written with",
        p_.source, rows[0], rows[0] + rows[1] - 1, p_.block.origin_y + j0_, p_.block.origin_y + j0_ + rows_ - 1));
  a.value("swlbm.time", time_);
  a.value("swlbm.steps", steps_);
  a.value("swlbm.buffer", cur_);
  // Shared rows: this rank's rows of each field, between barriers (no rank steps meanwhile; a
  // loaded row is in place before a neighbour reads it).
  if (signals_) world().barrier();
  auto archive_field = [&](const std::string& name, const auto& v, const long blocks) {
    if (signals_)
      archive_own_range(a, name + ".own_rows", v.data(), blocks, static_cast<long>(v.extent(0)), own_cells());
    else
      archive_view(a, name, v);
  };
  for (int l = 0; l < 2; ++l) archive_field(fmt::format("swlbm.f{}", l), f_[l], 9);
  const std::pair<const char*, field> fields[5] = {
      {"swlbm.h", h_}, {"swlbm.u", ux_}, {"swlbm.v", uy_}, {"swlbm.Fx", fx_}, {"swlbm.Fy", fy_}};
  for (const auto& [name, f] : fields) archive_field(name, f, 1);
  if (signals_) world().barrier();
  for (int s = 0; s < 4; ++s) {
    archive_view(a, fmt::format("swlbm.border{}", s), border_[s]);
    if (a.loading()) Kokkos::deep_copy(border_host_[s], border_[s]);
  }
}

}  // namespace immerse::swlbm
