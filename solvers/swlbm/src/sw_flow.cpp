// Instantiates the shallow-water LBM for every execution space compiled into this build and every
// population storage.
#include "immerse/core/backend.hpp"
#include "immerse/core/memory_budget.hpp"
#include "immerse/swlbm/stability.hpp"
#include "sw_solver_impl.hpp"

namespace immerse::swlbm {

#define IMMERSE_INSTANTIATE(Exec)               \
  template class SwSolver<Exec, double>;        \
  template class SwSolver<Exec, float>;         \
  template class SwSolver<Exec, std::uint16_t>; \
  template class SwSolver<Exec, Fp16c>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<SwFlow> make_sw_flow(Backend backend, const SwParams& params) {
  require_sw_memory(backend, params);
  check_stability(params.whole());  // a block's limits are the whole lattice's
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<SwFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return with_storage(params.storage, [&](auto stored) -> std::unique_ptr<SwFlow> {
      return std::make_unique<SwSolver<Exec, decltype(stored)>>(params);
    });
  });
}

}  // namespace immerse::swlbm
