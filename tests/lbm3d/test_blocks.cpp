// A lattice split into blocks with ghost layers (lbm_blocks.hpp, lbm_halo.hpp), in one process:
// the decomposition's arithmetic, and the ghost-layer exchange on every enabled backend. A block
// whose y and z ghost layers are filled from itself is the periodic lattice: after odd and even
// step counts it must hold the whole lattice's populations bit for bit, in every storage and both
// patterns, also with bodies moving across the ghost layers (tests/mpi repeats this across real
// ranks and every border kind).
#include <gtest/gtest.h>

#include "body_groups.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/core/error.hpp"
#include "split_lattice.hpp"
#include "support/backends.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

TEST(LatticeBlocks, ChoosesTheSplitWithTheFewestCutCells) {
  LbmParams p;
  p.nx = 64, p.ny = 64, p.nz = 16;
  EXPECT_EQ(choose_dims(p, 2, {0, 0, 0}), (std::array<int, 3>{1, 2, 1}));  // cut 16 rows, not 64
  EXPECT_EQ(choose_dims(p, 4, {0, 0, 0}), (std::array<int, 3>{1, 4, 1}));
  p.nz = 8;
  EXPECT_EQ(choose_dims(p, 8, {0, 0, 0}), (std::array<int, 3>{1, 8, 1}));  // 7 x 8 rows, not 3 x 8 + 64
  p.nz = 64;
  EXPECT_EQ(choose_dims(p, 4, {0, 0, 0}), (std::array<int, 3>{1, 2, 2}));
  EXPECT_EQ(choose_dims(p, 4, {1, 1, 4}), (std::array<int, 3>{1, 1, 4}));
}

TEST(LatticeBlocks, RejectsSplitsThatDoNotFit) {
  LbmParams p;
  p.nx = 16, p.ny = 4, p.nz = 4;
  EXPECT_THROW(choose_dims(p, 2, {2, 1, 1}), InputError);  // x is never split
  EXPECT_THROW(choose_dims(p, 4, {1, 2, 1}), InputError);  // 2 blocks for 4 ranks
  EXPECT_THROW(choose_dims(p, 8, {1, 8, 1}), InputError);  // 8 blocks along 4 cells
  EXPECT_THROW(choose_dims(p, 32, {0, 0, 0}), InputError);
  try {
    choose_dims(p, 2, {2, 1, 1});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("use 1x2x1"), std::string::npos) << e.what();
  }
}

TEST(LatticeBlocks, BlocksCoverTheLatticeOnceWithGhostsOnlyTowardOtherBlocks) {
  LbmParams p;
  p.nx = 5, p.ny = 11, p.nz = 7;
  p.border[2] = p.border[3] = Border::bounce_back;       // y walls, z periodic
  const RankLayout dims = rank_layout(p, {1, 3, 2}, 1);  // one node: rank = cy + 3 cz
  std::vector<int> owner(p.cells(), -1);
  for (int r = 0; r < 6; ++r) {
    const BlockExtent e = block_of(p, dims, r);
    for (int k = e.lo[2]; k < e.lo[2] + e.size[2]; ++k)
      for (int j = e.lo[1]; j < e.lo[1] + e.size[1]; ++j)
        for (int i = e.lo[0]; i < e.lo[0] + e.size[0]; ++i) {
          auto& o = owner[i + p.nx * (j + p.ny * k)];
          EXPECT_EQ(o, -1) << "cell owned twice";
          o = r;
        }
    const LbmParams b = block_params(p, dims, r);
    const int cy = r % 3, cz = r / 3;
    EXPECT_EQ(b.block.ghost[2], cy > 0);  // walls: no ghost at the lattice's own y faces
    EXPECT_EQ(b.block.ghost[3], cy < 2);
    EXPECT_TRUE(b.block.ghost[4] && b.block.ghost[5]);  // periodic z with 2 blocks: both sides
    EXPECT_EQ(b.block.neighbour[4], cy + 3 * (1 - cz));
    EXPECT_EQ(b.ny, e.size[1] + (cy > 0) + (cy < 2));
    EXPECT_EQ(b.block.origin[1], e.lo[1] - (cy > 0 ? 1 : 0));
  }
  EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0);
}

template <class Exec>
class LatticeHalo : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(LatticeHalo, test::EnabledSpaces, test::SpaceName);

// One block of the periodic case, its four y/z ghost layers filled from itself (Comm: this process).
TYPED_TEST(LatticeHalo, SelfFilledGhostLayersAreThePeriodicLattice) {
  const LbmParams whole_params = split_test::split_cases()[0].params;
  for (const auto precision : {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c})
    for (const auto pattern : {Pattern::aa, Pattern::pull}) {
      LbmParams whole = whole_params;
      whole.storage = precision;
      whole.pattern = pattern;
      whole.force = {1e-5, -2e-5, 1e-5};
      const LbmParams block = split_test::self_ghosted(whole);
      auto a = make_lbm_flow(this->backend, whole);
      auto b = make_lbm_flow(this->backend, block);
      const BlockExtent all{{0, 0, 0}, {whole.nx, whole.ny, whole.nz}};
      for (int steps : {1, 2, 5}) {
        while (a->steps_done() < steps) a->step(), b->step();
        const std::string what =
            storage_name(whole) + " " + to_string(pattern) + " after " + std::to_string(steps) + " steps";
        EXPECT_EQ(split_test::bit_differences(split_test::block_from_whole(a->raw_populations(), whole, all),
                                              b->raw_populations()),
                  0)
            << what;
        EXPECT_EQ(a->mass(), b->mass()) << what;
        EXPECT_EQ(split_test::bit_differences(a->row_kinetic_energies(), b->row_kinetic_energies()), 0) << what;
        const Macro ma = a->macro(), mb = b->macro({0, 1, 1}, {whole.nx, whole.ny + 1, whole.nz + 1});
        EXPECT_EQ(split_test::bit_differences(ma.ux, mb.ux), 0) << what;
        EXPECT_EQ(a->health().max_speed, b->health().max_speed) << what;
      }
    }
}

