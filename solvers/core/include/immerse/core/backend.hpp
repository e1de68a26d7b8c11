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
