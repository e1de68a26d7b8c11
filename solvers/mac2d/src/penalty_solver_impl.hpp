#pragma once
// Definitions of PenaltySolver<Exec>; included once by penalty_flow.cpp, which instantiates them
// for every enabled execution space.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "immerse/core/backend.hpp"
#include "immerse/core/block_stride.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/large_view.hpp"
#include "immerse/core/state_views.hpp"
#include "immerse/mac2d/penalty_solver.hpp"
#include "immerse/mac2d/stability.hpp"

namespace immerse::mac2d {

template <class Exec>
PenaltySolver<Exec>::PenaltySolver(const PenaltyParams& p)
    : p_(p), inflow_expr_(p.inflow_u, p.source + ": key 'boundaries.inflow_u'") {
  g_ = Grid2<device>{p.nx, p.ny, p.nx + 2, p.dx, p.dy};
  const size_t n = static_cast<size_t>(p.nx + 2) * (p.ny + 2);
  // The fields a step streams together, in one allocation block_stride apart (block_stride.hpp).
  const size_t stride = static_cast<size_t>(block_stride<double>(static_cast<long>(n)));
  const view fields = large_view<view>("penalty_fields", 8 * stride);
  auto field = [&](size_t q) { return view(Kokkos::subview(fields, std::make_pair(q * stride, q * stride + n))); };
  for (int l = 0; l < 2; ++l) {
    u_[l] = field(3 * l);
    v_[l] = field(3 * l + 1);
    pres_[l] = field(3 * l + 2);
  }
  solid_u_ = field(6);
  solid_v_ = field(7);
  inflow_ = view("inflow", p.ny + 2);
  solid_ = Kokkos::View<unsigned char*, device>("solid", n);
  inflow_depends_on_t_ = inflow_expr_.uses("t");

  // Initial velocities from formulas at the face positions (level 0). The patent's second level
  // starts at zero (its time-1 printout shows the new level's inflow face still 0).
  Expression u0(p.initial_u, p.source + ": key 'initial.u'"), v0(p.initial_v, p.source + ": key 'initial.v'");
  auto hu = Kokkos::create_mirror_view(u_[0]);
  auto hv = Kokkos::create_mirror_view(v_[0]);
  for (int j = 0; j < p.ny + 2; ++j)
    for (int i = 0; i < p.nx + 2; ++i) {
      hu(g_.at(i, j)) = u0(i * p.dx, (j - 0.5) * p.dy);
      hv(g_.at(i, j)) = v0((i - 0.5) * p.dx, j * p.dy);
    }
  fill_inflow(0.0);
  if (p.mode == BoundaryMode::patent) {
    // initFluid: the inflow column holds the raw profile.
    auto hin = Kokkos::create_mirror_view(inflow_);
    Kokkos::deep_copy(hin, inflow_);
    for (int j = 0; j < p.ny + 2; ++j) hu(g_.at(0, j)) = hin(j);
  }
  Kokkos::deep_copy(u_[0], hu);
  Kokkos::deep_copy(v_[0], hv);

  for (size_t k = 0; k < p.obstacles.size(); ++k) {
    const auto& o = p.obstacles[k];
    ox_.emplace_back(o.x, fmt::format("{}: key 'obstacles.{}.x'", p.source, k));
    oy_.emplace_back(o.y, fmt::format("{}: key 'obstacles.{}.y'", p.source, k));
  }
  shapes_ = Kokkos::View<ObstacleState*, device>("shapes", p.obstacles.size());
  // Static posts and islands are rasterised once; only paths that depend on t are redone each step.
  for (size_t k = 0; k < ox_.size(); ++k) obstacles_move_ = obstacles_move_ || ox_[k].uses("t") || oy_[k].uses("t");
  for (size_t k = 0; k < p.dyes.size(); ++k) {
    dye_.emplace_back(fmt::format("dye{}", k), n);
    dye_next_.emplace_back(fmt::format("dye{}_next", k), n);
    // The source disc holds concentration 1 from the start, not only from the first transport step.
    const DyeSpec& d = p.dyes[k];
    auto h = Kokkos::create_mirror_view(dye_.back());
    for (int j = 0; j < p.ny + 2; ++j)
      for (int i = 0; i < p.nx + 2; ++i) {
        const double x = (i - 0.5) * p.dx - d.x, y = (j - 0.5) * p.dy - d.y;
        h(g_.at(i, j)) = x * x + y * y <= d.radius * d.radius ? 1.0 : 0.0;
      }
    Kokkos::deep_copy(dye_.back(), h);
  }
  if (!p.streak_seeds.empty()) {
    particles_ = Kokkos::View<double* [2], device>("particles", p.streak_capacity);
    Kokkos::deep_copy(particles_, kDeadParticle);
    seeds_ = Kokkos::View<double* [2], device>("seeds", p.streak_seeds.size());
    auto hs = Kokkos::create_mirror_view(seeds_);
    for (size_t s = 0; s < p.streak_seeds.size(); ++s) {
      hs(s, 0) = p.streak_seeds[s].first;
      hs(s, 1) = p.streak_seeds[s].second;
    }
    Kokkos::deep_copy(seeds_, hs);
    particle_seed_.assign(p.streak_capacity, -1);
    particle_birth_.assign(p.streak_capacity, -1);
  }
  update_obstacles(0.0);
  if (p.mode == BoundaryMode::physical) apply_boundaries(0);
  // Transport sub-cycling: a Courant number of at most 0.25 at the case's velocity scale.
  // Capped at 1e6 steps: a case that prescribes no speed at all would otherwise overflow the int.
  const double U = std::max(effective_velocity_scale(p), 1e-12);
  transport_every_ = p.transport_every > 0
                         ? p.transport_every
                         : static_cast<int>(std::clamp(0.25 * std::min(p.dx, p.dy) / (U * p.dt), 1.0, 1e6));
}

template <class Exec>
Backend PenaltySolver<Exec>::backend() const {
  return backend_of<Exec>();
}

template <class Exec>
template <class F>
void PenaltySolver<Exec>::timed(const char* phase, F&& f) {
  const auto scope = phases_.scope(phase);
  f();
}

template <class Exec>
void PenaltySolver<Exec>::fill_inflow(double t) {
  auto h = Kokkos::create_mirror_view(inflow_);
  for (int j = 0; j < p_.ny + 2; ++j) h(j) = inflow_expr_(0.0, (j - 0.5) * p_.dy, 0.0, t);
  Kokkos::deep_copy(inflow_, h);
}

template <class Exec>
void PenaltySolver<Exec>::apply_boundaries(int level) {
  ApplyBoundaries<device> bc{g_,
                             u_[level],
                             v_[level],
                             inflow_,
                             p_.mode == BoundaryMode::patent,
                             static_cast<int>(p_.left),
                             static_cast<int>(p_.right),
                             static_cast<int>(p_.bottom),
                             static_cast<int>(p_.top),
                             p_.bottom_wall_u,
                             p_.top_wall_u,
                             false};
  Kokkos::parallel_for("mac2d::boundary_columns", Kokkos::RangePolicy<Exec>(0, p_.ny + 2), bc);
  if (p_.mode == BoundaryMode::patent) return;
  bc.rows = true;
  Kokkos::parallel_for("mac2d::boundary_rows", Kokkos::RangePolicy<Exec>(0, p_.nx + 2), bc);
}

template <class Exec>
void PenaltySolver<Exec>::update_obstacles(double t) {
  if (p_.obstacles.empty()) return;
  auto h = Kokkos::create_mirror_view(shapes_);
  const double dt = p_.dt;
  for (size_t k = 0; k < p_.obstacles.size(); ++k) {
    const auto& o = p_.obstacles[k];
    const double th = o.angle_deg * M_PI / 180.0;
    const double tm = std::max(0.0, t - 0.5 * dt), tp = t + 0.5 * dt;  // velocity by central difference
    h(k) = ObstacleState{o.shape,
                         ox_[k](0, 0, 0, t),
                         oy_[k](0, 0, 0, t),
                         o.a,
                         o.shape == ObstacleShape::circle ? o.a : o.b,
                         std::cos(th),
                         std::sin(th),
                         (ox_[k](0, 0, 0, tp) - ox_[k](0, 0, 0, tm)) / (tp - tm),
                         (oy_[k](0, 0, 0, tp) - oy_[k](0, 0, 0, tm)) / (tp - tm)};
  }
  Kokkos::deep_copy(shapes_, h);
  RasteriseObstacles<device> r{g_, shapes_, solid_, solid_u_, solid_v_};
  Kokkos::parallel_for("mac2d::obstacles", Kokkos::TeamPolicy<Exec>(p_.ny + 2, Kokkos::AUTO), r);
}

template <class Exec>
void PenaltySolver<Exec>::release_particles() {
  const int ns = static_cast<int>(p_.streak_seeds.size()), cap = p_.streak_capacity, first = next_slot_;
  ReleaseParticles<device> r{particles_, seeds_, first, cap};
  Kokkos::parallel_for("mac2d::release", Kokkos::RangePolicy<Exec>(0, ns), r);
  for (int s = 0; s < ns; ++s) {
    particle_seed_[(first + s) % cap] = s;
    particle_birth_[(first + s) % cap] = static_cast<int>(steps_);
  }
  next_slot_ = (first + ns) % cap;
}

template <class Exec>
void PenaltySolver<Exec>::step() {
  const int old = cur_, nxt = 1 - cur_;
  const bool patent = p_.mode == BoundaryMode::patent;
  // The patent writes its boundary into the old level before computing (calcExtBoundary(kk));
  // the physical mode keeps every level boundary-consistent: it sets the new level's boundary
  // values for the new time right after the update.
  if (patent)
    timed("boundaries", [&] {
      if (inflow_depends_on_t_) fill_inflow(time_);
      apply_boundaries(old);
    });
  if (obstacles_move_) timed("obstacles", [&] { update_obstacles(time_ + p_.dt); });
  timed("pressure+velocity", [&] {
    PenaltyStep<device> k;
    k.g = g_;
    k.set_spacing();
    k.u = u_[old];
    k.v = v_[old];
    k.un = u_[nxt];
    k.vn = v_[nxt];
    k.pn = pres_[nxt];
    k.solid = solid_;
    k.solid_u = solid_u_;
    k.solid_v = solid_v_;
    k.dt = p_.dt;
    k.inv_re = 1.0 / p_.Re;
    k.inv_eps = 1.0 / p_.eps;
    k.u_i_end = (patent || p_.right == Side::outflow) ? p_.nx : p_.nx - 1;
    k.v_j_end = patent ? p_.ny : p_.ny - 1;
    k.full_advection = !patent;
    k.has_obstacles = !p_.obstacles.empty();
    Kokkos::parallel_for("mac2d::penalty_step", Kokkos::TeamPolicy<Exec>(p_.ny, Kokkos::AUTO), k);
  });
  if (!patent)
    timed("boundaries", [&] {
      if (inflow_depends_on_t_) fill_inflow(time_ + p_.dt);
      apply_boundaries(nxt);
    });
  time_ += p_.dt;
  ++steps_;
  cur_ = nxt;
  // Dyes and particles are carried every transport_every_ steps with that many dt: both schemes are
  // stable for a Courant number below 1, which the penalty scheme's tiny dt leaves far away.
  const bool transport = steps_ % transport_every_ == 0;
  const double dt_transport = transport_every_ * p_.dt;
  if (!dye_.empty() && transport)
    timed("dyes", [&] {
      StaggeredSampler<device> vel{g_, u_[cur_], v_[cur_]};
      for (size_t d = 0; d < dye_.size(); ++d) {
        const auto& s = p_.dyes[d];
        AdvectDye<device> a{vel, dye_[d],  dye_next_[d],         solid_, dt_transport, s.x,
                            s.y, s.radius, !p_.obstacles.empty()};
        Kokkos::parallel_for("mac2d::dye", Kokkos::RangePolicy<Exec>(0, p_.nx * p_.ny), a);
        std::swap(dye_[d], dye_next_[d]);
      }
    });
  if (!p_.streak_seeds.empty())
    timed("streaklines", [&] {
      if (transport) {
        StaggeredSampler<device> vel{g_, u_[cur_], v_[cur_]};
        AdvectParticles<device> a{vel, particles_, dt_transport};
        Kokkos::parallel_for("mac2d::particles", Kokkos::RangePolicy<Exec>(0, p_.streak_capacity), a);
      }
      if (steps_ % p_.streak_release_every == 0) release_particles();
    });
}

template <class Exec>
HostFields PenaltySolver<Exec>::fields(bool previous_level) const {
  const int level = previous_level ? 1 - cur_ : cur_;
  HostFields h;
  h.nx = p_.nx;
  h.ny = p_.ny;
  h.dx = p_.dx;
  h.dy = p_.dy;
  h.time = time_;
  auto copy = [](const auto& v) {
    auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    return std::vector<typename std::remove_const<typename decltype(m)::value_type>::type>(m.data(),
                                                                                           m.data() + m.size());
  };
  h.u = copy(u_[level]);
  h.v = copy(v_[level]);
  h.p = copy(pres_[level]);
  h.solid = copy(solid_);
  for (const auto& d : dye_) h.dyes.push_back(copy(d));
  return h;
}

template <class Exec>
Streaklines PenaltySolver<Exec>::streaklines() const {
  Streaklines s;
  if (p_.streak_seeds.empty()) return s;
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), particles_);
  for (int k = 0; k < p_.streak_capacity; ++k) {
    if (h(k, 0) >= kDeadParticle || particle_seed_[k] < 0) continue;
    s.position.push_back({h(k, 0), h(k, 1)});
    s.seed.push_back(particle_seed_[k]);
    s.birth.push_back(particle_birth_[k]);
  }
  return s;
}

