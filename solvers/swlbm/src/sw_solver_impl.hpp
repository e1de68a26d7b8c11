#pragma once
// Definitions of SwSolver<Exec>; included once by sw_flow.cpp, which instantiates them for every
// enabled execution space.
#include <fmt/format.h>

#include <cmath>
#include <type_traits>

#include "immerse/core/ordered_sum.hpp"
#include "immerse/core/state_views.hpp"
#include "immerse/swlbm/sw_solver.hpp"

namespace immerse::swlbm {

template <class Exec>
SwSolver<Exec>::SwSolver(const SwParams& p)
    : p_(p),
      inflow_h_(p.inflow_h, p.source + ": key 'boundaries.inflow_h'"),
      inflow_u_(p.inflow_u, p.source + ": key 'boundaries.inflow_u'"),
      inflow_v_(p.inflow_v, p.source + ": key 'boundaries.inflow_v'") {
  const int n = p.nx * p.ny;
  for (int l = 0; l < 2; ++l) {
    const std::string name = fmt::format("swlbm::f{}", l);
    if (p.storage == Storage::fp64) f64_[l] = pops<double>(name, n, 9);
    if (p.storage == Storage::fp32) f32_[l] = pops<float>(name, n, 9);
    if (p.storage == Storage::fp16s) f16_[l] = pops<std::uint16_t>(name, n, 9);
  }
  h_ = field("swlbm::h", n);
  ux_ = field("swlbm::u", n);
  uy_ = field("swlbm::v", n);
  fx_ = field("swlbm::Fx", n);
  fy_ = field("swlbm::Fy", n);
  const int len[4] = {p.ny, p.ny, p.nx, p.nx};
  for (int s = 0; s < 4; ++s) {
    border_[s] = typename SwStep<device>::border(fmt::format("swlbm::border{}", s), len[s]);
    border_host_[s] = Kokkos::create_mirror_view(border_[s]);
  }
  const Border kinds[4] = {p.left, p.right, p.bottom, p.top};
  for (Border b : kinds)
    borders_move_ = borders_move_ || b == Border::wave ||
                    (b == Border::inflow && (inflow_h_.uses("t") || inflow_u_.uses("t") || inflow_v_.uses("t")));
  fill_borders(0.0);

  const Expression h0(p.initial_h, p.source + ": key 'initial.h'"), u0(p.initial_u, p.source + ": key 'initial.u'"),
      v0(p.initial_v, p.source + ": key 'initial.v'");
  auto hh = Kokkos::create_mirror_view(h_);
  auto hu = Kokkos::create_mirror_view(ux_);
  auto hv = Kokkos::create_mirror_view(uy_);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i) {
      const double x = (i + 0.5) * p.dx, y = (j + 0.5) * p.dx;
      const int c = j * p.nx + i;
      hh(c) = h0(x, y);
      hu(c) = u0(x, y);
      hv(c) = v0(x, y);
    }
  Kokkos::deep_copy(h_, hh);
  Kokkos::deep_copy(ux_, hu);
  Kokkos::deep_copy(uy_, hv);
  // The reduced formats store deviations from the still-water equilibrium at the mean initial depth;
  // binary16's scale puts that depth between 2^13 and 2^14 (a power of two: scaling is exact), so a
  // deviation of 4 to 8 depths still fits below its largest finite value, 65504.
  double sum = 0;
  for (int c = 0; c < n; ++c) sum += hh(c);
  ref_depth_ = sum / n > 0 ? sum / n : 1.0;
  for (int a = 0; a < 9; ++a) ref_[a] = sw_equilibrium(a, ref_depth_, 0, 0, p.g, p.lattice_speed());
  inv_scale_ = std::ldexp(1.0, std::ilogb(ref_depth_) + 1 - 14);
  if (p.storage == Storage::fp64) init_with<double>();
  if (p.storage == Storage::fp32) init_with<float>();
  if (p.storage == Storage::fp16s) init_with<std::uint16_t>();
  Exec().fence();
}

