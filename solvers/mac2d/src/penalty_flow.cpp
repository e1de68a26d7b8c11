// Instantiates the penalty solver for every execution space compiled into this build.
#include <fmt/format.h>

#include "immerse/core/backend.hpp"
#include "immerse/core/memory_budget.hpp"
#include "immerse/mac2d/stability.hpp"
#include "penalty_solver_impl.hpp"

namespace immerse::mac2d {

#define IMMERSE_INSTANTIATE(Exec) template class PenaltySolver<Exec>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<PenaltyFlow> make_penalty_flow(Backend backend, const PenaltyParams& params) {
  // Two time levels of u, v, p, the solid velocity and the solid flag per cell (ghosts included).
  const double cells = double(params.nx + 2) * (params.ny + 2);
  require_memory(backend, cells * (8 * 8 + 1),
                 fmt::format("{}: the {}x{} grid (keys 'grid.nx', 'grid.ny')", params.source, params.nx, params.ny));
  check_stability(params);
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<PenaltyFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return std::make_unique<PenaltySolver<Exec>>(params);
  });
}

}  // namespace immerse::mac2d
