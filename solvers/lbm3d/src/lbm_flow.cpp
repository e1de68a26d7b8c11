// Instantiates the D3Q15 solver for every execution space compiled into this build, FP32, FP64 and
// the two 16-bit storages (fp16s: binary16, fp16c: FluidX3D's format).
#include <fmt/format.h>

#include <cstdint>

#include "immerse/core/backend.hpp"
#include "immerse/core/memory_budget.hpp"
#include "lbm_solver_impl.hpp"

namespace immerse::lbm3d {

#define IMMERSE_INSTANTIATE(Exec)                \
  template class LbmSolver<Exec, float>;         \
  template class LbmSolver<Exec, double>;        \
  template class LbmSolver<Exec, std::uint16_t>; \
  template class LbmSolver<Exec, Fp16c>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

double lattice_bytes(const LbmParams& params) {
  // Populations (one buffer in place with AA, two with pull), the body velocity and macroscopic
  // fields (7 reals) and two group bytes per cell (ranks sharing the lattice: once on their node).
  const double cells = double(params.nx) * params.ny * params.nz, real = params.storage == Storage::fp64 ? 8 : 4;
  const double pop = population_bytes(params.storage);
  return cells * ((params.pattern == Pattern::aa ? 15 : 30) * pop + 7 * real + 2);
}

std::unique_ptr<LbmFlow> make_lbm_flow(Backend backend, const LbmParams& params) {
  require_memory(backend, lattice_bytes(params),
                 fmt::format("{}: the {}x{}x{} lattice ({}, {})", params.source, params.nx, params.ny, params.nz,
                             storage_name(params), to_string(params.pattern)));
  check_stability(params);
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<LbmFlow> {
    using Exec = typename decltype(tag)::execution_space;
    switch (params.storage) {
      case Storage::fp64:
        return std::make_unique<LbmSolver<Exec, double>>(params);
      case Storage::fp16s:
        return std::make_unique<LbmSolver<Exec, std::uint16_t>>(params);
      case Storage::fp16c:
        return std::make_unique<LbmSolver<Exec, Fp16c>>(params);
      default:
        return std::make_unique<LbmSolver<Exec, float>>(params);
    }
  });
}

}  // namespace immerse::lbm3d
