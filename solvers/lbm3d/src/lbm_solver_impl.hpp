#pragma once
// LbmSolver<Exec, Pop>: the D3Q15 solver on one execution space and population storage (Pop: float,
// double, or std::uint16_t for binary16 with float arithmetic; lbm_storage.hpp). Included once by
// lbm_flow.cpp, which instantiates it for every enabled space and storage.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/core/expression.hpp"
#include "immerse/core/large_view.hpp"
#include "immerse/core/node_shared.hpp"
#include "immerse/core/ordered_sum.hpp"
#include "immerse/core/state_views.hpp"
#include "immerse/core/step_signals.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/lbm3d/lbm_aa_line_kernel.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"
#include "immerse/lbm3d/lbm_halo.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/lbm3d/lbm_line_kernel.hpp"
#include "lbm_own_lines.hpp"

namespace immerse::lbm3d {

// term(c, acc) over the cells of own line r, in x order (LbmSolver::own_row_sums).
template <class Term>
struct OwnRowSum {
  Term term;
  OwnLines own;
  KOKKOS_INLINE_FUNCTION void operator()(const long r, double* acc) const {
    const long row = own.line(r);
    for (long c = row * own.nx; c < (row + 1) * own.nx; ++c) term(c, acc[0]);
  }
};

// The body cells of the ghost lines (every line that is not an own line), src to dst.
template <class Pop, class Device>
struct CopyGhostBodies {
  OwnLines own;
  Kokkos::View<const unsigned char*, Device> group;
  Kokkos::View<const Pop*, Device> src;
  Kokkos::View<Pop*, Device> dst;
  long stride;
  KOKKOS_INLINE_FUNCTION void operator()(const long line) const {
    if (own.owns(line * own.nx)) return;
    for (long c = line * own.nx; c < (line + 1) * own.nx; ++c)
      if (is_body(group(c)))
        for (int q = 0; q < 15; ++q) dst(q * stride + c) = src(q * stride + c);
  }
};

template <class Exec, class Pop>
class LbmSolver final : public LbmFlow {
  using Device = typename Exec::device_type;
  using Real = typename LbmStore<Pop>::real;
  template <class T>
  using View = Kokkos::View<T, Device>;

