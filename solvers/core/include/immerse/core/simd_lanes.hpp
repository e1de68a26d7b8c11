#pragma once
// Lanes<T, Bytes>: a host SIMD vector of Bytes / sizeof(T) numbers with the arithmetic operators, so
// that a kernel's cell update written once for a number T also runs on a vector of cells (GCC's
// vector extensions: one instruction per operator at the build's vector width). Loads and stores
// are unaligned and whole-vector; a number converts by broadcast.
//
// HostLanes<T>: Lanes at the widest width this build targets (64 bytes with AVX-512F, 32 with AVX),
// defined where IMMERSE_HOST_LANES is; with AVX-512F or AVX2 (IMMERSE_HOST_GATHER) also gathers
// of doubles at int indices. Not compiled for devices (nvcc) or without AVX: there the
// kernels keep their scalar loops.
#include <cstring>
#include <type_traits>

#if defined(__GNUC__) && !defined(__NVCC__) && !defined(__CUDACC__) && defined(__AVX__)
#define IMMERSE_HOST_LANES 1
#endif

#if defined(__GNUC__) && !defined(__NVCC__) && !defined(__CUDACC__)
#if defined(IMMERSE_HOST_LANES)
#include <immintrin.h>
#endif
namespace immerse {

template <class T, int Bytes>
struct Lanes {
  typedef T V __attribute__((vector_size(Bytes)));
  static constexpr int width = Bytes / static_cast<int>(sizeof(T));
  V x;
  Lanes() = default;
  Lanes(V a) : x(a) {}
  Lanes(double s) : x(splat(static_cast<T>(s))) {}
  // Every lane s: s - 0 is s for every s (-0 too), so the compiler drops the subtraction and
  // broadcasts. (V{} + s is +0 for s = -0: the compiler must keep that addition, scalar, and
  // repeats it wherever a number meets a vector.)
  static V splat(T s) { return s - V{}; }
  static Lanes load(const T* p) {
    Lanes r;
    std::memcpy(&r.x, p, Bytes);
    return r;
  }
  // width bytes (0 or 1, say), each widened to a T.
  static Lanes load_widened(const unsigned char* p) {
    // GCC 12 widens a byte vector to doubles one byte at a time (a scalar conversion per lane):
    // zero-extend to ints, then convert them all at once.
#if defined(__AVX512F__)
    if constexpr (std::is_same_v<T, double> && Bytes == 64) {
      long long bytes;
      std::memcpy(&bytes, p, 8);
      return Lanes(
          _mm512_maskz_cvtepi32_pd(0xFF, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(bytes))));  // maskz: see gather
    }
#endif
#if defined(__AVX2__)
    if constexpr (std::is_same_v<T, double> && Bytes == 32) {
      int bytes;
      std::memcpy(&bytes, p, 4);
      return Lanes(_mm256_cvtepi32_pd(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(bytes))));
    }
#endif
    typedef unsigned char Narrow __attribute__((vector_size(Bytes / sizeof(T))));
    Narrow b;
    std::memcpy(&b, p, sizeof(b));
    return Lanes(__builtin_convertvector(b, V));
  }
  void store(T* p) const { std::memcpy(p, &x, Bytes); }
  friend Lanes operator-(Lanes a) { return -a.x; }
  friend Lanes operator+(Lanes a, Lanes b) { return a.x + b.x; }
  friend Lanes operator-(Lanes a, Lanes b) { return a.x - b.x; }
  friend Lanes operator*(Lanes a, Lanes b) { return a.x * b.x; }
  friend Lanes operator/(Lanes a, Lanes b) { return a.x / b.x; }
  Lanes& operator+=(Lanes b) {
    x += b.x;
    return *this;
  }
  Lanes& operator-=(Lanes b) {
    x -= b.x;
    return *this;
  }
  // a * b + c, a * b - c and c - a * b, rounded once where the build has FMA instructions (else
  // twice, as the operators). GCC fuses a product into a sum itself only where both stay in one
  // basic block: in the 16-bit line kernels it kept most products apart (the D3Q15 binary16 line
  // with AVX2: no fused operation of 49), and those kernels are held by the cores.
  friend Lanes mul_add(Lanes a, Lanes b, Lanes c) { return fused(a.x, b.x, c.x); }
  friend Lanes mul_sub(Lanes a, Lanes b, Lanes c) { return fused(a.x, b.x, -c.x); }
  friend Lanes neg_mul_add(Lanes a, Lanes b, Lanes c) { return fused(-a.x, b.x, c.x); }
  // a where x > 0, else b, lane by lane (a blend: both are computed).
  friend Lanes select_positive(Lanes x, Lanes a, Lanes b) { return x.x > V{} ? a.x : b.x; }
  // a * b + c in one rounding with the widths' FMA instructions (GCC folds the negations of
  // mul_sub and neg_mul_add into vfmsub and vfnmadd).
  static V fused(V a, V b, V c) {
    [[maybe_unused]] constexpr bool f = std::is_same_v<T, float>, d = std::is_same_v<T, double>;
#if defined(__FMA__)
    if constexpr (f && Bytes == 16) return V(_mm_fmadd_ps(__m128(a), __m128(b), __m128(c)));
    if constexpr (f && Bytes == 32) return V(_mm256_fmadd_ps(__m256(a), __m256(b), __m256(c)));
    if constexpr (d && Bytes == 16) return V(_mm_fmadd_pd(__m128d(a), __m128d(b), __m128d(c)));
    if constexpr (d && Bytes == 32) return V(_mm256_fmadd_pd(__m256d(a), __m256d(b), __m256d(c)));
#endif
#if defined(__AVX512F__)
    if constexpr (f && Bytes == 64) return V(_mm512_fmadd_ps(__m512(a), __m512(b), __m512(c)));
    if constexpr (d && Bytes == 64) return V(_mm512_fmadd_pd(__m512d(a), __m512d(b), __m512d(c)));
#endif
    return a * b + c;
  }
  // Lanes Shift, Shift + 1, ... of a followed by b (0 < Shift < width): the values one or more lanes
  // along from a's, where a and b are consecutive vectors of an array.
  template <int Shift>
  static Lanes along(Lanes a, Lanes b) {
    typedef std::conditional_t<sizeof(T) == 4, int, long long> I;
    typedef I Index __attribute__((vector_size(Bytes)));
    Index m;
    for (int l = 0; l < width; ++l) m[l] = l + Shift;
    return __builtin_shuffle(a.x, b.x, m);
  }
  // a's and b's first halves interleaved: a0, b0, a1, b1, ... (two colours' values back in order).
  static Lanes interleave(Lanes a, Lanes b) {
    typedef std::conditional_t<sizeof(T) == 4, int, long long> I;
    typedef I Index __attribute__((vector_size(Bytes)));
    Index m;
    for (int l = 0; l < width; ++l) m[l] = l / 2 + (l & 1) * width;
    return __builtin_shuffle(a.x, b.x, m);
  }
};