template <class Exec>
template <class V>
void SwSolver<Exec>::init_with() {
  SwInitEquilibrium<device, V> k{buffers<V>()[0], h_, ux_, uy_, p_.g, p_.lattice_speed()};
  if constexpr (!std::is_same_v<V, double>)
    for (int a = 0; a < 9; ++a) k.ref[a] = static_cast<float>(ref_[a]), k.inv_scale = static_cast<float>(inv_scale_);
  Kokkos::parallel_for("swlbm::init", Kokkos::RangePolicy<Exec>(0, p_.nx * p_.ny), k);
}

template <class Exec>
template <class V>
typename SwSolver<Exec>::template pops<V>* SwSolver<Exec>::buffers() {
  if constexpr (std::is_same_v<V, double>)
    return f64_;
  else if constexpr (std::is_same_v<V, float>)
    return f32_;
  else
    return f16_;
}

template <class Exec>
void SwSolver<Exec>::fill_borders(double t) {
  const Border kinds[4] = {p_.left, p_.right, p_.bottom, p_.top};
  const WaveMaker& w = p_.wave;
  const double c = w.c != 0 ? w.c : std::sqrt(p_.g * w.depth);
  const double pi = 3.14159265358979323846;
  for (int s = 0; s < 4; ++s) {
    if (kinds[s] != Border::inflow && kinds[s] != Border::wave) continue;
    auto& b = border_host_[s];
    for (int k = 0; k < static_cast<int>(b.extent(0)); ++k) {
      // The border face's centre: x = 0 / nx dx on the left / right, y = 0 / ny dx on bottom / top.
      const double along = (k + 0.5) * p_.dx;
      const double x = s == kLeft ? 0.0 : s == kRight ? p_.nx * p_.dx : along;
      const double y = s == kBottom ? 0.0 : s == kTop ? p_.ny * p_.dx : along;
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

template <class Exec>
void SwSolver<Exec>::launch_step() {
  {
    auto scope = phases_.scope("borders");
    if (borders_move_) fill_borders(time_);
  }
  // On host spaces the launch runs the kernel; on a device it only queues it (with phase timing on,
  // the scope waits for it).
  auto scope = phases_.scope("water step");
  if (p_.storage == Storage::fp64) step_with<double>();
  if (p_.storage == Storage::fp32) step_with<float>();
  if (p_.storage == Storage::fp16s) step_with<std::uint16_t>();
  cur_ = 1 - cur_;
  time_ += p_.dt;
  ++steps_;
}

template <class Exec>
template <class V>
void SwSolver<Exec>::step_with() {
  using Step = SwStep<device, V>;
  using R = typename Step::R;
  const double v = p_.lattice_speed();
  auto f = buffers<V>();
  Step k{f[cur_],
         f[1 - cur_],
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
         static_cast<R>(1.0 / p_.tau),
         p_.dt / (6.0 * v * v),
         static_cast<R>(p_.g / (6.0 * v * v))};
  if constexpr (!std::is_same_v<V, double>) {
    for (int a = 0; a < 9; ++a) k.ref[a] = static_cast<R>(ref_[a]);
    k.inv_scale = static_cast<R>(inv_scale_);
  }
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible)
    Kokkos::parallel_for("swlbm::step_rows", Kokkos::RangePolicy<Exec>(0, p_.ny), typename Step::Rows{k});
  else
    Kokkos::parallel_for("swlbm::step", Kokkos::RangePolicy<Exec>(0, p_.nx * p_.ny), k);
}

template <class Exec>
void SwSolver<Exec>::step() {
  launch_step();
}

template <class Exec>
HostFields SwSolver<Exec>::fields() const {
  HostFields out;
  out.nx = p_.nx;
  out.ny = p_.ny;
  out.dx = p_.dx;
  out.time = time_;
  const size_t n = static_cast<size_t>(p_.nx) * p_.ny;
  out.h.resize(n);
  out.u.resize(n);
  out.v.resize(n);
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> hh(out.h.data(), n), hu(out.u.data(), n),
      hv(out.v.data(), n);
  Kokkos::deep_copy(hh, h_);
  Kokkos::deep_copy(hu, ux_);
  Kokkos::deep_copy(hv, uy_);
  return out;
}

template <class Exec>
FieldStatus SwSolver<Exec>::status() const {
  const int n = p_.nx * p_.ny;
  auto h = h_;
  auto u = ux_;
  auto w = uy_;
  const double g = p_.g, v = p_.lattice_speed();
  int first_bad = n;
  // 3 c + field (0 h, 1 u, 2 v) of the first cell whose depth is not a positive number or whose
  // velocity is not finite.
  Kokkos::parallel_reduce(
      "swlbm::first_bad", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const int c, int& m) {
        int code = 3 * n;
        if (!(h(c) > 0) || !Kokkos::Experimental::isfinite(h(c)))
          code = 3 * c;
        else if (!Kokkos::Experimental::isfinite(u(c)))
          code = 3 * c + 1;
        else if (!Kokkos::Experimental::isfinite(w(c)))
          code = 3 * c + 2;
        if (code < m) m = code;
      },
      Kokkos::Min<int>(first_bad));
  FieldStatus s;
  if (first_bad < 3 * n) {
    static const char* names[3] = {"h", "u", "v"};
    s.healthy = false;
    s.field = names[first_bad % 3];
    s.i = (first_bad / 3) % p_.nx;
    s.j = (first_bad / 3) / p_.nx;
    return s;
  }
  double min_h = 0, max_speed = 0, max_courant = 0;
  Kokkos::parallel_reduce(
      "swlbm::min_h", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const int c, double& m) { m = h(c) < m ? h(c) : m; }, Kokkos::Min<double>(min_h));
  Kokkos::parallel_reduce(
      "swlbm::max_speed", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const int c, double& m) {
        const double sp = Kokkos::Experimental::sqrt(u(c) * u(c) + w(c) * w(c));
        m = sp > m ? sp : m;
      },
      Kokkos::Max<double>(max_speed));
  Kokkos::parallel_reduce(
      "swlbm::max_courant", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const int c, double& m) {
        const double cr =
            (Kokkos::Experimental::sqrt(u(c) * u(c) + w(c) * w(c)) + Kokkos::Experimental::sqrt(g * h(c))) / v;
        m = cr > m ? cr : m;
      },
      Kokkos::Max<double>(max_courant));
  s.min_h = min_h;
  s.max_speed = max_speed;
  s.max_lattice_courant = max_courant;
  return s;
}

