#include "immerse/reports/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace immerse::reports {
namespace {

// P(U <= u) under the null hypothesis for samples of n and m values without ties: the number of
// orderings of n x's and m y's with U = k, c(n, m, k) = c(n - 1, m, k - m) + c(n, m - 1, k) (the
// largest value is an x, above all m y's, or a y), over C(n + m, n).
double exact_cdf(std::size_t n, std::size_t m, std::size_t u) {
  const std::size_t umax = n * m;
  // counts[j][k] for the current i: orderings of i x's and j y's with U = k.
  std::vector<std::vector<double>> prev(m + 1, std::vector<double>(umax + 1, 0.0)), cur = prev;
  for (std::size_t j = 0; j <= m; ++j) prev[j][0] = 1;  // i = 0: one ordering, U = 0
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 0; j <= m; ++j)
      for (std::size_t k = 0; k <= umax; ++k) {
        double c = k >= j ? prev[j][k - j] : 0.0;
        if (j > 0) c += cur[j - 1][k];
        cur[j][k] = c;
      }
    std::swap(prev, cur);
  }
  double below = 0, total = 0;
  for (std::size_t k = 0; k <= umax; ++k) {
    total += prev[m][k];
    if (k <= u) below += prev[m][k];
  }
  return below / total;
}

}  // namespace

UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y, UMethod method) {
  UTest t;
  const std::size_t n = x.size(), m = y.size();
  if (n == 0 || m == 0) return t;
  // Midranks of the pooled sample; the tie term sum(t^3 - t) over groups of equal values.
  std::vector<std::pair<double, bool>> pooled;  // value, from x
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0, tie_term = 0;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double midrank = 0.5 * double(i + 1 + j), group = double(j - i);
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_x += midrank;
    tie_term += group * group * group - group;
    i = j;
  }
  const double nm = double(n) * double(m), total = double(n + m);
  t.u = rank_sum_x - double(n) * double(n + 1) / 2;
  const double u_high = std::max(t.u, nm - t.u);
  const bool ties = tie_term > 0;
  t.exact = method == UMethod::exact ? !ties : method == UMethod::automatic && !ties && (n <= 8 || m <= 8);
  if (t.exact) {
    // Two-sided: twice the tail beyond the observed U (the distribution is symmetric about nm / 2).
    const auto u_low = static_cast<std::size_t>(std::llround(nm - u_high));
    t.p = std::min(1.0, 2 * exact_cdf(n, m, u_low));
    return t;
  }
  const double variance = nm / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return t;  // every value equal: no evidence either way
  const double z = (u_high - nm / 2 - 0.5) / std::sqrt(variance);
  t.p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));  // 2 * (1 - Phi(z))
  return t;
}

}  // namespace immerse::reports
