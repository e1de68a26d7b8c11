// FloatSystem on one execution space: the water on the device, forces and Bullet on the host,
// instantiated for every enabled space and water storage (V, the populations' stored type; the
// water's fields are in SwSolver<Exec, V>::real, which the coupling reads and writes as is).
#include "immerse/coupling/float_system.hpp"
#include "immerse/core/backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <type_traits>

#include "immerse/core/error.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/coupling/float_mask.hpp"
#include "immerse/swlbm/stability.hpp"
#include "immerse/swlbm/sw_solver.hpp"

namespace immerse::coupling {
namespace {

template <class Exec, class V>
class FloatSystemImpl final : public FloatSystem {
 public:
  using device = typename swlbm::SwSolver<Exec, V>::device;
  using real = typename swlbm::SwSolver<Exec, V>::real;
  // Host work (per-body forces) runs on the host space matching the backend: serial stays serial.
  using host_exec =
      std::conditional_t<std::is_same<Exec, Kokkos::Serial>::value, Kokkos::Serial, Kokkos::DefaultHostExecutionSpace>;

  FloatSystemImpl(const swlbm::SwParams& wp, std::vector<FloatBodySpec> specs, const FloatCouplingParams& cp)
      : water_(wp), rigid_(cp.forces.g), cp_(cp) {
    const int n = wp.nx * wp.ny;
    views_.mask = Kokkos::View<int*, device>("float::mask", n);
    views_.bodies = Kokkos::View<double* [8], device>("float::bodies", specs.size());
    bodies_host_ = Kokkos::create_mirror_view(views_.bodies);
    Kokkos::deep_copy(views_.mask, -1);  // open water (the water's forces start at zero)
    for (auto& s : specs) {
      FloatBodyRuntime rt;
      rt.mass = bodies::float_mass_model(s.mesh, s.mass, s.centre_of_mass ? &*s.centre_of_mass : nullptr);
      rt.com_in_mesh = rt.mass.centre_of_mass;
      rt.local = s.mesh;
      rt.local.translate(-rt.com_in_mesh);
      bodies::FloatBodyDesc d;
      d.sphere_radius = s.sphere_radius;
      d.hull_points = rt.local.vertices;
      d.mass = s.mass;
      d.inertia = rt.mass.inertia;
      d.orientation = s.orientation;
      d.position = s.position + s.orientation.toRotationMatrix() * rt.com_in_mesh;
      d.velocity = s.velocity;
      rigid_.add_body(d);
      bodies_.push_back(std::move(rt));
    }
    footprints_.resize(bodies_.size());
    Exec().fence();
  }

  void step() override {
    {
      auto scope = phases_.scope("forces");
      compute_forces();
    }
    if (cp_.overlap)
      step_overlapped();
    else
      step_in_turn();
    ++frames_;
  }

  swlbm::SwFlow& water() override { return water_; }
  const swlbm::SwFlow& water() const override { return water_; }
  int body_count() const override { return static_cast<int>(bodies_.size()); }
  bodies::FloatBodyState body_state(int b) const override { return rigid_.state(b); }
  const FloatBodyRuntime& body(int b) const override { return bodies_.at(b); }
  std::vector<FloatExternalLoad>& external_loads() override { return loads_; }
  std::vector<int> mask() const override {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), views_.mask);
    return std::vector<int>(h.data(), h.data() + h.extent(0));
  }
  long frames_done() const override { return frames_; }
  void archive(StateArchive& a) override {
    // A frame starts from the water and the bodies alone (compute_forces): the loads, sections and
    // mask of the last frame are recomputed before they are used.
    water_.archive(a);
    rigid_.archive(a);
    a.value("float.frames", frames_);
  }
  std::vector<std::pair<std::string, double>> phase_seconds() const override {
    return {phases_.totals_s().begin(), phases_.totals_s().end()};
  }

 private:
  // The paper's order: Bullet first, then the water, forced with the bodies' updated velocities.
  void step_in_turn() {
    {
      auto scope = phases_.scope("physics update");
      physics_update();
    }
    {
      auto scope = phases_.scope("wetted section");
      if (cp_.body_to_water) wetted_section(true);
    }
    {
      auto scope = phases_.scope("water step");
      water_.step();
    }
  }

