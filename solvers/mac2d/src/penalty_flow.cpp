// Instantiates the penalty solver for every execution space compiled into this build.
#include "penalty_solver_impl.hpp"
#include "immerse/mac2d/stability.hpp"

namespace immerse::mac2d {

#if defined(KOKKOS_ENABLE_SERIAL)
template class PenaltySolver<Kokkos::Serial>;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template class PenaltySolver<Kokkos::OpenMP>;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
template class PenaltySolver<Kokkos::Cuda>;
#endif

std::unique_ptr<PenaltyFlow> make_penalty_flow(Backend backend, const PenaltyParams& params) {
  check_stability(params);
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<PenaltyFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return std::make_unique<PenaltySolver<Exec>>(params);
  });
}

}  // namespace immerse::mac2d
