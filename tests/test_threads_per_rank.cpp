// threads_per_rank (backend_id.hpp): each of several ranks on one machine takes its share of the
// machine's processors for OpenMP, never more than OpenMP would start (the processors the launcher
// bound it to) and never none.
#include <gtest/gtest.h>

#include "immerse/core/backend_id.hpp"

using immerse::threads_per_rank;

TEST(ThreadsPerRank, UnboundRanksShareTheMachine) {
  EXPECT_EQ(threads_per_rank(2, 2, 4), 1);  // --oversubscribe: more ranks than processors
  EXPECT_EQ(threads_per_rank(2, 2, 2), 1);
  EXPECT_EQ(threads_per_rank(16, 16, 2), 8);
  EXPECT_EQ(threads_per_rank(16, 16, 3), 5);  // the remainder stays idle, not oversubscribed
}

TEST(ThreadsPerRank, BoundRanksKeepTheirOwnProcessors) {
  EXPECT_EQ(threads_per_rank(1, 16, 2), 1);  // --bind-to core
  EXPECT_EQ(threads_per_rank(8, 16, 4), 4);  // --bind-to socket, two sockets of 8
}

TEST(ThreadsPerRank, OneRankKeepsOpenMPsChoice) { EXPECT_EQ(threads_per_rank(6, 16, 1), 6); }
