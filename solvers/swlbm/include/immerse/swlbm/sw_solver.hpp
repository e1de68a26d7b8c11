#pragma once
// The shallow-water LBM on one execution space, with its populations stored as V (lattice.storage:
// double for fp64, float for fp32, binary16 bits for fp16s; sw_storage.hpp). Owns two population
// arrays (pull streaming swaps them each step), the macroscopic fields and the body force field, in
// the storage's arithmetic type (double for fp64, float for fp32 and fp16s). The coupling reaches
// the device views directly (depth/velocity to read, force to write) through this class.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/core/expression.hpp"
#include "immerse/core/node_shared.hpp"
#include "immerse/core/step_signals.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/swlbm/sw_flow.hpp"
#include "immerse/swlbm/sw_halo.hpp"
#include "immerse/swlbm/sw_kernels.hpp"

namespace immerse::swlbm {

// Calls f(V{}) with the stored value type of storage s: double, float, std::uint16_t or Fp16c.
template <class F>
decltype(auto) with_storage(Storage s, F&& f) {
  switch (s) {
    case Storage::fp32:
      return f(float{});
    case Storage::fp16s:
      return f(std::uint16_t{});
    case Storage::fp16c:
      return f(Fp16c{});
    default:
      return f(double{});
  }
}

template <class V>
constexpr Storage storage_of() {
  return std::is_same_v<V, double>          ? Storage::fp64
         : std::is_same_v<V, float>         ? Storage::fp32
         : std::is_same_v<V, std::uint16_t> ? Storage::fp16s
                                            : Storage::fp16c;
}

template <class Exec, class V = double>
class SwSolver final : public SwFlow {
 public:
  using device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using real = typename SwStore<V>::real;  // arithmetic, and the fields' type
  using field = Kokkos::View<real*, device>;
  using pops = Kokkos::View<V**, Kokkos::LayoutLeft, device>;

  // p.storage must be V's (make_sw_flow and make_float_system pick V from it). A block of a lattice
  // split among ranks (p.block) steps its own rows; fields(), status() and volume() answer for the
  // whole lattice on every rank (collective), the same numbers as one process.
  explicit SwSolver(const SwParams& p);
  ~SwSolver() override;

  void step() override;
  // The step's kernel launched without waiting for it: on a device the host is free until the
  // next fence (the floating-body coupling runs Bullet meanwhile; phase timing, which fences every
  // phase, serialises the two); on host spaces it has run.
  void launch_step();
  HostFields fields() const override;
  HostFields fields(int j_lo, int j_hi) const override;
  HostFields own_fields() const override;
  FieldStatus status() const override;
  double volume() const override;
  double time() const override { return time_; }
  long steps_done() const override { return steps_; }
  void archive(StateArchive& a) override;
  const SwParams& params() const override { return p_; }
  Backend backend() const override { return backend_of<Exec>(); }
  std::vector<std::pair<std::string, double>> phase_seconds() const override;
  double halo_bytes_sent() const override { return halo_ ? static_cast<double>(halo_->bytes_sent()) : 0.0; }

  // Device fields for the coupling, in `real`: depth and velocity of the latest step, the force F
  // (m^2/s^2) applied in the next step (zero unless written).
  field depth() const { return h_; }
  field velocity_x() const { return ux_; }
  field velocity_y() const { return uy_; }
  field force_x() const { return fx_; }
  field force_y() const { return fy_; }
  // Sum of h over each row this process updates, in x order; the rows in order (volume()).
  std::vector<double> own_row_volumes() const;
  // The local rows this process updates: [first, first + count).
  int own_first_row() const { return j0_; }
  int own_row_count() const { return rows_; }

 private:
  void fill_borders(double t);
  // The step's kernel for physics.collision bgk (false) or corrected (true), over rows [first, last).
  template <bool Corrected>
  void launch_kernel(int first, int last);
  // Host copies of the fields of whole-lattice rows [first, last), all of them this process's own.
  HostFields own_rows(int first, int last) const;
  // This rank's cells: its rows of the local lattice.
  OwnRange own_cells() const { return {static_cast<long>(j0_) * p_.nx, static_cast<long>(rows_) * p_.nx}; }
  // A field of the lattice's cells, in memory the node's ranks share where they share rows
  // (NodeSharedFields, this rank's rows zeroed: the constructor's barrier ends that).
  field lattice_field(const char* label);

  SwParams p_;
  // The populations, the shift and scale of the reduced formats (sw_storage.hpp).
  pops f_[2];
  double ref_depth_ = 1, ref_[9] = {}, inv_scale_ = 1;
  int cur_ = 0;
  field h_, ux_, uy_, fx_, fy_;
  field h_prev_, ux_prev_, uy_prev_;  // physics.collision = corrected: the fields the step starts from
  typename SwStep<device, V>::border border_[4];
  typename SwStep<device, V>::border::HostMirror border_host_[4];
  Expression inflow_h_, inflow_u_, inflow_v_;
  bool borders_move_ = false;
  double time_ = 0;
  long steps_ = 0;
  PhaseTimer phases_;
  int j0_ = 0, rows_ = 0;                  // the own rows: [j0_, j0_ + rows_)
  std::unique_ptr<SwHalo<Exec, V>> halo_;  // a block of a split lattice: its ghost-row exchange
  std::unique_ptr<StepSignals> signals_;   // shared rows: the word that a step is done
  NodeSharedFields shared_fields_;         // ... and the memory of the fields (lattice_field)
};

}  // namespace immerse::swlbm