// The same block with two moving bodies: a small cube moving along y and z across the ghost
// layers' neighbourhood, and a plate whose C2 layer water touches (read by the paper's C3 rule).
// The ghost layers carry the body cells' unswapped populations, and a block's cells take back only
// what water pushed into its ghost layers, never into or out of a body cell. Body cells stay off
// the outermost planes: there the whole lattice brings them in across its periodic faces, and the
// host kernels run such lines cell by cell, where the block's runs are vectorised (the same values
// to the last bit or so, not bit for bit; docs/mpi.md).
TYPED_TEST(LatticeHalo, SelfFilledGhostLayersCarryMovingBodies) {
  const LbmParams whole_params = split_test::split_cases()[0].params;
  for (const auto rule : {BodyBoundary::ladd, BodyBoundary::paper})
    for (const auto precision : {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c})
      for (const auto pattern : {Pattern::aa, Pattern::pull}) {
        LbmParams whole = whole_params;
        whole.storage = precision;
        whole.pattern = pattern;
        whole.body_boundary = rule;
        const LbmParams block = split_test::self_ghosted(whole);
        auto a = make_lbm_flow(this->backend, whole);
        auto b = make_lbm_flow(this->backend, block);
        CellGroups before;
        for (int s = 0; s < 9; ++s) {
          CellGroups g = body_test::cube_and_plate(whole, 2, 2 + s % 6, 2 + s % 4, 6, 3);
          if (s > 0) g = body_test::changed_since(before, g);
          a->set_groups(g);
          b->set_groups(split_test::block_groups(g, whole, block));
          before = g;
          a->step(), b->step();
          const std::string what = to_string(pattern) + " " + storage_name(whole) + " C3 rule " +
                                   body_boundary_choices().name(rule) + " after " + std::to_string(s + 1) + " steps";
          const BlockExtent all{{0, 0, 0}, {whole.nx, whole.ny, whole.nz}};
          ASSERT_EQ(split_test::bit_differences(split_test::block_from_whole(a->raw_populations(), whole, all),
                                                b->raw_populations()),
                    0)
              << what;
          EXPECT_EQ(a->mass(), b->mass()) << what;
        }
        EXPECT_GT(a->health().max_speed, 0.01);  // the bodies move the water
      }
}

// Ranks filling nodes in order: each node's ranks hold a compact tile of blocks, each block has
// one rank, and a block's neighbour across a face is the rank that holds it. A 4 x 8 split on nodes
// of 8 ranks: a node as a run of 8 along z, or a 2 x 4 tile, or 4 x 2: the 4 x 2 tile turns 2 x 2
// faces of 16 x 12 cells toward other nodes along y and 2 x 4 of 16 x 8 along z (768 cells in all;
// 2 x 4: 896; a run of 8 along z: 1024; along y the split is 4 blocks wide).
TEST(LatticeBlocks, NodesHoldCompactTilesOfBlocks) {
  LbmParams p;
  p.nx = 16, p.ny = 32, p.nz = 96;
  const RankLayout l = rank_layout(p, {1, 4, 8}, 8);
  EXPECT_EQ(l.ty, 4);
  EXPECT_EQ(l.tz, 2);
  std::vector<int> holder(32, -1);
  for (int r = 0; r < 32; ++r) {
    const auto b = l.block(r);
    ASSERT_TRUE(b[0] >= 0 && b[0] < 4 && b[1] >= 0 && b[1] < 8) << r;
    EXPECT_EQ(holder[b[0] + 4 * b[1]], -1) << "block held twice";
    holder[b[0] + 4 * b[1]] = r;
    EXPECT_EQ(l.rank(b[0], b[1]), r);
    EXPECT_EQ(b[0], r % 4);                    // a node's 8 ranks: 4 along y ...
    EXPECT_EQ(b[1], 2 * (r / 8) + r % 8 / 4);  // ... by 2 along z
    const LbmParams bp = block_params(p, l, r);
    EXPECT_EQ(bp.block.neighbour[5], l.rank(b[0], (b[1] + 1) % 8));  // periodic z
    EXPECT_EQ(bp.block.neighbour[2], l.rank((b[0] + 3) % 4, b[1]));
  }
  // One node, a node size that divides nothing, or none known: rank = cy + dims[1] cz.
  for (int per_node : {32, 64, 3, 1}) {
    const RankLayout one = rank_layout(p, {1, 4, 8}, per_node);
    for (int r = 0; r < 32; ++r) EXPECT_EQ(one.block(r), (std::array<int, 2>{r % 4, r / 4})) << per_node;
  }
}

// The up-front Mach check of a block samples its initial formulas at the block's own cells, in
// global coordinates (LbmBlock::origin), not at the whole lattice's first cells.
TEST(LatticeBlocks, InitialSpeedIsSampledWhereTheBlockIs) {
  LbmParams whole;
  whole.nx = 4, whole.ny = 32, whole.nz = 4;
  whole.init_ux = "y > 20 ? 0.2 : 0";  // fast only in the upper half's upper part
  const RankLayout dims = rank_layout(whole, {1, 2, 1}, 1);
  EXPECT_EQ(max_initial_speed(block_params(whole, dims, 0)), 0.0);  // y < 17.5 with its ghosts
  EXPECT_EQ(max_initial_speed(block_params(whole, dims, 1)), 0.2);
  EXPECT_EQ(max_initial_speed(whole), 0.2);
}
