// The shallow-water lattice split among the ranks of an MPI launch (ctest runs this program with
// `mpirun -np 2`, `-np 4` and `-np 8`). Every rank also steps the whole lattice by itself; after odd
// and even step counts the split lattice's fields (gathered), volume and status must equal the whole
// lattice's bit for bit, for every border kind along y and x (walls, periodic, inflow with a
// time-dependent depth, outflow, the wave maker) and every storage, with the ranks sharing the
// rows (one node) and with ghost rows, the exchange (or the wait for the neighbours' word) beside
// the interior rows' step and (FP64) before it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "immerse/core/backend.hpp"
#include "immerse/core/comm.hpp"
#include "immerse/swlbm/sw_blocks.hpp"
#include "lbm3d/split_lattice.hpp"

using namespace immerse;
using namespace immerse::swlbm;

namespace {

struct SwCase {
  std::string name;
  SwParams params;
};

// 24 x 18 cells (18 rows: 8 ranks get 2 or 3), a hump moving diagonally: every population crosses
// every block border.
std::vector<SwCase> sw_cases() {
  SwParams base;
  base.nx = 24;
  base.ny = 18;
  base.dx = 0.25;
  base.dt = 0.025;
  base.tau = 0.6;
  base.source = "split test";
  base.initial_h = "1 + 0.1 * exp(-((x - 3)^2 + (y - 2)^2) / 2)";
  base.initial_u = "0.3 * sin(2 * pi * y / 4.5)";
  base.initial_v = "0.2 * cos(2 * pi * x / 6)";
  std::vector<SwCase> out;
  out.push_back({"walls", base});
  auto periodic = base;
  periodic.left = periodic.right = periodic.bottom = periodic.top = Border::periodic;
  out.push_back({"periodic", periodic});
  auto corrected = periodic;  // gradients of the neighbours' fields: ghost rows only
  corrected.collision = Collision::corrected;
  out.push_back({"periodic_corrected", corrected});
  auto open = base;  // inflow at the bottom with a depth that changes in time, outflow at the top
  open.bottom = Border::inflow;
  open.top = Border::outflow;
  open.left = open.right = Border::periodic;
  open.inflow_h = "1 + 0.05 * sin(4 * t + x)";
  open.inflow_v = "0.2";
  out.push_back({"inflow_outflow", open});
  auto wave = base;  // the wave maker on the left, outflow on the right, walls in y
  wave.left = Border::wave;
  wave.right = Border::outflow;
  wave.wave = {0.05, 3, 0, 2, 1};
  out.push_back({"wave_maker", wave});
  return out;
}

}  // namespace

TEST(ShallowWaterRanks, BlocksGiveTheWholeLatticesFields) {
  Comm& comm = world();
  ASSERT_GT(comm.size(), 1) << "run under mpirun -np N, N > 1";
  for (const auto& c : sw_cases())
    for (const auto storage : {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c})
      for (const NodeSharing share : {NodeSharing::always, NodeSharing::never})
        for (const bool overlap : {true, false}) {
          if (!overlap && storage != Storage::fp64) continue;  // the blocking order: once is enough
          SwParams p = c.params;
          p.storage = storage;
          p.block.overlap = overlap;
          p.block.share = share;
          // Ranks of one node share the rows when told to; the corrected collision never does.
          const bool shared = share == NodeSharing::always && comm.one_node() && p.collision == Collision::bgk;
          auto whole = make_sw_flow(default_backend(), p);
          auto split = make_sw_flow_on_ranks(default_backend(), p, comm, {0, 0, 0});
          for (int steps : {1, 4, 7, 30}) {
            while (whole->steps_done() < steps) whole->step(), split->step();
            const std::string what = c.name + " " + to_string(storage) + (shared ? " shared rows" : " ghost rows") +
                                     (overlap ? "" : " blocking") + " on " + std::to_string(comm.size()) +
                                     " ranks, rank " + std::to_string(comm.rank()) + ", " + std::to_string(steps) +
                                     " steps";
            EXPECT_EQ(split->params().block.shared(), shared) << what;
            // Shared rows copy nothing; ghost rows send every step (a rank at a wall has one neighbour).
            EXPECT_EQ(comm.max(split->halo_bytes_sent()) > 0, !shared) << what;
            const HostFields a = whole->fields(), b = split->fields();
            ASSERT_EQ(b.ny, p.ny) << what;
            const long differ = split_test::bit_differences(a.h, b.h) + split_test::bit_differences(a.u, b.u) +
                                split_test::bit_differences(a.v, b.v);
            EXPECT_EQ(differ, 0) << what;
            ASSERT_EQ(comm.max(differ != 0 ? 1.0 : 0.0), 0.0) << what << ": fields differ on some rank";
            EXPECT_EQ(whole->volume(), split->volume()) << what;
            const FieldStatus sa = whole->status(), sb = split->status();
            EXPECT_EQ(sa.min_h, sb.min_h) << what;
            EXPECT_EQ(sa.max_speed, sb.max_speed) << what;
            EXPECT_EQ(sa.max_lattice_courant, sb.max_lattice_courant) << what;
            // A block's own rows are where the whole lattice has them.
            const HostFields own = split->own_fields();
            EXPECT_EQ(
                split_test::bit_differences(
                    std::vector<double>(a.h.begin() + own.j0 * p.nx, a.h.begin() + (own.j0 + own.ny) * p.nx), own.h),
                0)
                << what;
          }
        }
}

// By itself (SwBlock::share automatic, no IMMERSE_SHARE_LATTICE) the solver shares the rows only
// where the node's shared memory gets 2 MiB pages; the variable overrides that.
TEST(ShallowWaterRanks, AutomaticSharingFollowsThePages) {
  Comm& comm = world();
  ASSERT_GT(comm.size(), 1) << "run under mpirun -np N, N > 1";
  const char* given = std::getenv("IMMERSE_SHARE_LATTICE");
  const std::string saved = given ? given : "";
  const SwParams p = sw_cases()[0].params;
  unsetenv("IMMERSE_SHARE_LATTICE");
  const bool huge = shared_huge_page_share(comm) >= 0.5;
  EXPECT_EQ(make_sw_flow_on_ranks(default_backend(), p, comm, {0, 0, 0})->params().block.shared(),
            huge && comm.one_node());
  for (const char* value : {"always", "never"}) {
    setenv("IMMERSE_SHARE_LATTICE", value, 1);
    EXPECT_EQ(make_sw_flow_on_ranks(default_backend(), p, comm, {0, 0, 0})->params().block.shared(),
              value == std::string("always") && comm.one_node())
        << value;
  }
  if (given)
    setenv("IMMERSE_SHARE_LATTICE", saved.c_str(), 1);
  else
    unsetenv("IMMERSE_SHARE_LATTICE");
}

// A split that does not fit the lattice is refused up front, naming --decompose.
TEST(ShallowWaterRanks, RejectsSplitsThatDoNotFit) {
  SwParams p = sw_cases()[0].params;
  EXPECT_THROW(sw_block_params(p, 2, 0, {2, 1, 1}), InputError);
  EXPECT_THROW(sw_block_params(p, 2, 0, {1, 1, 2}), InputError);
  EXPECT_THROW(sw_block_params(p, 2, 0, {1, 3, 1}), InputError);
  EXPECT_THROW(sw_block_params(p, 19, 0, {0, 0, 0}), InputError);
  EXPECT_NO_THROW(sw_block_params(p, 2, 1, {1, 2, 1}));
}
