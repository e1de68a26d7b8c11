#pragma once
// Streaming (non-temporal) stores for the host line kernel.
//
// Why: the pull kernel writes a second buffer. An ordinary store first reads the cache line it
// writes (write-allocate), so a step moves 15 loads + 15 stores + 15 line reads per cell: 1.5x the
// 2 x 15 values it needs. A streaming store writes the whole line without reading it, and bypasses
// the caches.
//
// On the project's reference machine the bare memory pattern gains from them (bench_lbm3d's
// stream15 pull_nt rows) but the collision kernel does not: it is held back per core, not by its
// store traffic, and serial runs get slower. So the lattice uses them only on request
// (lattice.stores = streaming), for machines where they do pay.
//
// Host only, x86 with AVX (and not under nvcc): elsewhere store_run is a plain copy.
#include <cstdint>

#if defined(__AVX__) && !defined(__CUDACC__)  // nvcc builds keep the plain copy
#include <immintrin.h>
#define IMMERSE_HAVE_STREAMING_STORES 1
#else
#define IMMERSE_HAVE_STREAMING_STORES 0
#endif

namespace immerse::lbm3d {

// Whether store_run can write around the caches on this build.
constexpr bool have_streaming_stores() { return IMMERSE_HAVE_STREAMING_STORES != 0; }

// to[0..m) = from[0..m). With `streaming`, the 32-byte aligned part goes out as non-temporal stores;
// the unaligned head and the tail are ordinary stores.
template <class Real>
inline void store_run(Real* to, const Real* from, int m, bool streaming) {
  int a = 0;
#if IMMERSE_HAVE_STREAMING_STORES
  if (streaming) {
    constexpr int lanes = 32 / sizeof(Real);
    while (a < m && (reinterpret_cast<std::uintptr_t>(to + a) & 31) != 0) to[a] = from[a], ++a;
    for (; a + lanes <= m; a += lanes) {
      if constexpr (sizeof(Real) == 4)
        _mm256_stream_ps(reinterpret_cast<float*>(to + a), _mm256_loadu_ps(reinterpret_cast<const float*>(from + a)));
      else
        _mm256_stream_pd(reinterpret_cast<double*>(to + a), _mm256_loadu_pd(reinterpret_cast<const double*>(from + a)));
    }
  }
#else
  (void)streaming;
#endif
  for (; a < m; ++a) to[a] = from[a];
}

// Streaming stores are weakly ordered: after this, the thread's earlier streaming stores are
// visible before any of its later stores (to the other threads, and before an ordinary store to
// the same place overwrites them).
inline void streaming_fence() {
#if IMMERSE_HAVE_STREAMING_STORES
  _mm_sfence();
#endif
}

}  // namespace immerse::lbm3d
