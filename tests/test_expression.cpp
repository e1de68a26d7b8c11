// Formulas from case files: values against hand-computed ones, errors named.
#include <gtest/gtest.h>

#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"

TEST(Expression, EvaluatesVariablesAndFunctions) {
  immerse::Expression e("4 * y * (1 - y) + sin(pi * x) * t", "k");
  EXPECT_DOUBLE_EQ(e(0.5, 0.25, 0, 2.0), 4 * 0.25 * 0.75 + std::sin(M_PI * 0.5) * 2.0);
  EXPECT_TRUE(e.uses("t"));
  EXPECT_FALSE(e.uses("z"));
}

TEST(Expression, FloorReproducesIntegerArithmetic) {
  // The patent's inflow s_j = (Y - j) * j / Y in C integer arithmetic, Y = 10.
  immerse::Expression profile("floor((10 - (2*y + 1)) * (2*y + 1) / 10)", "k");
  const int expected[5] = {0, 1, 2, 2, 1};  // j = 0, 2, 4, 6, 8
  for (int c = 0; c < 5; ++c) EXPECT_EQ(profile(0, c - 0.5), expected[c]) << "cell " << c;
}

TEST(Expression, BadFormulaNamesTheKey) {
  try {
    immerse::Expression e("4 * (y", "case.json: key 'boundaries.inflow_u'");
    FAIL() << "no error";
  } catch (const immerse::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("boundaries.inflow_u"), std::string::npos) << e.what();
  }
}
