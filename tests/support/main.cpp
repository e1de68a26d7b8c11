// Shared main of the test programs: Kokkos is initialised once around all tests.
#include "backends.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new immerse::test::KokkosEnvironment);
  return RUN_ALL_TESTS();
}
