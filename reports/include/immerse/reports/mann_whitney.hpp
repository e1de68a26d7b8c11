#pragma once
// The two-sided Mann-Whitney U test of two independent samples (Wilcoxon rank-sum), as Google
// Benchmark's tools/compare.py applies it to the repetitions of a benchmark row (through scipy's
// mannwhitneyu). The method follows scipy's choice: the exact distribution of U when there are no ties
// and one sample has at most 8 values, else the normal approximation with the tie correction and a
// continuity correction of 0.5.
#include <vector>

namespace immerse::reports {

struct UTest {
  double u = 0;  // U of the first sample: pairs (x, y) with x > y, ties counting one half
  double p = 1;  // two-sided p-value
  bool exact = false;
};

enum class UMethod { automatic, exact, asymptotic };

// Both samples need at least one value each (else p = 1). `exact` is refused for tied samples (the
// asymptotic method is used instead).
UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y, UMethod method = UMethod::automatic);

}  // namespace immerse::reports
