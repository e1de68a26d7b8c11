// The host line kernel (lbm_line_kernel.hpp: per-line plans, SIMD runs of water cells) against the
// reference: the per-cell kernel CollideStream::cell that device spaces run, whose gather applies the
// border and body rules cell by cell. Same input state, same groups, every border kind on some face,
// bodies touching faces and periodic seams: the two must write the same populations, with the line
// kernel's ordinary stores and with its streaming stores (streaming_store.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/lbm3d/lbm_line_kernel.hpp"
#include "lattice_setup.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

namespace {

template <class Real, class Exec>
void compare_line_kernel_with_cell_kernel(const kernel_test::LatticeSetup& s, const bool streaming) {
  using Device = typename Exec::device_type;
  auto t = kernel_test::make_test_lattice<Real, Exec>(s);
  const long n = t.n, stride = t.stride;
  Kokkos::View<Real*, Device> by_line("by_line", 15 * stride), by_cell("by_cell", 15 * stride);
  auto k = t.k;
  k.dst = by_cell;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), k);
  k.dst = by_line;
  Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, s.ny * s.nz), CollideStreamLines<Real, Exec>{k, streaming});
  Exec().fence();

  // Both paths gather the same values and relax them with the same bgk_relax; only the compiler's
  // choice of fused multiply-adds may differ between the SIMD and the scalar code: a few units in the
  // last place of populations of order 0.1, so 1e-6 (FP32) / 1e-14 (FP64) absolute.
  const double tol = sizeof(Real) == 4 ? 1e-6 : 1e-14;
  EXPECT_EQ(kernel_test::count_differences(by_line, by_cell, s, stride, tol, "line kernel vs cell kernel"), 0);
}

}  // namespace

// Every border kind, with and without a body force, in both precisions, on each host backend (device
// spaces run the cell kernel itself): kernel_test::border_setups.
TEST(LatticeLineKernel, MatchesTheCellKernelOnEveryBorderKind) {
  for (const auto& s : kernel_test::border_setups()) {
    SCOPED_TRACE(testing::Message() << s.nx << "x" << s.ny << "x" << s.nz << (s.forced ? " forced" : ""));
    for (const bool streaming : {false, true}) {
      SCOPED_TRACE(streaming ? "streaming stores" : "ordinary stores");
      compare_line_kernel_with_cell_kernel<float, Kokkos::Serial>(s, streaming);
      compare_line_kernel_with_cell_kernel<double, Kokkos::Serial>(s, streaming);
#if defined(IMMERSE_ENABLE_OPENMP)
      compare_line_kernel_with_cell_kernel<float, Kokkos::OpenMP>(s, streaming);
      compare_line_kernel_with_cell_kernel<double, Kokkos::OpenMP>(s, streaming);
#endif
    }
  }
}
