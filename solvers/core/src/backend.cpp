#include "immerse/core/backend.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "immerse/core/comm.hpp"
#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

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

int threads_per_rank(int default_threads, int cpus, int ranks) {
  return std::max(1, std::min(default_threads, cpus / std::max(1, ranks)));
}

KokkosRuntime::KokkosRuntime(int& argc, char* argv[]) {
#if defined(KOKKOS_ENABLE_OPENMP)
  // Ranks that share a machine, left to OpenMP's default, each start a thread per processor they
  // may run on: unbound ranks (--oversubscribe) then put several spinning threads on every core
  // and starve one another. The user's OMP_NUM_THREADS, --kokkos-threads or KOKKOS_NUM_THREADS wins.
  bool chosen = std::getenv("OMP_NUM_THREADS") != nullptr || std::getenv("KOKKOS_NUM_THREADS") != nullptr;
  for (int a = 1; a < argc; ++a)
    chosen = chosen || std::strncmp(argv[a], "--kokkos-threads", 16) == 0 ||
             std::strncmp(argv[a], "--kokkos-num-threads", 20) == 0;
  const int ranks = world().ranks_on_machine();
  if (ranks > 1 && !chosen)
    omp_set_num_threads(
        threads_per_rank(omp_get_max_threads(), static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)), ranks));
#endif
  Kokkos::initialize(argc, argv);
}

KokkosRuntime::~KokkosRuntime() { Kokkos::finalize(); }

}  // namespace immerse
