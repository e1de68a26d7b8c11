#pragma once
// Which Kokkos execution space a run uses, named without including Kokkos: case code, reports and
// the program need only this, so in a CUDA build they compile with the host compiler alone. The
// dispatch onto templated kernels (with_backend, ExecTag) is in backend.hpp.
#include <string>
#include <vector>

namespace immerse {

enum class Backend { serial, openmp, cuda };

std::string to_string(Backend b);
// Throws InputError naming the allowed (enabled) values.
Backend parse_backend(const std::string& name);
std::vector<Backend> enabled_backends();
bool is_enabled(Backend b);
// The default: openmp when compiled in, else serial.
Backend default_backend();
// Threads (OpenMP) or concurrent work items (CUDA) the backend runs with.
long backend_concurrency(Backend b);

// Waits for every backend's outstanding work (Kokkos::fence), e.g. before reading a timer.
void fence_backends();

// The OpenMP threads of one of `ranks` ranks on a machine with `cpus` processors, where OpenMP
// would start `default_threads` (one per processor the rank may run on): its share of the
// machine's processors, at least 1 and at most default_threads. A launcher that binds each rank to
// its own cores already limits default_threads; ranks left unbound (`--oversubscribe`) would
// otherwise each start a thread per processor of the machine.
int threads_per_rank(int default_threads, int cpus, int ranks);

// Initialises Kokkos for the program's lifetime (command-line options such as --kokkos-threads
// are read from argc/argv) and finalises it on destruction. On several MPI ranks (init_world
// first), each rank's OpenMP threads are threads_per_rank() unless OMP_NUM_THREADS, KOKKOS_NUM_THREADS or
// --kokkos-threads chooses.
class KokkosRuntime {
 public:
  KokkosRuntime(int& argc, char* argv[]);
  ~KokkosRuntime();
  KokkosRuntime(const KokkosRuntime&) = delete;
  KokkosRuntime& operator=(const KokkosRuntime&) = delete;
};

}  // namespace immerse
