#pragma once
// Software prefetch hints for the host's streaming kernels: bring the cache line holding p into
// the caches ahead of its use, for reading (the shallow-water lattice's sources) or for writing
// (the D3Q15 line kernel, which writes back the populations it reads). No fault for any address;
// nothing on devices or other compilers.
namespace immerse {

#if defined(__GNUC__) && !defined(__CUDACC__)
// always_inline: GCC counts __builtin_prefetch as free of side effects, so a wrapper it does not
// inline early (inside the D3Q15 whole-line kernel, a large function, it did not) is found to be a
// const function and its calls are deleted as dead code, prefetch and all.
template <class T>
__attribute__((always_inline)) inline void prefetch_read(const T* p) {
  __builtin_prefetch(p, 0, 3);
}
template <class T>
__attribute__((always_inline)) inline void prefetch_write(const T* p) {
  __builtin_prefetch(p, 1, 3);
}
#else
template <class T>
inline void prefetch_read(const T*) {}
template <class T>
inline void prefetch_write(const T*) {}
#endif

}  // namespace immerse
