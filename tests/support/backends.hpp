#pragma once
// Test support: Kokkos initialised once per test program, and the list of enabled execution spaces
// as a GoogleTest type list, so a kernel test written once runs on every backend (Cabana's pattern).
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include "immerse/core/backend.hpp"

namespace immerse::test {

class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!Kokkos::is_initialized()) Kokkos::initialize();
  }
  void TearDown() override {
    if (Kokkos::is_initialized()) Kokkos::finalize();
  }
};

template <class Exec>
Backend backend_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<Exec, Kokkos::Cuda>::value) return Backend::cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if (std::is_same<Exec, Kokkos::OpenMP>::value) return Backend::openmp;
#endif
  return Backend::serial;
}

using EnabledSpaces = ::testing::Types<
#if defined(KOKKOS_ENABLE_SERIAL)
    Kokkos::Serial
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    , Kokkos::OpenMP
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    , Kokkos::Cuda
#endif
    >;

// "serial", "openmp", ... as test-name suffixes
struct SpaceName {
  template <class T>
  static std::string GetName(int) {
    return to_string(backend_of<T>());
  }
};

}  // namespace immerse::test