 public:
  explicit LbmSolver(const LbmParams& p)
      : p_(p), N_(p.cells()), S_(population_stride<Pop>(N_)), aa_(p.pattern == Pattern::aa) {
    f_[0] = lattice_field<Pop>("f0", 15, S_);
    f_[1] = lattice_field<Pop>("f1", aa_ ? 0 : 15, S_);  // the AA pattern works in place in f0
    group_ = lattice_field<unsigned char>("group", 1, N_);
    previous_ = lattice_field<unsigned char>("group_previous", 1, N_);
    ub_ = lattice_field<Real>("ub", 3, N_);
    macro_ = lattice_field<Real>("macro", 4, N_);
    lat_.nx = p.nx;
    lat_.ny = p.ny;
    lat_.nz = p.nz;
    lat_.n = N_;
    lat_.stride = S_;
    for (int face = 0; face < 6; ++face) lat_.border[face] = static_cast<int>(p.border[face]);
    lat_.rho0 = static_cast<Real>(p.rho0);
    lat_.body_rule = static_cast<int>(p.body_boundary);
    for (int q = 0; q < 15; ++q) {
      lat_.rest_feq[q] = static_cast<Real>(D3Q15::w(q) * p.rho0);
      lat_.inlet_feq[q] = D3Q15::feq<Real>(q, p.rho0, p.inlet_velocity[0], p.inlet_velocity[1], p.inlet_velocity[2]);
      lat_.offset[q] = D3Q15::cx(q) + static_cast<long>(p.nx) * (D3Q15::cy(q) + static_cast<long>(p.ny) * D3Q15::cz(q));
      lat_.ref[q] = lat_.rest_feq[q];
    }
    // 16-bit storage: deviations scaled so that rho0 sits between 2^(E-1) and 2^E (lbm_storage.hpp).
    if constexpr (LbmStore<Pop>::kHalf) lat_.inv_scale = static_cast<Real>(shifted16_inv_scale<Pop>(p.rho0));
    lat_.group = group_;
    lat_.ub = ub_;
    streaming_ = have_streaming_stores() && p.streaming_stores;
    h_group_ = Kokkos::create_mirror_view(group_);
    h_ub_ = Kokkos::create_mirror_view(ub_);
    Kokkos::deep_copy(h_group_, group_);
    Kokkos::deep_copy(h_ub_, ub_);
    for (int a = 0; a < 3; ++a) force_[a] = static_cast<Real>(p.force[a]);
    own_.nx = p.nx;
    own_.ny = p.ny;
    if (p.block.shared()) {  // this rank's planes; its rims are those next to another rank's
      own_.j0 = 0;
      own_.nyr = p.ny;
      own_.k0 = p.block.planes[0];
      own_.nzr = p.block.planes[1];
      std::array<bool, 6> next_to_rank = {};
      for (int side = 0; side < 2; ++side) next_to_rank[4 + side] = p.block.plane_neighbour[side] >= 0;
      split_ = split_own(own_, next_to_rank);
      signals_ = std::make_unique<StepSignals>(p.block.plane_neighbour, world());
    } else {
      own_.j0 = p.block.ghost[2] ? 1 : 0;
      own_.nyr = p.ny - own_.j0 - (p.block.ghost[3] ? 1 : 0);
      own_.k0 = p.block.ghost[4] ? 1 : 0;
      own_.nzr = p.nz - own_.k0 - (p.block.ghost[5] ? 1 : 0);
      split_ = split_own(own_, p.block.ghost);
    }
    if (p.block.split()) halo_ = std::make_unique<LbmHalo<Pop, Exec>>(p, S_, world());

    // Initial populations: equilibrium of the initial formulas at every cell centre, taken as a
    // post-collision state (the first step streams it); the AA pattern stores it swapped.
    const Expression rho(p.init_rho, p.source + ": key 'initial.rho'"), ux(p.init_ux, p.source + ": key 'initial.ux'"),
        uy(p.init_uy, p.source + ": key 'initial.uy'"), uz(p.init_uz, p.source + ": key 'initial.uz'");
    auto h = Kokkos::create_mirror_view(f_[0]);
    const int k_lo = signals_ ? own_.k0 : 0, k_hi = signals_ ? own_.k0 + own_.nzr : p.nz;  // shared: own planes
    for (int k = k_lo; k < k_hi; ++k)
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; ++i) {
          const auto& o = p.block.origin;  // formulas take global cell centres
          const double x = o[0] + i + 0.5, y = o[1] + j + 0.5, z = o[2] + k + 0.5;
          const long c = i + static_cast<long>(p.nx) * (j + static_cast<long>(p.ny) * k);
          // u is the physical velocity: the stored momentum is rho u - F/2 (Guo's half-force shift).
          const double r = rho(x, y, z);
          const double u[3] = {ux(x, y, z) - 0.5 * p.force[0] / r, uy(x, y, z) - 0.5 * p.force[1] / r,
                               uz(x, y, z) - 0.5 * p.force[2] / r};
          for (int q = 0; q < 15; ++q)
            h((aa_ ? D3Q15::opposite(q) : q) * S_ + c) = lat_.enc(D3Q15::feq<Real>(q, r, u[0], u[1], u[2]), q);
        }
    if (signals_) {  // host memory, written in place: the second buffer's planes too, then every rank's
      if (!aa_)
        for (int q = 0; q < 15; ++q) {
          const long from = q * S_ + own_.k0 * static_cast<long>(p.nx) * p.ny, n = own_.lines() * p.nx;
          std::copy(f_[0].data() + from, f_[0].data() + from + n, f_[1].data() + from);
        }
      world().barrier();
      return;
    }
    Kokkos::deep_copy(f_[0], h);
    if (!aa_) Kokkos::deep_copy(f_[1], f_[0]);
  }

  ~LbmSolver() override {
    if (std::uncaught_exceptions() == 0) complete_exchange();  // unwinding: the run is being ended anyway
  }

