#include "immerse/core/backend.hpp"

namespace immerse {

std::string to_string(Backend b) {
  switch (b) {
    case Backend::serial:
      return "serial";
    case Backend::openmp:
      return "openmp";
    case Backend::cuda:
      return "cuda";
  }
  return "?";
}

std::vector<Backend> enabled_backends() {
  std::vector<Backend> out;
#if defined(IMMERSE_ENABLE_SERIAL)
  out.push_back(Backend::serial);
#endif
#if defined(IMMERSE_ENABLE_OPENMP)
  out.push_back(Backend::openmp);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  out.push_back(Backend::cuda);
#endif
  return out;
}

bool is_enabled(Backend b) {
  for (Backend e : enabled_backends())
    if (e == b) return true;
  return false;
}

Backend default_backend() { return is_enabled(Backend::openmp) ? Backend::openmp : Backend::serial; }

Backend parse_backend(const std::string& name) {
  std::string allowed;
  for (Backend b : enabled_backends()) {
    if (to_string(b) == name) return b;
    allowed += (allowed.empty() ? "" : "|") + to_string(b);
  }
  throw InputError("--backend '" + name + "': not an enabled backend (allowed: " + allowed + ")");
}

long backend_concurrency(Backend b) {
  return with_backend(
      b, [](auto tag) { return static_cast<long>(typename decltype(tag)::execution_space().concurrency()); });
}

void fence_backends() { Kokkos::fence(); }

KokkosRuntime::KokkosRuntime(int& argc, char* argv[]) { Kokkos::initialize(argc, argv); }

KokkosRuntime::~KokkosRuntime() { Kokkos::finalize(); }

}  // namespace immerse