template <class Exec>
FieldStatus PenaltySolver<Exec>::status() const {
  FieldStatusReduce<device> r{g_, u_[cur_], v_[cur_], pres_[cur_]};
  typename FieldStatusReduce<device>::value_type out;
  Kokkos::parallel_reduce("mac2d::status", Kokkos::RangePolicy<Exec>(0, p_.nx * p_.ny), r, out);
  FieldStatus s;
  s.max_speed = out.max_speed;
  if (out.first_bad != 2147483647) {
    static const char* names[3] = {"u", "v", "p"};
    const int k = out.first_bad / 3;
    s.finite = false;
    s.field = names[out.first_bad % 3];
    s.i = k % (p_.nx + 2);
    s.j = k / (p_.nx + 2);
  }
  return s;
}

template <class Exec>
std::vector<std::pair<std::string, double>> PenaltySolver<Exec>::phase_seconds() const {
  return {phases_.totals_s().begin(), phases_.totals_s().end()};
}

template <class Exec>
void PenaltySolver<Exec>::archive(StateArchive& a) {
  a.value("penalty.time", time_);
  a.value("penalty.steps", steps_);
  a.value("penalty.level", cur_);
  for (int l = 0; l < 2; ++l) {
    archive_view(a, fmt::format("penalty.u{}", l), u_[l]);
    archive_view(a, fmt::format("penalty.v{}", l), v_[l]);
    archive_view(a, fmt::format("penalty.p{}", l), pres_[l]);
  }
  archive_view(a, "penalty.inflow", inflow_);
  archive_view(a, "penalty.solid", solid_);
  archive_view(a, "penalty.solid_u", solid_u_);
  archive_view(a, "penalty.solid_v", solid_v_);
  archive_view(a, "penalty.shapes", shapes_);
  for (size_t k = 0; k < dye_.size(); ++k) archive_view(a, fmt::format("penalty.dye{}", k), dye_[k]);
  if (particles_.extent(0) > 0) {
    archive_view(a, "penalty.particles", particles_);
    a.vector("penalty.particle_seed", particle_seed_);
    a.vector("penalty.particle_birth", particle_birth_);
    a.value("penalty.next_slot", next_slot_);
  }
}

}  // namespace immerse::mac2d
