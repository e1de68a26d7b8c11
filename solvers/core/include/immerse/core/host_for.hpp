#pragma once
// Host-side parallel loops of work that lives in host containers (the jellyfish body's surface
// sampling and cell classification, the boundary map's face constraints) on the run's host
// execution space: a plain loop for a serial run, Kokkos::DefaultHostExecutionSpace (OpenMP in an
// openmp build; the host space beside the device in a cuda build) otherwise. The loop bodies only
// write their own outputs and read data no iteration writes, so every backend computes the same
// bits.
#include <Kokkos_Core.hpp>

#include "immerse/core/backend.hpp"

namespace immerse {

template <class F>
void host_for(Backend backend, long n, const F& f) {
  if (backend == Backend::serial || n < 2) {
    for (long i = 0; i < n; ++i) f(i);
    return;
  }
  Kokkos::parallel_for("immerse::host_for",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<long>>(0, n), f);
}

}  // namespace immerse
