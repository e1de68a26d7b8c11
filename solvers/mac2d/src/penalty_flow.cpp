// Instantiates the penalty solver for every execution space compiled into this build.
#include "immerse/core/backend.hpp"
#include "immerse/mac2d/stability.hpp"
#include "penalty_solver_impl.hpp"

namespace immerse::mac2d {

#define IMMERSE_INSTANTIATE(Exec) template class PenaltySolver<Exec>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<PenaltyFlow> make_penalty_flow(Backend backend, const PenaltyParams& params) {
  check_stability(params);
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<PenaltyFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return std::make_unique<PenaltySolver<Exec>>(params);
  });
}

}  // namespace immerse::mac2d
