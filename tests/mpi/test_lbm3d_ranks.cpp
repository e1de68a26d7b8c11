// The D3Q15 lattice split among the ranks of an MPI launch (ctest runs this program with
// `mpirun -np 2`, `-np 4` and `-np 8`). Every rank also steps the whole lattice by itself; after odd and
// even step counts its block must hold the whole lattice's populations bit for bit, for every
// border kind, a body force, both patterns and every storage, along y, z and both, with the exchange
// beside the interior update (and in FP64 with LbmBlock::overlap off: around the whole update); and
// the gathered mass and kinetic energy per row, fields and fastest speed must equal the whole
// lattice's to the bit (the sums are added in the whole lattice's order). With moving bodies
// crossing the block borders (the whole lattice's groups given to every rank, as the jellyfish
// scene does), the same. Splits along z alone run twice: the ranks sharing the populations (one
// node, LbmBlock::share_node) and with ghost layers and messages.
#include <gtest/gtest.h>

#include <functional>

#include "immerse/core/backend.hpp"
#include "immerse/core/comm.hpp"
#include "lbm3d/body_groups.hpp"
#include "lbm3d/split_lattice.hpp"

using namespace immerse;
using namespace immerse::lbm3d;

namespace {

// The splits this many ranks can make of the 12 x 10 x 8 test lattice.
std::vector<std::array<int, 3>> splits(int ranks) {
  if (ranks == 2) return {{1, 2, 1}, {1, 1, 2}};
  if (ranks == 4) return {{1, 2, 2}, {1, 4, 1}, {1, 1, 4}};
  if (ranks == 8) return {{1, 4, 2}, {1, 2, 4}, {1, 8, 1}};  // blocks one cell thick among them
  return {{1, ranks, 1}};
}

// Whether the ranks share the populations (share_node on) and whether they use ghost layers (off):
// both for a split along z alone, which the ranks of one node can share; the latter for the others.
std::vector<bool> sharing(const std::array<int, 3>& dims, const Comm& comm) {
  if (dims[1] == 1 && comm.one_node()) return {true, false};
  return {false};
}
std::string split_name(const std::array<int, 3>& dims, bool share) {
  return "split 1x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + (share ? " shared" : "");
}

// This rank's block of `dims`, as make_lbm_flow_on_ranks lays the blocks out.
BlockExtent own_block(const LbmParams& p, const std::array<int, 3>& dims, const Comm& comm) {
  return block_of(p, rank_layout_on(p, dims, comm), comm.rank());
}

}  // namespace

TEST(LatticeRanks, BlocksHoldTheWholeLatticesPopulations) {
  Comm& comm = world();
  ASSERT_GT(comm.size(), 1) << "run under mpirun -np N, N > 1";
  for (const auto& c : split_test::split_cases())
    for (const auto& dims : splits(comm.size()))
      for (const bool share : sharing(dims, comm))
        for (const auto precision : {Storage::fp64, Storage::fp32, Storage::fp16s, Storage::fp16c})
          for (const auto pattern : {Pattern::aa, Pattern::pull})
            for (const bool overlap : {true, false}) {
              if (!overlap && precision != Storage::fp64) continue;  // the order of work, not the storage
              LbmParams p = c.params;
              p.storage = precision;
              p.pattern = pattern;
              p.block.overlap = overlap;
              p.block.share_node = share;
              auto whole = make_lbm_flow(default_backend(), p);
              auto split = make_lbm_flow_on_ranks(default_backend(), p, comm, dims);
              const BlockExtent own = own_block(p, dims, comm);
              for (int steps : {1, 4, 7}) {
                while (whole->steps_done() < steps) whole->step(), split->step();
                const std::string what = c.name + " " + storage_name(p) + " " + to_string(pattern) + " " +
                                         split_name(dims, share) + (overlap ? "" : " blocking") + ", rank " +
                                         std::to_string(comm.rank()) + ", " + std::to_string(steps) + " steps";
                EXPECT_EQ(split_test::bit_differences(split_test::block_from_whole(whole->raw_populations(), p, own),
                                                      split->raw_populations()),
                          0)
                    << what;
                EXPECT_EQ(whole->mass(), split->mass()) << what;
                EXPECT_EQ(split_test::bit_differences(whole->row_kinetic_energies(), split->row_kinetic_energies()), 0)
                    << what;
                const Macro a = whole->macro(), b = split->macro();
                EXPECT_EQ(split_test::bit_differences(a.rho, b.rho), 0) << what;
                EXPECT_EQ(split_test::bit_differences(a.uz, b.uz), 0) << what;
                EXPECT_EQ(whole->health().max_speed, split->health().max_speed) << what;
              }
            }
}

