#pragma once
// The shallow-water LBM on one execution space. Owns two population arrays (pull streaming swaps
// them each step), the macroscopic fields and the body force field. The coupling reaches the
// device views directly (depth/velocity to read, force to write) through this class.
#include <Kokkos_Core.hpp>

#include "immerse/core/backend.hpp"
#include "immerse/core/expression.hpp"
#include "immerse/core/timer.hpp"
#include "immerse/swlbm/sw_flow.hpp"
#include "immerse/swlbm/sw_kernels.hpp"

namespace immerse::swlbm {

template <class Exec>
class SwSolver final : public SwFlow {
 public:
  using device = Kokkos::Device<Exec, typename Exec::memory_space>;
  using field = Kokkos::View<double*, device>;
  template <class V>
  using pops = Kokkos::View<V**, Kokkos::LayoutLeft, device>;

  explicit SwSolver(const SwParams& p);

  void step() override;
  // The step's kernel launched without waiting for it: on a device the host is free until the
  // next fence (the floating-body coupling runs Bullet meanwhile; phase timing, which fences every
  // phase, serialises the two); on host spaces it has run.
  void launch_step();
  HostFields fields() const override;
  FieldStatus status() const override;
  double volume() const override;
  double time() const override { return time_; }
  long steps_done() const override { return steps_; }
  void archive(StateArchive& a) override;
  const SwParams& params() const override { return p_; }
  Backend backend() const override { return backend_of<Exec>(); }
  std::vector<std::pair<std::string, double>> phase_seconds() const override;

  // Public only because nvcc rejects extended lambdas in private member functions.
  template <class V>
  void step_with();  // the step on the populations stored as V
  template <class V>
  void init_with();  // equilibrium populations from h_, ux_, uy_
  template <class V>
  pops<V>* buffers();  // the two population arrays of storage V (null arrays unless lattice.storage is V's)

  // Device fields for the coupling: depth and velocity of the latest step, the force F (m^2/s^2)
  // applied in the next step (zero unless written).
  field depth() const { return h_; }
  field velocity_x() const { return ux_; }
  field velocity_y() const { return uy_; }
  field force_x() const { return fx_; }
  field force_y() const { return fy_; }

 private:
  void fill_borders(double t);

  SwParams p_;
  // The populations in the storage lattice.storage picks (the other two pairs stay empty), the shift
  // and scale of the reduced formats (sw_storage.hpp).
  pops<double> f64_[2];
  pops<float> f32_[2];
  pops<std::uint16_t> f16_[2];
  double ref_depth_ = 1, ref_[9] = {}, inv_scale_ = 1;
  int cur_ = 0;
  field h_, ux_, uy_, fx_, fy_;
  typename SwStep<device>::border border_[4];
  typename SwStep<device>::border::HostMirror border_host_[4];
  Expression inflow_h_, inflow_u_, inflow_v_;
  bool borders_move_ = false;
  double time_ = 0;
  long steps_ = 0;
  PhaseTimer phases_;
};

}  // namespace immerse::swlbm
