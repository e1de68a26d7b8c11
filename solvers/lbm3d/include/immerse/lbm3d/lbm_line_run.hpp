#pragma once
// A whole x line of plain water relaxed in one pass of host vectors, its two end cells included
// (GCC; FP32 and 16-bit storage: 16 cells per vector on AVX-512 hosts, 8 on AVX2 + F16C hosts).
//
// An end cell differs from the line's other cells only in the few directions that cross its x face
// (a periodic wrap, a bounce-back, a constant, a result dropped into an open face). LineEnd lists
// them, and the end's lane of the first or last vector reads and writes those directions through
// masked loads and stores plus a one-lane insert or extract. A one-cell run per end cost the
// exchange step a sixth of its time at 256^3, and a line of 64-cell runs set up each run anew.
// Lanes past the line's last cell are masked off (a resting cell).
//
// In place (the AA pattern) stays safe: each vector loads all of its inputs, the ends' included,
// before it stores a result, and an end's listed inputs and outputs are its own slots, as a one-cell
// run by its end plan reads and writes them.
//
// The arithmetic is bgk_collide on float lanes, as in the binary16 runs (lbm_half_run.hpp). For
// FP32 it may round differently in the last bit from the compiler-vectorised runs (which fuse
// multiply-adds their own way), so which lines run whole depends only on the lattice (its faces,
// bodies and groups), never on how it is split into blocks: a cell gets the same bits either way.
#include "immerse/lbm3d/lbm_half_run.hpp"

#if defined(IMMERSE_HALF_SIMD)
#define IMMERSE_LBM_LINE_VECTORS 1
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "immerse/core/prefetch.hpp"
#include "immerse/core/shifted16.hpp"
#include "immerse/lbm3d/lbm_kernels.hpp"
#include "immerse/lbm3d/streaming_store.hpp"

namespace immerse::lbm3d {

// One vector's cells, its float lanes, and a set of its lanes as bits (lane l: bit l).
#if defined(IMMERSE_HALF_AVX512)
inline constexpr int kLineWidth = 16;
#else
inline constexpr int kLineWidth = 8;
#endif
using LineLanes = FloatLanes<4 * kLineWidth>;
using LineMask = unsigned;
inline constexpr LineMask kAllLanes = (1u << kLineWidth) - 1;

// An end cell of a line: where its plan reads or writes a direction elsewhere than the line's run.
// Offsets are from the line's first cell in the population buffer (the block stride included).
// Kept by direction, not as a list: the vector code then visits q = 0 .. 14 in an unrolled loop and
// its 15 vectors stay in registers (a list's runtime q put them on the stack, and the exchange step
// took 8 % (FP32) and 4 % (binary16) longer at 256^3).
template <class Pop>
struct LineEnd {
  enum Kind : unsigned char { kLine, kConstant, kSlot };
  int cell = 0;                   // 0 or nx - 1
  unsigned char read[15] = {};    // direction q arrives from the run (kLine), as value[q], or from read_at[q]
  long read_at[15] = {};          // the slot of a kSlot read
  unsigned char write[15] = {};   // result q goes to the run (kLine), to write_at[q], or (kConstant, an
  long write_at[15] = {};         // open face) nowhere, value[-q] taking write_at[q] instead
  Pop value[15] = {};             // constant-kind populations as stored, by direction
  unsigned short load_keep[15];   // by direction: the lanes of the cell's vector loaded from the line
  unsigned short store_keep[15];  // by direction: the lanes stored to the line

  LineEnd() {
    for (int q = 0; q < 15; ++q) load_keep[q] = store_keep[q] = kAllLanes;
  }
  unsigned short lane_bit() const { return static_cast<unsigned short>(1u << (cell % kLineWidth)); }
  void add_read(const int q, const bool constant, const long at) {
    read[q] = constant ? kConstant : kSlot;
    read_at[q] = at;
    load_keep[q] &= static_cast<unsigned short>(~lane_bit());
  }
  void add_write(const int q, const bool constant, const long at) {
    write[q] = constant ? kConstant : kSlot;
    write_at[q] = at;
    store_keep[q] &= static_cast<unsigned short>(~lane_bit());
  }
};

// The stored type's vector of kLineWidth cells: the raw stored lanes, and the float lanes of the
// arithmetic. Loads with a mask fill the lanes left out with a resting cell (no division by zero):
// 1/15 for full populations, 0 for deviations.
template <class Pop>
struct LineVector;

#if defined(IMMERSE_HALF_AVX512)
template <>
struct LineVector<float> {
  using Raw = __m512;
  static constexpr bool kShifted = false;  // full populations
  static Raw load(const float* p) { return _mm512_loadu_ps(p); }
  static Raw load(const float* p, LineMask m) {
    return _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f / 15.0f), static_cast<__mmask16>(m), p);
  }
  static Raw with_lane(Raw v, int lane, float x) {
    return _mm512_mask_broadcastss_ps(v, __mmask16(1u << lane), _mm_set_ss(x));
  }
  static LineLanes widen(Raw v) { return LineLanes(v); }
  static Raw narrow(LineLanes x) { return x.x; }
  static void store(float* p, Raw v) { _mm512_storeu_ps(p, v); }
  static void store(float* p, LineMask m, Raw v) { _mm512_mask_storeu_ps(p, static_cast<__mmask16>(m), v); }
  static float lane(Raw v, int lane) {
    return _mm512_cvtss_f32(_mm512_maskz_permutexvar_ps(__mmask16(0xFFFF), _mm512_set1_epi32(lane), v));
  }
};

