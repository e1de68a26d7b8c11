// The shallow-water lattice as one block of itself, on every enabled backend: a block whose ghost
// rows are filled from this very process (the one-process Comm) is the lattice periodic in y. After
// odd and even step counts its fields, volume and status must equal the whole lattice's bit for
// bit in every storage: the ghost-row kernels (SwHalo's packing, the row copies) run on each
// backend here, where tests/mpi runs them on the default backend across real ranks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "immerse/swlbm/sw_flow.hpp"
#include "lbm3d/split_lattice.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::swlbm;

namespace {

// A hump moving diagonally across a lattice periodic in both directions, with a ragged row count.
SwParams periodic_hump(Storage storage) {
  SwParams p;
  p.nx = 24;
  p.ny = 13;
  p.dx = 0.25;
  p.dt = 0.025;
  p.tau = 0.6;
  p.left = p.right = p.bottom = p.top = Border::periodic;
  p.initial_h = "1 + 0.1 * exp(-((x - 3)^2 + (y - 2)^2) / 2)";
  p.initial_u = "0.3 * sin(2 * pi * y / 3.25)";
  p.initial_v = "0.2 * cos(2 * pi * x / 6)";
  p.storage = storage;
  p.source = "self-filled block test";
  return p;
}

// `whole` as one block: a ghost row below and above, both filled from rank 0, this process.
SwParams self_ghosted(const SwParams& whole) {
  SwParams b = whole;
  b.block.whole_ny = whole.ny;
  b.block.origin_y = -1;
  b.ny = whole.ny + 2;
  for (int side = 0; side < 2; ++side) b.block.ghost[side] = true, b.block.neighbour[side] = 0;
  return b;
}

}  // namespace

template <class Exec>
class SwBlockRows : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(SwBlockRows, test::EnabledSpaces, test::SpaceName);

TYPED_TEST(SwBlockRows, SelfFilledGhostRowsAreThePeriodicLattice) {
  for (const Storage storage : {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c}) {
    const SwParams whole = periodic_hump(storage);
    auto a = make_sw_flow(this->backend, whole);
    auto b = make_sw_flow(this->backend, self_ghosted(whole));
    for (int steps : {1, 4, 7, 30, 300}) {
      while (a->steps_done() < steps) a->step(), b->step();
      const std::string what = to_string(storage) + " after " + std::to_string(steps) + " steps";
      const HostFields fa = a->fields(), fb = b->fields();
      ASSERT_EQ(fb.ny, whole.ny) << what;
      EXPECT_EQ(split_test::bit_differences(fa.h, fb.h), 0) << what;
      EXPECT_EQ(split_test::bit_differences(fa.u, fb.u), 0) << what;
      EXPECT_EQ(split_test::bit_differences(fa.v, fb.v), 0) << what;
      EXPECT_EQ(a->volume(), b->volume()) << what;
      EXPECT_EQ(a->status().max_speed, b->status().max_speed) << what;
      EXPECT_EQ(a->status().min_h, b->status().min_h) << what;
    }
  }
}