  // Within a frame Bullet needs only the loads of the water at the frame's start, and the water
  // needs only the bodies' sections and velocities at the frame's start (both fixed by
  // compute_forces): the two are independent. On a device the wetted-section and water kernels are
  // queued and Bullet runs on the host meanwhile; "water step" is then the launch plus the wait for
  // the kernels after Bullet, and "physics update" ran alongside it. On host spaces the same
  // arithmetic runs in turn: a second host thread for Bullet was measured slower (its share of the
  // frame is a few per cent, and it contends with the OpenMP team for the two cores), and keeping
  // the order of operations the same keeps every backend's results the same. The price of the
  // overlap: eq. 7 forces the water with the velocities of the frame's start, not the updated ones
  // (a lag of one frame, O(dt) in the forcing velocity).
  void step_overlapped() {
    {
      auto scope = phases_.scope("wetted section");
      if (cp_.body_to_water) wetted_section(false);
    }
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible) {
      {
        auto scope = phases_.scope("water step");
        water_.step();
      }
      auto scope = phases_.scope("physics update");
      physics_update();
    } else {
      auto scope = phases_.scope("water step");
      water_.launch_step();
      const auto t0 = std::chrono::steady_clock::now();
      physics_update();  // while the kernels run
      phases_.add("physics update", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }

  void physics_update() {
    for (int b = 0; b < body_count(); ++b) rigid_.apply(b, bodies_[b].loads.force, bodies_[b].loads.torque);
    for (const auto& l : loads_) {
      const bodies::FloatBodyState s = rigid_.state(l.body);
      const Eigen::Matrix3d R = s.rotation();
      const Eigen::Vector3d F = l.body_frame ? Eigen::Vector3d(R * l.force) : l.force;
      const Eigen::Vector3d r = R * (l.point - bodies_[l.body].com_in_mesh);
      rigid_.apply(l.body, F, r.cross(F));
    }
    rigid_.step(water_.params().dt);
  }

  void compute_forces() {
    // Host view of the water (no copy on host backends); on a lattice split among ranks, the whole
    // lattice's fields gathered (exact: real -> double -> real), so every rank finds the same loads.
    auto h = Kokkos::create_mirror_view(water_.depth());
    auto u = Kokkos::create_mirror_view(water_.velocity_x());
    auto v = Kokkos::create_mirror_view(water_.velocity_y());
    const swlbm::SwParams& p = water_.params();
    int band[2] = {0, 0};  // split: the rows gathered, those under the bodies
    if (p.block.split()) {
      band_of_bodies(band);
      const swlbm::HostFields f = water_.fields(band[0], band[1]);
      band_h_.assign(f.h.begin(), f.h.end());
      band_u_.assign(f.u.begin(), f.u.end());
      band_v_.assign(f.v.begin(), f.v.end());
    } else {
      Kokkos::deep_copy(h, water_.depth());
      Kokkos::deep_copy(u, water_.velocity_x());
      Kokkos::deep_copy(v, water_.velocity_y());
    }
    const FloatWaterOf<real> w =
        p.block.split()
            ? FloatWaterOf<real>{p.nx, p.whole().ny, p.dx, band_h_.data(), band_u_.data(), band_v_.data(), band[0]}
            : FloatWaterOf<real>{p.nx, p.ny, p.dx, h.data(), u.data(), v.data()};
    const int nb = body_count();
    std::vector<bodies::FloatBodyState> states(nb);
    for (int b = 0; b < nb; ++b) states[b] = rigid_.state(b);
    Kokkos::parallel_for("float::forces", Kokkos::RangePolicy<host_exec>(0, nb), [&](const int b) {
      FloatBodyRuntime& rt = bodies_[b];
      footprints_[b].clear();
      rt.loads = float_body_loads(rt.local, states[b], w, cp_.forces, &footprints_[b],
                                  cp_.record_pressure ? &rt.pressure : nullptr);
    });
    host_exec().fence();
    for (int b = 0; b < nb; ++b) {
      const auto& s = states[b];
      const double row[8] = {s.position.x(), s.position.y(),         s.position.z(),         s.velocity.x(),
                             s.velocity.y(), s.angular_velocity.x(), s.angular_velocity.y(), s.angular_velocity.z()};
      for (int k = 0; k < 8; ++k) bodies_host_(b, k) = row[k];
    }
  }

  // The rows [band[0], band[1]) of the whole grid that the bodies' loads sample: the rows of every
  // body's centre of mass +- its farthest vertex, where the sampling clamps them to the grid
  // (FloatWaterOf), and two more on each side (the bilinear sample's second row, and a margin).
  void band_of_bodies(int band[2]) const {
    const swlbm::SwParams& p = water_.params();
    const int whole_ny = p.whole().ny;
    auto row = [&](double y) { return static_cast<int>(float_sample_coord(y, p.dx, whole_ny)); };
    band[0] = whole_ny;
    band[1] = 0;
    for (int b = 0; b < body_count(); ++b) {
      double radius = 0;
      for (const auto& x : bodies_[b].local.vertices) radius = std::max(radius, x.norm());
      const double y = rigid_.state(b).position.y();
      band[0] = std::min(band[0], std::max(0, row(y - radius) - 2));
      band[1] = std::max(band[1], std::min(whole_ny, row(y + radius) + 3));
    }
    band[1] = std::max(band[0], band[1]);
  }

  // updated: the bodies' velocities after Bullet's step move the water (else those of the frame's
  // start, written by compute_forces). The section is always the one found by the forces phase.
  void wetted_section(bool updated) {
    for (int b = 0; updated && b < body_count(); ++b) {
      const auto s = rigid_.state(b);
      bodies_host_(b, 3) = s.velocity.x();
      bodies_host_(b, 4) = s.velocity.y();
      bodies_host_(b, 5) = s.angular_velocity.x();
      bodies_host_(b, 6) = s.angular_velocity.y();
      bodies_host_(b, 7) = s.angular_velocity.z();
    }
    Kokkos::deep_copy(views_.bodies, bodies_host_);
    size_t total = 0;
    for (const auto& f : footprints_) total += f.size();
    if (views_.tris.extent(0) < total) {
      views_.tris = Kokkos::View<double* [6], device>("float::tris", total + total / 2 + 16);
      views_.tri_body = Kokkos::View<int*, device>("float::tri_body", views_.tris.extent(0));
      tris_host_ = Kokkos::create_mirror_view(views_.tris);
      tri_body_host_ = Kokkos::create_mirror_view(views_.tri_body);
    }
    size_t k = 0;
    for (int b = 0; b < body_count(); ++b)
      for (const auto& t : footprints_[b]) {
        for (int q = 0; q < 6; ++q) tris_host_(k, q) = t[q];
        tri_body_host_(k++) = b;
      }
    Kokkos::deep_copy(views_.tris, tris_host_);
    Kokkos::deep_copy(views_.tri_body, tri_body_host_);
    // The rows this process updates get forces; their masks and those of the rows beside them
    // (the forcing's normals read the neighbours) are cleared. Rasterising may mark other rows of
    // a shared lattice too, which nothing here reads.
    const swlbm::SwParams& p = water_.params();
    const int own0 = water_.own_first_row() * p.nx, own1 = own0 + water_.own_row_count() * p.nx;
    Kokkos::parallel_for("float::clear",
                         Kokkos::RangePolicy<Exec>(std::max(0, own0 - p.nx), std::min(p.nx * p.ny, own1 + p.nx)),
                         FloatClearMask<device, real>{views_.mask, water_.force_x(), water_.force_y(), own0, own1});
    const FloatRows rows{p.block.origin_y, p.whole().ny};
    Kokkos::parallel_for("float::rasterise", Kokkos::RangePolicy<Exec>(0, static_cast<int>(total)),
                         FloatRasterise<device>{views_, p.nx, p.ny, p.dx, rows});
    Kokkos::parallel_for(
        "float::forcing", Kokkos::RangePolicy<Exec>(own0, own1),
        FloatForcing<device, real>{views_, water_.depth(), water_.velocity_x(), water_.velocity_y(), water_.force_x(),
                                   water_.force_y(), p.nx, p.ny, p.dx, p.dt, cp_.k_plus, cp_.k_minus, rows});
  }

  swlbm::SwSolver<Exec, V> water_;
  std::vector<real> band_h_, band_u_, band_v_;  // split among ranks: the rows under the bodies, gathered
  bodies::FloatRigidWorld rigid_;
  FloatCouplingParams cp_;
  std::vector<FloatBodyRuntime> bodies_;
  std::vector<std::vector<FloatFootprintTriangle>> footprints_;
  std::vector<FloatExternalLoad> loads_;
  FloatMaskViews<device> views_;
  typename Kokkos::View<double* [8], device>::HostMirror bodies_host_;
  typename Kokkos::View<double* [6], device>::HostMirror tris_host_;
  typename Kokkos::View<int*, device>::HostMirror tri_body_host_;
  long frames_ = 0;
  PhaseTimer phases_;
};

}  // namespace

std::unique_ptr<FloatSystem> make_float_system(Backend backend, const swlbm::SwParams& water,
                                               std::vector<FloatBodySpec> bodies, const FloatCouplingParams& coupling) {
  swlbm::require_sw_memory(backend, water);
  swlbm::check_stability(water.whole());  // a block's limits are the whole lattice's
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<FloatSystem> {
    using Exec = typename decltype(tag)::execution_space;
    return swlbm::with_storage(water.storage, [&](auto stored) -> std::unique_ptr<FloatSystem> {
      return std::make_unique<FloatSystemImpl<Exec, decltype(stored)>>(water, std::move(bodies), coupling);
    });
  });
}

Eigen::Vector3d float_world_point(const FloatSystem& s, int b, const Eigen::Vector3d& mesh_point) {
  const bodies::FloatBodyState st = s.body_state(b);
  return st.rotation() * (mesh_point - s.body(b).com_in_mesh) + st.position;
}

}  // namespace immerse::coupling
