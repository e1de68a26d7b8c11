#pragma once
// Where several equally long arrays are streamed together (the lattice's population blocks, the
// penalty solver's fields), they live in one allocation at this distance apart: the length
// rounded up to 4 KiB, plus 17 cache lines. At a distance of a multiple of 4 KiB the same element
// of every array shares its address modulo 4 KiB: the arrays compete for one L1 set and their
// loads and stores alias in the store buffer (the D3Q15 line kernel ran more than twice as
// slowly, the penalty step at 2048^2 two thirds as fast). An odd number of lines, 17, puts
// array q on L1 set 17 q mod 64: up to 64 arrays all on different sets.
namespace immerse {

// In elements of T.
template <class T>
inline long block_stride(long length) {
  constexpr long page = 4096 / sizeof(T), line = 64 / sizeof(T);
  return (length + page - 1) / page * page + 17 * line;
}

}  // namespace immerse
