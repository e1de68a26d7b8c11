#pragma once
// Run-time backend choice over the Kokkos execution spaces compiled into this build. Kernels are
// written once, templated on the execution space; `with_backend` calls a generic callable with the
// matching ExecTag, so each solver is instantiated once per enabled backend.
#include <Kokkos_Core.hpp>

#include <string>

#include "immerse/core/backend_id.hpp"
#include "immerse/core/error.hpp"

// The backends this build instantiates: Kokkos' enabled spaces, except that IMMERSE_CUDA_ONLY
// (defined by the cuda-check preset, a compile check on machines without a GPU) leaves out the host
// spaces there: the openmp preset compiles them, and nvcc's host pass over them was most of the
// check's time. Code that names a backend tests these, not KOKKOS_ENABLE_SERIAL / _OPENMP.
#if defined(KOKKOS_ENABLE_SERIAL) && !(defined(IMMERSE_CUDA_ONLY) && defined(KOKKOS_ENABLE_CUDA))
#define IMMERSE_ENABLE_SERIAL
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && !(defined(IMMERSE_CUDA_ONLY) && defined(KOKKOS_ENABLE_CUDA))
#define IMMERSE_ENABLE_OPENMP
#endif

namespace immerse {

template <class Exec>
struct ExecTag {
  using execution_space = Exec;
};

// The Backend value of an execution space type (the inverse of with_backend).
template <class Exec>
constexpr Backend backend_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Exec, Kokkos::Cuda>::value) return Backend::cuda;
#endif
#if defined(IMMERSE_ENABLE_OPENMP)
  if (std::is_same<Exec, Kokkos::OpenMP>::value) return Backend::openmp;
#endif
  return Backend::serial;
}

// IMMERSE_FOR_EACH_BACKEND(M) expands M(Kokkos::Serial) M(Kokkos::OpenMP) M(Kokkos::Cuda) for the
// execution spaces compiled in: the one place a solver's explicit instantiations are listed, e.g.
//   #define IMMERSE_INSTANTIATE(Exec) template class PenaltySolver<Exec>;
//   IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#if defined(IMMERSE_ENABLE_SERIAL)
#define IMMERSE_IF_SERIAL(M) M(Kokkos::Serial)
#else
#define IMMERSE_IF_SERIAL(M)
#endif
#if defined(IMMERSE_ENABLE_OPENMP)
#define IMMERSE_IF_OPENMP(M) M(Kokkos::OpenMP)
#else
#define IMMERSE_IF_OPENMP(M)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define IMMERSE_IF_CUDA(M) M(Kokkos::Cuda)
#else
#define IMMERSE_IF_CUDA(M)
#endif
#define IMMERSE_FOR_EACH_BACKEND(M) IMMERSE_IF_SERIAL(M) IMMERSE_IF_OPENMP(M) IMMERSE_IF_CUDA(M)

template <class F>
decltype(auto) with_backend(Backend b, F&& f) {
  switch (b) {
#if defined(IMMERSE_ENABLE_SERIAL)
    case Backend::serial:
      return f(ExecTag<Kokkos::Serial>{});
#endif
#if defined(IMMERSE_ENABLE_OPENMP)
    case Backend::openmp:
      return f(ExecTag<Kokkos::OpenMP>{});
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    case Backend::cuda:
      return f(ExecTag<Kokkos::Cuda>{});
#endif
    default:
      break;
  }
  throw InputError("backend '" + to_string(b) + "' is not enabled in this build");
}

}  // namespace immerse
