#pragma once
// Sums that give the same bits on every backend and thread count. Kokkos::parallel_reduce combines
// partial sums in an order that depends on the threads, so a conserved total, or a chaotic model
// driven by a sum (the Langevin turbulence statistics), changed with OMP_NUM_THREADS. Here the
// terms are grouped in rows: each row is added in order by one thread, and the row sums are added
// in index order on the host. Max/min reductions need none of this (they are exact in any order).
#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <vector>

namespace immerse {

// The N sums of each of `rows` rows: row_sum(r, acc) adds row r's terms to acc[0..N-1] in a fixed
// order; one row per work item. The rows come back to the host in index order.
template <class Exec, int N = 1, class RowSum>
std::vector<std::array<double, N>> ordered_rows(const char* name, long rows, const RowSum& row_sum) {
  Kokkos::View<double* [N], typename Exec::memory_space> partial(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), rows);
  Kokkos::parallel_for(
      name, Kokkos::RangePolicy<Exec>(0, rows), KOKKOS_LAMBDA(const long r) {
        double acc[N] = {};
        row_sum(r, acc);
        for (int k = 0; k < N; ++k) partial(r, k) = acc[k];
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partial);
  std::vector<std::array<double, N>> out(rows);
  for (long r = 0; r < rows; ++r)
    for (int k = 0; k < N; ++k) out[r][k] = host(r, k);
  return out;
}

// N sums over `rows` rows (ordered_rows), the row sums added in index order.
template <class Exec, int N = 1, class RowSum>
std::array<double, N> ordered_sum(const char* name, long rows, const RowSum& row_sum) {
  std::array<double, N> out{};
  for (const auto& row : ordered_rows<Exec, N>(name, rows, row_sum))
    for (int k = 0; k < N; ++k) out[k] += row[k];
  return out;
}

}  // namespace immerse
