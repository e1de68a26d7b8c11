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

using immerse::backend_of;

// Fixture base of a typed test over the enabled spaces: `this->backend` is the run-time choice.
template <class Exec>
class BackendTest : public ::testing::Test {
 protected:
  Backend backend = backend_of<Exec>();
};

using EnabledSpaces = ::testing::Types<
#if defined(IMMERSE_ENABLE_SERIAL)
    Kokkos::Serial
#endif
#if defined(IMMERSE_ENABLE_OPENMP)
    ,
    Kokkos::OpenMP
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    ,
    Kokkos::Cuda
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
