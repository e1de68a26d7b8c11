#pragma once
// Run-time backend choice over the Kokkos execution spaces compiled into this build. Kernels are
// written once, templated on the execution space; `with_backend` calls a generic callable with the
// matching ExecTag, so each solver is instantiated once per enabled backend.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "immerse/core/error.hpp"

namespace immerse {

enum class Backend { serial, openmp, cuda };

template <class Exec>
struct ExecTag {
  using execution_space = Exec;
};

std::string to_string(Backend b);
// Throws InputError naming the allowed (enabled) values.
Backend parse_backend(const std::string& name);
std::vector<Backend> enabled_backends();
bool is_enabled(Backend b);
// The default: openmp when compiled in, else serial.
Backend default_backend();

// The Backend value of an execution space type (the inverse of with_backend).
template <class Exec>
constexpr Backend backend_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Exec, Kokkos::Cuda>::value) return Backend::cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if (std::is_same<Exec, Kokkos::OpenMP>::value) return Backend::openmp;
#endif
  return Backend::serial;
}

template <class F>
decltype(auto) with_backend(Backend b, F&& f) {
  switch (b) {
#if defined(KOKKOS_ENABLE_SERIAL)
    case Backend::serial: return f(ExecTag<Kokkos::Serial>{});
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    case Backend::openmp: return f(ExecTag<Kokkos::OpenMP>{});
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    case Backend::cuda: return f(ExecTag<Kokkos::Cuda>{});
#endif
    default: break;
  }
  throw InputError("backend '" + to_string(b) + "' is not enabled in this build");
}

}  // namespace immerse
