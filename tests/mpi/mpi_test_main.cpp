// The main of the GoogleTest programs that run under mpirun: MPI, then Kokkos, around the tests.
// Only rank 0 prints; a failure on any rank still fails that rank's exit code.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "immerse/core/comm.hpp"

int main(int argc, char** argv) {
  immerse::init_world(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (immerse::world().rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  Kokkos::initialize(argc, argv);
  const int rc = RUN_ALL_TESTS();
  Kokkos::finalize();
  immerse::finalize_world();
  return rc;
}