// The AA exchange step leaves its give-back travelling beside the next step's interior
// (LbmSolver::step); every query completes it first. Each query here is the first call after one
// exchange step, on a flow of its own, and must answer as the whole lattice does.
TEST(LatticeRanks, EachQueryAfterAnExchangeStepCompletesTheGiveBack) {
  Comm& comm = world();
  LbmParams p = split_test::split_cases().front().params;
  p.storage = Storage::fp64;
  p.pattern = Pattern::aa;
  auto fields = [](const Macro& m) {
    std::vector<double> v = m.rho;
    for (const auto* f : {&m.ux, &m.uy, &m.uz}) v.insert(v.end(), f->begin(), f->end());
    return v;
  };
  const std::vector<std::pair<std::string, std::function<std::vector<double>(const LbmFlow&)>>> queries = {
      {"row_masses", [](const LbmFlow& f) { return f.row_masses(); }},
      {"row_kinetic_energies", [](const LbmFlow& f) { return f.row_kinetic_energies(); }},
      {"macro", [&](const LbmFlow& f) { return fields(f.macro()); }},
      {"macro of a box",
       [&](const LbmFlow& f) {
         return fields(f.macro({1, 0, 0}, {11, 10, 8}));
       }},
      {"velocity",
       [](const LbmFlow& f) {
         const std::vector<float> v = f.velocity();
         return std::vector<double>(v.begin(), v.end());
       }},
      {"health", [](const LbmFlow& f) { return std::vector<double>{f.health().max_speed}; }},
      {"raw_populations", [](const LbmFlow& f) { return f.raw_populations(); }}};
  // Along y (ghost layers) and along z (shared where the ranks are on one node).
  for (const std::array<int, 3> dims : {std::array<int, 3>{1, comm.size(), 1}, std::array<int, 3>{1, 1, comm.size()}})
    for (const auto& [name, query] : queries) {
      auto whole = make_lbm_flow(default_backend(), p);
      auto split = make_lbm_flow_on_ranks(default_backend(), p, comm, dims);
      whole->step(), split->step();
      std::vector<double> expected = query(*whole);
      if (name == "raw_populations")  // this rank's block of the whole lattice's
        expected = split_test::block_from_whole(expected, p, own_block(p, dims, comm));
      EXPECT_EQ(split_test::bit_differences(expected, query(*split)), 0)
          << name << ", " << split_name(dims, dims[1] == 1 && comm.one_node()) << ", rank " << comm.rank() << " of "
          << comm.size();
    }
}

// Two bodies move across the block borders every step (a cube along y and z, a plate that the z
// splits cut between its C1 and C2 layers), each step setting the whole lattice's groups on every
// rank. FP64 and FP32, both patterns, Ladd's C3 rule and the paper's (which reads C1 and C2 cells).
// Body cells stay off the outermost planes (tests/lbm3d/test_blocks.cpp says why).
TEST(LatticeRanks, MovingBodiesCrossTheBlockBorders) {
  Comm& comm = world();
  for (const auto& c : split_test::split_cases())
    for (const auto& dims : splits(comm.size()))
      for (const bool share : sharing(dims, comm))
        for (const auto rule : {BodyBoundary::ladd, BodyBoundary::paper})
          for (const auto precision : {Storage::fp64, Storage::fp32})
            for (const auto pattern : {Pattern::aa, Pattern::pull}) {
              LbmParams p = c.params;
              p.storage = precision;
              p.pattern = pattern;
              p.body_boundary = rule;
              p.block.share_node = share;
              auto whole = make_lbm_flow(default_backend(), p);
              auto split = make_lbm_flow_on_ranks(default_backend(), p, comm, dims);
              const BlockExtent own = own_block(p, dims, comm);
              CellGroups before;
              for (int s = 0; s < 9; ++s) {
                CellGroups g = body_test::cube_and_plate(p, 2, 2 + s % 6, 2 + s % 4, 6, 3);
                if (s > 0) g = body_test::changed_since(before, g);
                whole->set_groups(g);
                split->set_groups(g);
                before = g;
                whole->step(), split->step();
                const std::string what = c.name + " " + storage_name(p) + " " + to_string(pattern) + " C3 rule " +
                                         body_boundary_choices().name(rule) + " " + split_name(dims, share) +
                                         ", rank " + std::to_string(comm.rank()) + ", " + std::to_string(s + 1) +
                                         " steps";
                const long mine = split_test::bit_differences(
                    split_test::block_from_whole(whole->raw_populations(), p, own), split->raw_populations());
                EXPECT_EQ(mine, 0) << what;
                // Every rank stops at once (a rank left alone would wait in the next exchange).
                ASSERT_EQ(comm.max(mine != 0 ? 1.0 : 0.0), 0.0) << what << ": populations differ on some rank";
                EXPECT_EQ(whole->mass(), split->mass()) << what;
                const Macro a = whole->macro({3, 2, 1}, {9, 8, 6}), b = split->macro({3, 2, 1}, {9, 8, 6});
                EXPECT_EQ(split_test::bit_differences(a.ux, b.ux), 0) << what;
                EXPECT_EQ(a.group, b.group) << what;
              }
            }
}

// A blow-up is found on whichever rank owns the cell, and every rank reports the same cell.
TEST(LatticeRanks, EveryRankNamesTheSameUnhealthyCell) {
  Comm& comm = world();
  LbmParams p = split_test::split_cases()[0].params;
  p.storage = Storage::fp64;
  p.tau = 0.5001;  // tests/lbm3d/cases/user_lattice_blows_up.json's unstable shear, on 12 x 10 x 8
  p.init_ux = "0.29 * sin(2 * pi * y / 10) * (z > 4 ? 1 : -1)";
  p.init_uy = "0.001 * sin(2 * pi * x / 12)";
  p.init_uz = "0";
  p.init_rho = "1";
  auto whole = make_lbm_flow(default_backend(), p);
  auto split = make_lbm_flow_on_ranks(default_backend(), p, comm, {1, comm.size(), 1});
  for (int s = 0; s < 3000 && whole->health().ok; ++s) whole->step(), split->step();
  const Health a = whole->health(), b = split->health();
  ASSERT_FALSE(a.ok) << "the test flow should blow up";
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(a.i, b.i);
  EXPECT_EQ(a.j, b.j);
  EXPECT_EQ(a.k, b.k);
  EXPECT_NE(b.what.find("(rank "), std::string::npos) << b.what;
  const std::vector<double> mine = {static_cast<double>(b.i + 100 * b.j + 10000 * b.k)};
  const std::vector<double> all = comm.allgather(mine);
  for (double x : all) EXPECT_EQ(x, all[0]) << "ranks disagree on the cell";
}