  // A step that reads the ghost layers (the pull step, the AA exchange step) fills them first and,
  // in the AA pattern, gives back what it pushed into them after. With block.overlap the fill
  // travels while the step updates its interior lines (those that read no ghost layer), then the
  // rim lines (next to a ghost layer) follow. The AA give-back travels while the next step, the
  // local one, updates its interior, which reads and writes each cell's own slots only, none of the
  // rim planes the give-back fills; that step's rims follow. Between the two steps it is in flight,
  // and every query (and archive) completes it first (complete_exchange). With bodies, whose
  // groups change between every two steps (set_groups exchanges ghost layers itself), the
  // give-back stays in its step instead: the fill beside the first half of the interior, the
  // give-back beside the second.
  // Ranks that share the populations (LbmBlock::planes) exchange nothing: every step updates the
  // interior first, waits for the neighbours' word that their last step is done (StepSignals),
  // updates the rims and sends its own word. With block.overlap off it waits before the whole update.
  void step() override {
    const bool exchange = halo_ && (!aa_ || swapped_);
    if (signals_) {
      if (p_.block.overlap) {
        timed("collide_stream", [&] {
          update(split_.interior[0]);
          update(split_.interior[1]);
        });
        complete_exchange();
        update_rims();
      } else {
        complete_exchange();
        timed("collide_stream", [&] { update(own_); });
      }
      timed("halo", [&] { signals_->send(); });
    } else if (giving_back_) {
      update_beside_exchange(split_.interior[0]);
      update_beside_exchange(split_.interior[1]);
      complete_exchange();
      update_rims();
    } else if (!exchange) {
      timed("collide_stream", [&] { update(own_); });
    } else if (!p_.block.overlap) {
      timed("halo", [&] { halo_->fill(f_[cur_], aa_, halo_groups()); });
      timed("collide_stream", [&] { update(own_); });
      if (aa_) timed("halo", [&] { halo_->give_back(f_[0], halo_groups()); });
    } else {
      const bool give_back_here = aa_ && bodies_;
      timed("halo", [&] { halo_->begin_fill(f_[cur_], aa_, halo_groups()); });
      update_beside_exchange(split_.interior[0]);
      if (!give_back_here) update_beside_exchange(split_.interior[1]);
      timed("halo", [&] { halo_->end_fill(); });
      update_rims();
      if (aa_) timed("halo", [&] { halo_->begin_give_back(f_[0], halo_groups()); });
      giving_back_ = aa_;
      if (give_back_here) {
        update_beside_exchange(split_.interior[1]);
        complete_exchange();
      }
    }
    if (aa_) {
      swapped_ = !swapped_;
    } else {
      if (halo_ && bodies_) timed("collide_stream", [&] { copy_ghost_bodies(f_[cur_], f_[1 - cur_]); });
      cur_ = 1 - cur_;
    }
    ++steps_;
  }

  void archive(StateArchive& a) override {
    complete_exchange();
    a.value("lbm3d.steps", steps_);
    a.value("lbm3d.swapped", swapped_);
    a.value("lbm3d.bodies", bodies_);  // picks the AA local step's path: a resumed run takes the same
    a.value("lbm3d.buffer", cur_);
    archive_field(a, "lbm3d.f0", f_[0], S_);
    if (!aa_) archive_field(a, "lbm3d.f1", f_[1], S_);
    archive_field(a, "lbm3d.group", group_, N_);
    archive_field(a, "lbm3d.group_previous", previous_, N_);
    archive_field(a, "lbm3d.body_velocity", ub_, N_);
    if (a.loading()) {
      Kokkos::deep_copy(h_group_, group_);
      Kokkos::deep_copy(h_ub_, ub_);
      drop_line_kernels();
    }
  }