#if defined(IMMERSE_HOST_LANES)
#if defined(__AVX512F__)
constexpr int kHostVectorBytes = 64;
#else
constexpr int kHostVectorBytes = 32;
#endif
template <class T>
using HostLanes = Lanes<T, kHostVectorBytes>;

#if defined(__AVX512F__) || defined(__AVX2__)
#define IMMERSE_HOST_GATHER 1
// One int per lane of HostLanes<double>: lattice indices for gathers.
typedef int HostIndices __attribute__((vector_size(kHostVectorBytes / 2)));

// p[k[l]] in lane l.
inline HostLanes<double> gather(const double* p, HostIndices k) {
  // The masked forms with every lane on: the plain ones start from an undefined vector, which
  // GCC 12 reports as maybe uninitialised at every use.
#if defined(__AVX512F__)
  return HostLanes<double>(_mm512_mask_i32gather_pd(_mm512_setzero_pd(), 0xFF, reinterpret_cast<__m256i>(k), p, 8));
#else
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  return HostLanes<double>(_mm256_mask_i32gather_pd(_mm256_setzero_pd(), p, reinterpret_cast<__m128i>(k), all, 8));
#endif
}

// Lane l truncated towards zero (the lanes hold numbers an int holds), and back.
inline HostIndices truncate(HostLanes<double> x) { return __builtin_convertvector(x.x, HostIndices); }
inline HostLanes<double> to_real(HostIndices k) { return __builtin_convertvector(k, HostLanes<double>::V); }
#endif
#endif

}  // namespace immerse
#endif
