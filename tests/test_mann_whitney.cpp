// The Mann-Whitney U test behind `immerse report --baseline` (mann_whitney.cpp), against values
// computed by hand and the textbook example of scipy's mannwhitneyu documentation.
#include <gtest/gtest.h>

#include "immerse/reports/mann_whitney.hpp"

using immerse::reports::mann_whitney_u;
using immerse::reports::UMethod;

// Complete separation, 5 against 5: U = 0 and only 1 of the C(10, 5) = 252 orderings is as extreme
// on each side, p = 2 / 252. The order of the samples does not matter.
TEST(MannWhitney, SeparatedSamplesExact) {
  const auto t = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_TRUE(t.exact);
  EXPECT_EQ(t.u, 0);
  EXPECT_NEAR(t.p, 2.0 / 252, 1e-12);
  const auto r = mann_whitney_u({10, 6, 9, 7, 8}, {3, 1, 5, 2, 4});
  EXPECT_EQ(r.u, 25);
  EXPECT_NEAR(r.p, 2.0 / 252, 1e-12);
}

// Three against three can never be significant: the smallest two-sided p is 2 / C(6, 3) = 0.1.
TEST(MannWhitney, ThreeRepetitionsCannotReachFivePercent) {
  EXPECT_NEAR(mann_whitney_u({1, 2, 3}, {4, 5, 6}).p, 0.1, 1e-12);
}

// One overlap, 4 against 4: U = 1 (5 > 4); orderings with U <= 1: U = 0 and U = 1, one each, of
// C(8, 4) = 70: p = 4 / 70.
TEST(MannWhitney, OneOverlapExact) {
  const auto t = mann_whitney_u({1, 2, 3, 5}, {4, 6, 7, 8});
  EXPECT_EQ(t.u, 1);
  EXPECT_NEAR(t.p, 4.0 / 70, 1e-12);
}

// scipy.stats.mannwhitneyu's documented example (ages of men and women, Conover): U = 17, exact
// p = 2 * 7 / 126 (7 of the C(9, 4) = 126 orderings have U <= 3), asymptotic p = 0.11134688653314041.
TEST(MannWhitney, TextbookExampleBothMethods) {
  const std::vector<double> males = {19, 22, 16, 29, 24}, females = {20, 11, 17, 12};
  const auto exact = mann_whitney_u(males, females);
  EXPECT_TRUE(exact.exact);
  EXPECT_EQ(exact.u, 17);
  EXPECT_NEAR(exact.p, 2.0 * 7 / 126, 1e-12);
  const auto normal = mann_whitney_u(males, females, UMethod::asymptotic);
  EXPECT_FALSE(normal.exact);
  EXPECT_NEAR(normal.p, 0.11134688653314041, 1e-12);
}

// Ties: x = {1, 2, 2}, y = {2, 3, 4}. Midranks 1, 3, 3 | 3, 5, 6: R1 = 7, U1 = 1, U2 = 8. One group
// of three tied values: sum(t^3 - t) = 24. sigma^2 = 3 * 3 / 12 * (7 - 24 / 30) = 4.65,
// z = (8 - 4.5 - 0.5) / sqrt(4.65) = 1.391217, p = erfc(z / sqrt 2) = 0.164160 (normal approximation
// with the tie and continuity corrections; the exact method is not used with ties).
TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
  const auto t = mann_whitney_u({1, 2, 2}, {2, 3, 4}, UMethod::exact);
  EXPECT_FALSE(t.exact);
  EXPECT_EQ(t.u, 1);
  EXPECT_NEAR(t.p, 0.16415972847851523, 1e-9);
}

// Ten against ten, separated: past 8 values a side the normal approximation is used (scipy's choice):
// sigma^2 = 100 / 12 * 21 = 175, z = (100 - 50 - 0.5) / sqrt(175), p = 1.8267e-4; the exact p is
// 2 / C(20, 10) = 1.0825e-5.
TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(100 + i);
  }
  const auto t = mann_whitney_u(a, b);
  EXPECT_FALSE(t.exact);
  EXPECT_NEAR(t.p, 1.826717911095504e-4, 1e-12);
  EXPECT_NEAR(mann_whitney_u(a, b, UMethod::exact).p, 2.0 / 184756, 1e-15);
}

TEST(MannWhitney, EqualOrEmptySamplesGiveNoEvidence) {
  EXPECT_EQ(mann_whitney_u({3, 3, 3}, {3, 3, 3}).p, 1);
  EXPECT_EQ(mann_whitney_u({}, {1, 2}).p, 1);
  EXPECT_EQ(mann_whitney_u({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}).p, 1);
}
