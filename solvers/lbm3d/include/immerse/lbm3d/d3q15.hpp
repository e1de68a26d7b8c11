#pragma once
// The D3Q15 velocity set with rest particle: direction 0 at rest, 1-6 the face neighbours, 7-14 the
// cube corners. Weights 2/9, 1/9, 1/72 (sum 1); c_s^2 = 1/3. opposite(q) reverses e_q.
// Local constexpr arrays inside KOKKOS_INLINE_FUNCTIONs keep the tables usable in device code.
#include <Kokkos_Core.hpp>

namespace immerse::lbm3d {

struct D3Q15 {
  static constexpr int Q = 15;
  // Closed forms instead of lookup tables: a local table indexed by a run-time q is rebuilt on the
  // stack at every call by GCC (it cost a factor ~20 in the fused kernel), and static tables are not
  // allowed in CUDA device functions. Faces: q = 1..6 -> axis (q-1)/2, sign + for odd q. Corners:
  // q = 7..14 in opposite pairs, pair p = (q-7)/2 -> (1,1,1), (1,1,-1), (1,-1,1), (1,-1,-1), sign + for odd q.
  KOKKOS_INLINE_FUNCTION static int sign(int q) { return q % 2 == 1 ? 1 : -1; }
  KOKKOS_INLINE_FUNCTION static int cx(int q) { return q == 0 ? 0 : q <= 6 ? (q <= 2 ? sign(q) : 0) : sign(q); }
  KOKKOS_INLINE_FUNCTION static int cy(int q) {
    return q == 0 ? 0 : q <= 6 ? (q == 3 || q == 4 ? sign(q) : 0) : ((q - 7) / 2 < 2 ? sign(q) : -sign(q));
  }
  KOKKOS_INLINE_FUNCTION static int cz(int q) {
    return q == 0 ? 0 : q <= 6 ? (q >= 5 ? sign(q) : 0) : (((q - 7) / 2) % 2 == 0 ? sign(q) : -sign(q));
  }
  // Pairs (1,2), (3,4), ... are opposite by construction.
  KOKKOS_INLINE_FUNCTION static int opposite(int q) { return q == 0 ? 0 : (q % 2 == 1 ? q + 1 : q - 1); }
  KOKKOS_INLINE_FUNCTION static double w(int q) { return q == 0 ? 2.0 / 9.0 : (q <= 6 ? 1.0 / 9.0 : 1.0 / 72.0); }

  // BGK equilibrium, second order in u: w_q rho (1 + 3 e.u + 9/2 (e.u)^2 - 3/2 u^2).
  template <class Real>
  KOKKOS_INLINE_FUNCTION static Real feq(int q, Real rho, Real ux, Real uy, Real uz) {
    const Real eu = cx(q) * ux + cy(q) * uy + cz(q) * uz;
    const Real uu = ux * ux + uy * uy + uz * uz;
    return Real(w(q)) * rho * (Real(1) + Real(3) * eu + Real(4.5) * eu * eu - Real(1.5) * uu);
  }
};

// Cell groups of the paper's section 3.2 (Fig. 3), stored one byte per cell. Water cells (B, C3) collide
// and stream; body cells (C1, C2, A) hold populations set from the body and are never streamed into.
enum Group : unsigned char {
  kWater = 0,     // B: water, no body neighbour
  kNearBody = 1,  // C3: water with at least one body neighbour (receives from it: BodyBoundary)
  kSurface = 2,   // C1: the surface passes through it: f_eq(rho0, local surface velocity)
  kInnerRim = 3,  // C2: inside with at least one C1 neighbour: average of the C1 neighbours' populations
  kInner = 4,     // A: inside, all neighbours inside: populations zero
};
KOKKOS_INLINE_FUNCTION bool is_body(unsigned char g) { return g >= kSurface; }

}  // namespace immerse::lbm3d