  void set_groups(const CellGroups& g) override {
    complete_exchange();
    const auto scope = timer_.scope("groups");
    drop_line_kernels();
    bodies_ = bodies_ || !g.region.empty();
    // Ranks sharing the fields write those of their own cells only, in passes that every rank
    // ends before any starts the next (each pass reads the cells next to those it writes): the
    // groups, then each kernel below over the region's own cells.
    std::vector<int> own_cells;
    if (signals_)
      std::copy_if(g.region.begin(), g.region.end(), std::back_inserter(own_cells),
                   [&](int c) { return own_.owns(c); });
    const std::vector<int>& region = signals_ ? own_cells : g.region;
    const int mine = static_cast<int>(region.size());
    const auto every_rank_done = [&] {
      if (!signals_) return;
      Exec().fence();
      world().barrier();
    };
    // Only the cells of the region can have changed: write those into the host mirrors (on host
    // spaces the mirrors are the device views themselves and the deep copies below are no-ops).
    for (const int c : region) {
      h_group_(c) = g.group[c];
      for (int a = 0; a < 3; ++a) h_ub_(a * N_ + c) = static_cast<Real>(g.ub[a * N_ + c]);
    }
    Kokkos::deep_copy(group_, h_group_);
    Kokkos::deep_copy(ub_, h_ub_);
    every_rank_done();
    if (region_.extent(0) < region.size()) region_ = View<int*>("region", region.size() + region.size() / 2);
    Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> hr(region.data(), region.size());
    Kokkos::deep_copy(Kokkos::subview(region_, std::make_pair<size_t, size_t>(0, region.size())), hr);
    const Kokkos::RangePolicy<Exec> cells(0, mine);
    // The AA pattern's arrived state keeps populations on the links: re-pair those of cells that
    // turn between water and body (AaRelink), reading the slots before ApplyGroups writes them.
    const bool arrived = aa_ && !swapped_;
    AaRelink<Pop, Exec> relink;
    int changed = 0;
    if (arrived) {
      if (halo_) {
        // A link's population can sit only with the rank across the border (pushed reversed into
        // the ghost cell's owner when this side was a body): the ghost cells' crossing slots take
        // the owners' values, read with the old groups, as the exchange step's fill does.
        halo_->fill(f_[0], true, HaloGroups<Exec>(previous_));
      }
      if (relink_cells_.extent(0) < g.region.size()) relink_cells_ = View<int*>("relink_cells", region_.extent(0));
      changed = count_changed<Exec>(region_, mine, previous_, group_, relink_cells_);
      if (relink_target_.extent(0) < 28 * static_cast<size_t>(changed)) {
        relink_value_ = View<Pop*>("relink_value", 28 * static_cast<size_t>(changed));
        relink_target_ = View<long*>("relink_target", 28 * static_cast<size_t>(changed));
      }
      relink = {lat_, relink_cells_, previous_, f_[0], relink_value_, relink_target_};
      Kokkos::parallel_for("lbm3d::aa_relink_gather", Kokkos::RangePolicy<Exec>(0, changed), relink);
      every_rank_done();
    }
    ApplyGroups<Pop, Exec> k;
    k.lat = lat_;
    k.region = region_;
    k.previous = previous_;
    k.f = f_[cur_];
    k.swapped = aa_ && swapped_;
    Kokkos::parallel_for("lbm3d::apply_groups", cells, k);
    every_rank_done();
    k.rim_pass = true;  // C2 averages the C1 populations set just above
    Kokkos::parallel_for("lbm3d::apply_groups_rim", cells, k);
    if (arrived) {
      every_rank_done();
      relink.store = true;
      Kokkos::parallel_for("lbm3d::aa_relink_store", Kokkos::RangePolicy<Exec>(0, changed), relink);
    }
    every_rank_done();
  }

