// Instantiates the D3Q15 solver for every execution space compiled into this build, FP32 and FP64.
#include "immerse/core/backend.hpp"
#include "lbm_solver_impl.hpp"

namespace immerse::lbm3d {

#define IMMERSE_INSTANTIATE(Exec)        \
  template class LbmSolver<Exec, float>; \
  template class LbmSolver<Exec, double>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<LbmFlow> make_lbm_flow(Backend backend, const LbmParams& params) {
  check_stability(params);
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<LbmFlow> {
    using Exec = typename decltype(tag)::execution_space;
    if (params.fp64) return std::make_unique<LbmSolver<Exec, double>>(params);
    return std::make_unique<LbmSolver<Exec, float>>(params);
  });
}

}  // namespace immerse::lbm3d