template <class Exec>
double SwSolver<Exec>::volume() const {
  auto h = h_;
  const long nx = p_.nx;
  // Rows added in order: the same bits on every backend and thread count.
  const double sum = ordered_sum<Exec>(
      "swlbm::volume", p_.ny, KOKKOS_LAMBDA(const long j, double* acc) {
        for (long c = j * nx; c < (j + 1) * nx; ++c) acc[0] += h(c);
      })[0];
  return sum * p_.dx * p_.dx;
}

template <class Exec>
std::vector<std::pair<std::string, double>> SwSolver<Exec>::phase_seconds() const {
  return {phases_.totals_s().begin(), phases_.totals_s().end()};
}

template <class Exec>
void SwSolver<Exec>::archive(StateArchive& a) {
  a.value("swlbm.time", time_);
  a.value("swlbm.steps", steps_);
  a.value("swlbm.buffer", cur_);
  for (int l = 0; l < 2; ++l) {
    const std::string key = fmt::format("swlbm.f{}", l);
    if (p_.storage == Storage::fp64) archive_view(a, key, f64_[l]);
    if (p_.storage == Storage::fp32) archive_view(a, key, f32_[l]);
    if (p_.storage == Storage::fp16s) archive_view(a, key, f16_[l]);
  }
  archive_view(a, "swlbm.h", h_);
  archive_view(a, "swlbm.u", ux_);
  archive_view(a, "swlbm.v", uy_);
  archive_view(a, "swlbm.Fx", fx_);
  archive_view(a, "swlbm.Fy", fy_);
  for (int s = 0; s < 4; ++s) {
    archive_view(a, fmt::format("swlbm.border{}", s), border_[s]);
    if (a.loading()) Kokkos::deep_copy(border_host_[s], border_[s]);
  }
}

}  // namespace immerse::swlbm