  Macro macro() const override {
    compute_moments();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), macro_);
    auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), group_);
    return host_macro({p_.nx, p_.ny, p_.nz}, {0, 0, 0}, h, [&](long c) { return hg(c); });
  }

  Macro macro(const std::array<int, 3>& lo_in, const std::array<int, 3>& hi_in) const override {
    const int size[3] = {p_.nx, p_.ny, p_.nz};
    int lo[3], hi[3], ext[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::clamp(lo_in[a], 0, size[a]);
      hi[a] = std::clamp(hi_in[a], lo[a], size[a]);
      ext[a] = hi[a] - lo[a];
    }
    const long cells = static_cast<long>(ext[0]) * ext[1] * ext[2];
    if (static_cast<long>(box_.extent(0)) < 5 * cells) {  // grown, never shrunk: reused every step
      box_ = View<Real*>("macro_box", 5 * cells);
      h_box_ = Kokkos::create_mirror_view(box_);
    }
    refresh_ghosts();
    Moments<Pop, Exec> k = moments_kernel();
    const auto box = box_;
    const auto group = group_;
    const long nx = p_.nx, ny = p_.ny;
    const int i0 = lo[0], j0 = lo[1], k0 = lo[2], ex = ext[0], ey = ext[1];
    // One x row of the box per work item: no index divisions per cell (a face of the 80^3 jellyfish
    // lattice, gathered every series row, cost ~40 ns per cell with them).
    Kokkos::parallel_for(
        "lbm3d::moments_box", Kokkos::RangePolicy<Exec>(0, cells / std::max(1, ex)), KOKKOS_LAMBDA(const long r) {
          const int j = j0 + static_cast<int>(r % ey), kk = k0 + static_cast<int>(r / ey);
          const long c0 = nx * (j + ny * kk), b0 = r * ex;
          for (int di = 0; di < ex; ++di) {
            const long c = c0 + i0 + di, b = b0 + di;
            Real v[4];
            k.at(i0 + di, j, kk, c, v);
            for (int a = 0; a < 4; ++a) box(a * cells + b) = v[a];
            box(4 * cells + b) = group(c);
          }
        });
    Kokkos::deep_copy(Kokkos::subview(h_box_, std::make_pair(0L, 5 * cells)),
                      Kokkos::subview(box_, std::make_pair(0L, 5 * cells)));
    return host_macro({ext[0], ext[1], ext[2]}, {lo[0], lo[1], lo[2]}, h_box_,
                      [&](long b) { return static_cast<unsigned char>(h_box_(4 * cells + b)); });
  }

  Macro own_macro() const override {
    if (!split()) return macro();
    const int j0 = own_.j0, k0 = own_.k0;
    Macro m = macro({0, j0, k0}, {p_.nx, j0 + own_.nyr, k0 + own_.nzr});
    for (int a = 0; a < 3; ++a) m.lo[a] += p_.block.origin[a];  // where the block starts in the whole lattice
    return m;
  }

  // A Macro of ext cells starting at lo from host blocks rho, ux, uy, uz of `h` (block length: the
  // cell count) and the groups `group_of(cell)`.
  template <class H, class G>
  static Macro host_macro(const std::array<int, 3>& ext, const std::array<int, 3>& lo, const H& h, G group_of) {
    const long cells = static_cast<long>(ext[0]) * ext[1] * ext[2];
    Macro m;
    m.nx = ext[0];
    m.ny = ext[1];
    m.nz = ext[2];
    for (int a = 0; a < 3; ++a) m.lo[a] = lo[a];
    m.rho.resize(cells);
    m.ux.resize(cells);
    m.uy.resize(cells);
    m.uz.resize(cells);
    m.group.resize(cells);
    for (long c = 0; c < cells; ++c) {
      m.rho[c] = h(c);
      m.ux[c] = h(cells + c);
      m.uy[c] = h(2 * cells + c);
      m.uz[c] = h(3 * cells + c);
      m.group[c] = group_of(c);
    }
    return m;
  }

  std::vector<float> velocity() const override {
    compute_moments();
    auto h =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(macro_, std::make_pair(N_, 4 * N_)));
    std::vector<float> v(3 * N_);
    for (long c = 0; c < 3 * N_; ++c) v[c] = static_cast<float>(h(c));
    return v;
  }

  Health health() const override {
    compute_moments();
    const auto macro = macro_;
    const auto group = group_;
    const long n = N_;
    // First water cell whose moments are not finite or whose equilibrium has a negative population.
    long bad = std::numeric_limits<long>::max();
    double vmax = 0;
    const OwnLines own = own_;
    const bool split = this->split();
    Kokkos::parallel_reduce(
        "lbm3d::health", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const long c, long& first) {
          if (is_body(group(c)) || (split && !own.owns(c))) return;
          const Real r = macro(c), ux = macro(n + c), uy = macro(2 * n + c), uz = macro(3 * n + c);
          const bool ok = r == r && ux == ux && uy == uy && uz == uz && r > 0 && r < Real(1e30) &&
                          equilibria_nonnegative(r, ux, uy, uz, std::make_integer_sequence<int, 15>());
          if (!ok && c < first) first = c;
        },
        Kokkos::Min<long>(bad));
    Kokkos::parallel_reduce(
        "lbm3d::max_speed", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const long c, double& vm) {
          if (is_body(group(c)) || (split && !own.owns(c))) return;
          const double s = static_cast<double>(macro(n + c) * macro(n + c) + macro(2 * n + c) * macro(2 * n + c) +
                                               macro(3 * n + c) * macro(3 * n + c));
          if (s > vm) vm = s;  // NaN compares false: skipped here, reported above
        },
        Kokkos::Max<double>(vmax));
    Health h;
    h.max_speed = std::sqrt(vmax);
    if (bad == std::numeric_limits<long>::max()) return h;
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), macro_);
    h.ok = false;
    const auto& o = p_.block.origin;  // global cell indices
    h.i = o[0] + static_cast<int>(bad % p_.nx);
    h.j = o[1] + static_cast<int>((bad / p_.nx) % p_.ny);
    h.k = o[2] + static_cast<int>(bad / p_.nx / p_.ny);
    h.rho = hm(bad);
    h.speed =
        std::sqrt(hm(n + bad) * hm(n + bad) + hm(2 * n + bad) * hm(2 * n + bad) + hm(3 * n + bad) * hm(3 * n + bad));
    const bool finite = std::isfinite(h.rho) && std::isfinite(h.speed);
    h.what = finite ? "negative equilibrium population" : "populations not finite";
    return h;
  }

  std::vector<double> row_masses() const override {
    complete_exchange();
    const auto f = f_[cur_];
    const auto group = group_;
    const auto lat = lat_;
    const double rho0 = p_.rho0;
    return own_row_sums(
        "lbm3d::mass", KOKKOS_LAMBDA(const long c, double& acc) {
          if (is_body(group(c))) {
            acc += rho0;
            return;
          }
          // A cell's 15 populations added as a tree, then to the row: one dependent add per cell
          // instead of 15 (the sum was a chain of 7.7 M double adds at 80^3, ~2.6 ms per call).
          double p[15];
          for (int q = 0; q < 15; ++q) p[q] = static_cast<double>(lat.load(f(q * lat.stride + c), q));
          acc += ((p[0] + (p[1] + p[2])) + ((p[3] + p[4]) + (p[5] + p[6]))) +
                 (((p[7] + p[8]) + (p[9] + p[10])) + ((p[11] + p[12]) + (p[13] + p[14])));
        });
  }

  std::vector<double> row_kinetic_energies() const override {
    compute_moments();
    const auto macro = macro_;
    const auto group = group_;
    const long n = N_;
    return own_row_sums(
        "lbm3d::kinetic_energy", KOKKOS_LAMBDA(const long c, double& acc) {
          if (is_body(group(c))) return;
          const double rho = macro(c), ux = macro(n + c), uy = macro(2 * n + c), uz = macro(3 * n + c);
          acc += 0.5 * rho * (ux * ux + uy * uy + uz * uz);
        });
  }

  std::vector<double> raw_populations() const override {
    complete_exchange();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f_[cur_]);
    std::vector<double> out;
    out.reserve(15 * own_.lines() * p_.nx);
    for (int q = 0; q < 15; ++q)
      for (long r = 0; r < own_.lines() * p_.nx; ++r) out.push_back(static_cast<double>(h(q * S_ + own_.cell(r))));
    return out;
  }

  long steps_done() const override { return steps_; }
  const LbmParams& params() const override { return p_; }
  Backend backend() const override { return backend_of<Exec>(); }
  std::string precision() const override { return storage_name(p_); }  // make_lbm_flow picks Pop from it
  std::vector<std::pair<std::string, double>> phase_seconds() const override {
    return {timer_.totals_s().begin(), timer_.totals_s().end()};
  }
  double halo_bytes_sent() const override { return halo_ ? static_cast<double>(halo_->bytes_sent()) : 0.0; }

 private:
  // work() as part of phase `phase` (PhaseTimer).
  template <class Work>
  void timed(const char* phase, const Work& work) {
    const auto scope = timer_.scope(phase);
    work();
  }

  // update(box) in slices along z (y where z is one line thick), letting the exchange in flight
  // move on after each: MPI copies a large message only inside its calls.
  void update_beside_exchange(const OwnLines& box) {
    constexpr int kSlices = 8;
    const bool along_z = box.nzr > 1;
    const int n = along_z ? box.nzr : box.nyr, slices = std::min(kSlices, std::max(n, 1));
    for (int s = 0; s < slices; ++s) {
      OwnLines b = box;
      const int lo = n * s / slices, hi = n * (s + 1) / slices;
      (along_z ? b.k0 : b.j0) += lo;
      (along_z ? b.nzr : b.nyr) = hi - lo;
      timed("collide_stream", [&] { update(b); });
      timed("halo", [&] { halo_->progress(); });
    }
  }

  void update_rims() {
    timed("collide_stream", [&] {
      for (int r = 0; r < split_.rims; ++r) update(split_.rim[r]);
    });
  }

  // Ends the give-back of the last exchange step if it is still in flight (step()); where the ranks
  // share the populations, waits for the neighbours' word that their last step is done.
  void complete_exchange() const {
    if (signals_ && signals_->pending()) {
      const auto scope = timer_.scope("halo");
      signals_->wait();
    }
    if (!giving_back_) return;
    const auto scope = timer_.scope("halo");
    halo_->end_give_back();
    giving_back_ = false;
  }

  // The current step's update of the lines of `box`: the pull step from f_[cur_] into the other
  // buffer, or the AA pattern's exchange or local step in place in f_[0] (lbm_aa_kernels.hpp).
  void update(const OwnLines& box) const {
    if (box.lines() == 0) return;
    if (aa_) {
      const char* label = swapped_ ? "lbm3d::aa_exchange" : "lbm3d::aa_local";
      if constexpr (kHostLines) {
        auto& lines = aa_lines_[swapped_];
        if (!lines) lines.emplace(AaLines<Pop, Exec>{AaStep<Pop, Exec>{relaxation(), f_[0], swapped_, bodies_}});
        run_lines(label, LinesAt<AaLines<Pop, Exec>>{&*lines}, box);
      } else {
        run_cells(label, AaStep<Pop, Exec>{relaxation(), f_[0], swapped_, bodies_}, box);
      }
      return;
    }
    CollideStream<Pop, Exec> k = relaxation();
    k.src = f_[cur_];
    k.dst = f_[1 - cur_];
    if constexpr (kHostLines)
      run_lines("lbm3d::collide_stream", CollideStreamLines<Pop, Exec>{k, streaming_}, box);
    else
      run_cells("lbm3d::collide_stream", k, box);
  }

  // The pull step copies every own body cell into the next buffer (CollideStream::cell); the ghost
  // layers' body cells too must be there, where set_groups averages C1 populations into C2 cells
  // (fill brings only the 5 slots that cross each face).
  void copy_ghost_bodies(const View<const Pop*>& src, const View<Pop*>& dst) const {
    Kokkos::parallel_for("lbm3d::copy_ghost_bodies", Kokkos::RangePolicy<Exec>(0, static_cast<long>(p_.ny) * p_.nz),
                         CopyGhostBodies<Pop, Device>{own_, group_, src, dst, S_});
  }

  // The cell groups for the ghost-layer exchange: the groups once a body was set, else none.
  HaloGroups<Exec> halo_groups() const { return bodies_ ? HaloGroups<Exec>(group_) : HaloGroups<Exec>(); }

  // term(c, acc) of every cell of each own x row, added in x order, one row per work item
  // (ordered_rows): the same bits on every backend and thread count, and the rows of a split
  // lattice add up like the whole lattice's.
  template <class Term>
  std::vector<double> own_row_sums(const char* label, const Term& term) const {
    const auto rows = ordered_rows<Exec>(label, own_.lines(), OwnRowSum<Term>{term, own_});
    std::vector<double> out(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) out[r] = rows[r][0];
    return out;
  }

  // The AA step's line kernels were built for other cell groups (set_groups, a loaded archive).
  void drop_line_kernels() {
    if constexpr (kHostLines) aa_lines_[0].reset(), aa_lines_[1].reset();
  }

  // A line kernel over the lines of `box` (every line where the lattice is not split).
  template <class Lines>
  void run_lines(const char* label, const Lines& lines, const OwnLines& box) const {
    if (!split())
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, p_.ny * p_.nz), lines);
    else
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, box.lines()), OwnLinesOf<Lines>{lines, box});
  }
  template <class Cells>
  void run_cells(const char* label, const Cells& cells, const OwnLines& box) const {
    if (!split())
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, N_), cells);
    else
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, box.lines() * p_.nx), OwnCellsOf<Cells>{cells, box});
  }

  // The lattice and the relaxation constants (no buffers).
  CollideStream<Pop, Exec> relaxation() const {
    CollideStream<Pop, Exec> k;
    k.lat = lat_;
    k.omega = static_cast<Real>(1.0 / p_.tau);
    for (int a = 0; a < 3; ++a) k.force[a] = force_[a];
    k.force_pref = static_cast<Real>(1.0 - 0.5 / p_.tau);
    k.forced = force_[0] != 0 || force_[1] != 0 || force_[2] != 0;
    return k;
  }

  Moments<Pop, Exec> moments_kernel() const {
    Moments<Pop, Exec> k;
    k.lat = lat_;
    k.f = f_[cur_];
    k.macro = macro_;
    k.stored = !aa_ ? Stored::kPostCollision : swapped_ ? Stored::kPostCollisionSwapped : Stored::kArrived;
    for (int a = 0; a < 3; ++a) k.force[a] = force_[a];
    return k;
  }

  // The moments of a post-collision state gather from the neighbours: in a block, its ghost layers
  // must hold the neighbours' current populations first (collective: every rank asks at once).
  void refresh_ghosts() const {
    complete_exchange();
    if (halo_ && (!aa_ || swapped_)) halo_->fill(f_[cur_], aa_, halo_groups());
  }

  void compute_moments() const {
    refresh_ghosts();
    if (signals_)  // shared planes: this rank's cells (each rank computes its own)
      run_cells("lbm3d::moments", moments_kernel(), own_);
    else
      Kokkos::parallel_for("lbm3d::moments", Kokkos::RangePolicy<Exec>(0, N_), moments_kernel());
    Exec().fence();
  }

  // A zeroed lattice field of `blocks` blocks of `block` values (cell c of block b at b block + c):
  // large_view, or where the ranks share the lattice (LbmBlock::planes), in memory the node's
  // ranks share (NodeSharedFields; the constructor's barrier ends their zeroing).
  template <class T>
  View<T*> lattice_field(const char* label, const int blocks, const long block) {
    if (!p_.block.shared()) return large_view<View<T*>>(label, blocks * block);
    T* const base = shared_fields_.make<T>(world(), blocks, block, own_planes());
    return Kokkos::View<T*, Device, Kokkos::MemoryUnmanaged>(base, blocks * block);
  }

  // This rank's planes' cells, where the ranks share the lattice.
  OwnRange own_planes() const {
    const long plane = static_cast<long>(p_.nx) * p_.ny;
    return {p_.block.planes[0] * plane, p_.block.planes[1] * plane};
  }

  // A lattice field of blocks of `block` values in a checkpoint: the whole View, or where the ranks
  // share it, this rank's planes of every block (the other ranks write theirs).
  template <class T>
  void archive_field(StateArchive& a, const std::string& name, const View<T*>& v, const long block) const {
    if (!signals_) return archive_view(a, name, v);
    archive_own_range(a, name + ".own_planes", v.data(), static_cast<long>(v.extent(0)) / block, block, own_planes());
  }

  // The lattice is split among ranks: blocks with ghost layers, or shared planes.
  bool split() const { return halo_ || signals_; }

  LbmParams p_;
  long N_;
  long S_;                  // population block stride (population_stride)
  bool streaming_ = false;  // host line kernel stores around the caches (lattice.stores)
  bool aa_ = true;          // lattice.pattern: AA (one buffer, in place) or pull (two buffers)
  bool swapped_ = true;     // AA: the water's post-collision state is stored swapped (next: exchange)
  bool bodies_ = false;     // set_groups has set cell groups: the ghost-layer exchange looks at them
  // Host spaces: the AA pattern's line kernels of the local [0] and the exchange [1] step, built on
  // first use and kept: working out their plans and whole-line forms at every update cost as much
  // as relaxing a dozen lines, four times per step where the update is split around the exchange
  // (block.overlap). They depend on the lattice, which is fixed, and on the cell groups
  // (drop_line_kernels).
  static constexpr bool kHostLines =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;
  mutable std::conditional_t<kHostLines, std::optional<AaLines<Pop, Exec>>, std::monostate> aa_lines_[2];
  View<Pop*> f_[2];
  int cur_ = 0;  // pull: the buffer holding the state (AA: always 0)
  View<unsigned char*> group_, previous_;
  View<Real*> ub_, macro_;
  mutable View<Real*> box_;  // macro(lo, hi): rho, ux, uy, uz, group of the box, reused
  mutable typename View<Real*>::HostMirror h_box_;
  View<int*> region_;
  View<int*> relink_cells_;  // set_groups in the AA pattern's arrived state: AaRelink's cells, values
  View<Pop*> relink_value_;
  View<long*> relink_target_;
  typename View<unsigned char*>::HostMirror h_group_;
  typename View<Real*>::HostMirror h_ub_;
  Lattice<Pop, Device> lat_;
  Real force_[3] = {0, 0, 0};
  long steps_ = 0;
  mutable PhaseTimer timer_;                  // mutable: a query may end the give-back in flight, timed as "halo"
  OwnLines own_;                              // the lines a step updates
  OwnSplit split_;                            // own_ split for the overlapped exchange (block.overlap)
  mutable bool giving_back_ = false;          // the last exchange step's give-back is in flight (step())
  std::unique_ptr<LbmHalo<Pop, Exec>> halo_;  // a block of a split lattice: its ghost-layer exchange
  std::unique_ptr<StepSignals> signals_;      // ranks sharing the lattice: the word that a step is done
  NodeSharedFields shared_fields_;            // ... and the memory of its fields (lattice_field)
};

}  // namespace immerse::lbm3d