// The raw lanes of a 16-bit stored type P: deviations (lbm_storage.hpp); masked-off lanes: 0, the rest state.
template <class P>
struct LineVector16 {
  using Raw = __m256i;
  static constexpr bool kShifted = true;
  static Raw load(const P* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static Raw load(const P* p, LineMask m) { return _mm256_maskz_loadu_epi16(static_cast<__mmask16>(m), p); }
  static Raw with_lane(Raw v, int lane, P x) {
    return _mm256_mask_set1_epi16(v, __mmask16(1u << lane), static_cast<short>(x));
  }
  static void store(P* p, Raw v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static void store(P* p, LineMask m, Raw v) { _mm256_mask_storeu_epi16(p, static_cast<__mmask16>(m), v); }
  static P lane(Raw v, int lane) {
    const __m256i x = _mm256_permutexvar_epi16(_mm256_set1_epi16(static_cast<short>(lane)), v);
    return static_cast<P>(static_cast<std::uint16_t>(_mm_cvtsi128_si32(_mm256_castsi256_si128(x))));
  }
};

template <>
struct LineVector<std::uint16_t> : LineVector16<std::uint16_t> {  // binary16
  // The zero-masked forms with every lane set: the same instructions, and GCC 12's plain forms pass
  // an undefined vector that -Wuninitialized reports at every use.
  static LineLanes widen(Raw v) { return LineLanes(_mm512_maskz_cvtph_ps(__mmask16(0xFFFF), v)); }
  static Raw narrow(LineLanes x) {
    return _mm512_maskz_cvtps_ph(__mmask16(0xFFFF), x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
};

template <>
struct LineVector<Fp16c> : LineVector16<Fp16c> {  // FluidX3D's format, converted in integer lanes
  static LineLanes widen(Raw v) { return LineLanes(fp16c_to_float16(v)); }
  static Raw narrow(LineLanes x) { return float16_to_fp16c(x.x); }
};

#else
// AVX2: no mask registers. The masked forms (an end's lanes, a line's last cells, the lanes next to
// a body) go through lane masks in vector registers (FP32) or an 8-cell buffer (16-bit storage).
inline __m256i line_lanes(const LineMask m) {  // all ones in the lanes of m
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(m)), bit), bit);
}

template <>
struct LineVector<float> {
  using Raw = __m256;
  static constexpr bool kShifted = false;  // full populations
  static Raw load(const float* p) { return _mm256_loadu_ps(p); }
  static Raw load(const float* p, LineMask m) {
    if (m == kAllLanes) return load(p);  // the near-body vectors' usual case
    const __m256i k = line_lanes(m);
    return _mm256_blendv_ps(_mm256_set1_ps(1.0f / 15.0f), _mm256_maskload_ps(p, k), _mm256_castsi256_ps(k));
  }
  static Raw with_lane(Raw v, int lane, float x) {
    return _mm256_blendv_ps(v, _mm256_set1_ps(x), _mm256_castsi256_ps(line_lanes(1u << lane)));
  }
  static LineLanes widen(Raw v) { return LineLanes(v); }
  static Raw narrow(LineLanes x) { return x.x; }
  static void store(float* p, Raw v) { _mm256_storeu_ps(p, v); }
  static void store(float* p, LineMask m, Raw v) {
    if (m == kAllLanes)
      store(p, v);
    else
      _mm256_maskstore_ps(p, line_lanes(m), v);
  }
  static float lane(Raw v, int lane) { return _mm256_cvtss_f32(_mm256_permutevar8x32_ps(v, _mm256_set1_epi32(lane))); }
};

// The raw lanes of a 16-bit stored type P: deviations; lanes left out: 0, the rest state.
template <class P>
struct LineVector16 {
  using Raw = __m128i;
  static constexpr bool kShifted = true;
  static Raw load(const P* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  // A masked load gathers the lanes of m in two 64-bit halves in registers, and with_lane blends:
  // a buffer written lane by lane and read back whole waits for those stores (they cannot be
  // forwarded to the wider load), which made a line's two end vectors a sixth of the binary16
  // exchange step at 256^3. Lanes left out are not read: at a line's end they may be another
  // line's cells. A masked store goes through a buffer read back lane by lane, which forwards.
  // The two masks an end leaves in a whole vector, every lane but the first (cell 0 of a line) or
  // but the last (cell nx - 1), take two overlapping 8-byte loads or stores of exactly those lanes
  // instead: lane by lane, the two end vectors cost 2.2 plain ones each.
  static constexpr LineMask kButFirst = kAllLanes & ~1u, kButLast = kAllLanes >> 1;
  static Raw load(const P* p, LineMask m) {
    if (m == kAllLanes) return load(p);
    if (m == kButFirst)  // lanes 1-3 (from a load of 1-4) and 4-7
      return _mm_unpacklo_epi64(_mm_slli_si128(load8(p + 1), 2), load8(p + 4));
    if (m == kButLast)  // lanes 0-3, and 4-6 (from a load of 3-6)
      return _mm_unpacklo_epi64(load8(p), _mm_srli_si128(load8(p + 3), 2));
    std::uint64_t half[2] = {0, 0};
    for (int l = 0; l < 8; ++l)
      if (m >> l & 1u) half[l / 4] |= std::uint64_t(bits(p[l])) << 16 * (l % 4);
    return _mm_set_epi64x(static_cast<long long>(half[1]), static_cast<long long>(half[0]));
  }
  static Raw with_lane(Raw v, int lane, P x) {  // a blend with x in every lane, in registers
    const __m128i at =
        _mm_cmpeq_epi16(_mm_set1_epi16(static_cast<short>(lane)), _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm_blendv_epi8(v, _mm_set1_epi16(static_cast<short>(bits(x))), at);
  }
  static void store(P* p, Raw v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
  static void store(P* p, LineMask m, Raw v) {
    if (m == kAllLanes) return store(p, v);
    if (m == kButFirst) {  // lanes 1-4 and 4-7
      store8(p + 1, _mm_srli_si128(v, 2));
      store8(p + 4, _mm_unpackhi_epi64(v, v));
      return;
    }
    if (m == kButLast) {  // lanes 0-3 and 3-6
      store8(p, v);
      store8(p + 3, _mm_srli_si128(v, 6));
      return;
    }
    alignas(16) P part[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(part), v);
    for (int l = 0; l < 8; ++l)
      if (m >> l & 1u) p[l] = part[l];
  }
  static P lane(Raw v, int lane) {
    alignas(16) P part[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(part), v);
    return part[lane];
  }
  static std::uint16_t bits(P x) { return static_cast<std::uint16_t>(x); }
  // Four lanes from p (the rest 0), and the low four lanes of v to p.
  static __m128i load8(const P* p) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)); }
  static void store8(P* p, const __m128i v) { _mm_storel_epi64(reinterpret_cast<__m128i*>(p), v); }
};

template <>
struct LineVector<std::uint16_t> : LineVector16<std::uint16_t> {  // binary16
  static LineLanes widen(Raw v) { return LineLanes(_mm256_cvtph_ps(v)); }
  static Raw narrow(LineLanes x) { return _mm256_cvtps_ph(x.x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
};

template <>
struct LineVector<Fp16c> : LineVector16<Fp16c> {  // FluidX3D's format, converted in integer lanes
  static LineLanes widen(Raw v) { return LineLanes(fp16c_to_float8(v)); }
  static Raw narrow(LineLanes x) { return float8_to_fp16c(x.x); }
};

#endif

template <class Pop>
constexpr bool kLineVectors = std::is_same_v<Pop, float> || kShifted16<Pop>;

// The vector of cells a0 .. a0 + kLineWidth - 1, direction q of cell a from in[q][a], result q to out[q][a].
// Edge: a vector with an end (first / last: nullptr if not here) or past the line's last cell (mask:
// the cells in the line); the others load and store without masks, which on AMD's cores cost
// several times a plain store.
template <bool Forced, bool Edge, class Pop>
__attribute__((always_inline)) inline void relax_line_vector(const BgkCoefficients<LineLanes>& c, Pop* const in[15],
                                                             Pop* const out[15], Pop* const line, const int a0,
                                                             const LineMask mask, const LineEnd<Pop>* const first,
                                                             const LineEnd<Pop>* const last) {
  using V = LineVector<Pop>;
  typename V::Raw raw[15];
  if constexpr (!Edge) {
    for (int q = 0; q < 15; ++q) raw[q] = V::load(in[q] + a0);
  } else {
    for (int q = 0; q < 15; ++q) {
      const LineMask keep = mask & (first ? first->load_keep[q] : kAllLanes) & (last ? last->load_keep[q] : kAllLanes);
      raw[q] = keep == kAllLanes ? V::load(in[q] + a0) : V::load(in[q] + a0, keep);
    }
#pragma GCC unroll 15
    for (int q = 0; q < 15; ++q)
      for (const LineEnd<Pop>* e : {first, last})
        if (e && e->read[q] != LineEnd<Pop>::kLine)
          raw[q] = V::with_lane(raw[q], e->cell - a0,
                                e->read[q] == LineEnd<Pop>::kConstant ? e->value[q] : line[e->read_at[q]]);
  }
  LineLanes f[15], g[15];
  for (int q = 0; q < 15; ++q) f[q] = V::widen(raw[q]);
  bgk_collide<Forced, V::kShifted>(c, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12],
                                   f[13], f[14], g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10],
                                   g[11], g[12], g[13], g[14]);
  for (int q = 0; q < 15; ++q) raw[q] = V::narrow(g[q]);
  if constexpr (!Edge) {
    for (int q = 0; q < 15; ++q) V::store(out[q] + a0, raw[q]);
  } else {
    for (int q = 0; q < 15; ++q) {
      const LineMask keep =
          mask & (first ? first->store_keep[q] : kAllLanes) & (last ? last->store_keep[q] : kAllLanes);
      if (keep == kAllLanes)
        V::store(out[q] + a0, raw[q]);
      else
        V::store(out[q] + a0, keep, raw[q]);
    }
#pragma GCC unroll 15
    for (int q = 0; q < 15; ++q)
      for (const LineEnd<Pop>* e : {first, last})
        if (e && e->write[q] != LineEnd<Pop>::kLine)
          line[e->write_at[q]] =
              e->write[q] == LineEnd<Pop>::kConstant ? e->value[D3Q15::opposite(q)] : V::lane(raw[q], e->cell - a0);
  }
}

// The n cells of a line; `line` is its first cell, which the ends' offsets start from (ends:
// cells 0 and n - 1, or nullptr: none listed, as in the local step).
template <bool Forced, class Pop>
inline void relax_line(const BgkCoefficients<LineLanes>& c, Pop* const in[15], Pop* const out[15], Pop* const line,
                       const int n, const LineEnd<Pop>* const ends) {
  constexpr int kWidth = kLineWidth;
  // Prefetch 512 bytes ahead, once per cache line (of 256, 512 and 1024, the fastest at 256^3).
  constexpr int kAhead = 512 / static_cast<int>(sizeof(Pop));
  const int a_last = (n - 1) / kWidth * kWidth;  // the vector holding the last cell
  // With ends the first vector goes last: its reads across a periodic x face are the far end of a
  // line, which the line's last vectors have brought into the cache by then. Without, in order.
  const int start = ends && a_last > 0 ? kWidth : 0;
  for (int a0 = start; a0 <= a_last; a0 += kWidth) {
    if ((a0 * static_cast<int>(sizeof(Pop))) % 64 == 0)
      for (int q = 0; q < 15; ++q) prefetch_write(in[q] + a0 + kAhead);
    // An edge vector holds an end with its fixes, or cells past the line's last (masked off).
    const bool edge = ends ? a0 == 0 || a0 == a_last : n - a0 < kWidth;
    if (!edge) {
      relax_line_vector<Forced, false, Pop>(c, in, out, line, a0, kAllLanes, nullptr, nullptr);
      continue;
    }
    const LineMask mask = n - a0 >= kWidth ? kAllLanes : (1u << (n - a0)) - 1;
    const LineEnd<Pop>* first = ends && a0 == 0 ? &ends[0] : nullptr;
    relax_line_vector<Forced, true, Pop>(c, in, out, line, a0, mask, first, ends ? &ends[1] : nullptr);
  }
  if (start > 0) relax_line_vector<Forced, true, Pop>(c, in, out, line, 0, kAllLanes, ends, nullptr);
}

}  // namespace immerse::lbm3d
#endif
