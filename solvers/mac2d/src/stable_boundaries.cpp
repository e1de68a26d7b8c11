// Stable Fluids boundaries: the sides' wall, inflow and outflow values (sample_walls, apply_walls),
// the faces a body fixes (apply_fixed) and the body's face constraints from the boundary map or the
// staircase (set_constraints).
#include "immerse/core/backend.hpp"
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {
namespace {
// A face less than this fraction open is closed (weight 0, the body's velocity): the small-cut-cell
// rule. A cell whose only fluid opening is such a face has a pressure of order b / W, and the
// projection then drives the face at the body's net flux over its open fraction: 3.3 m/s in the
// 1 m/s windmill jet at 128^2 (measured, one step), 20 m/s in the test
// StableFluid.FaceBelowTheMinimumFractionIsClosed. Closing it moves at most 1 % of one face's flux.
constexpr double kMinFaceFraction = 0.01;

// Position of the boundary face centre k (1-based cell index along the side) of side s.
std::array<double, 2> side_point(const StableParams& p, int s, int k) {
  const double along = (k - 0.5) * p.h;
  if (s == kLeft) return {0, along};
  if (s == kRight) return {p.nx * p.h, along};
  if (s == kBottom) return {along, 0};
  return {along, p.ny * p.h};
}
}  // namespace

template <class Exec>
void StableSolver<Exec>::sample_walls(double t) {
  auto ht = Kokkos::create_mirror_view(btype_);
  auto hn = Kokkos::create_mirror_view(bnormal_);
  for (int s = 0; s < 4; ++s) {
    const int len = s < 2 ? p_.ny : p_.nx;
    const double sign = (s == kLeft || s == kBottom) ? 1 : -1;  // into the domain
    for (int k = 0; k <= len + 1; ++k) {
      const auto x = side_point(p_, s, std::max(1, std::min(len, k)));
      WallType type = p_.walls[s].type;
      double speed = type == WallType::inflow ? side_inflow_[s](x[0], x[1], 0, t) : 0.0;
      for (size_t q = 0; q < p_.jets.size(); ++q) {
        const double along = s < 2 ? x[1] : x[0];
        if (p_.jets[q].side == s && along >= p_.jets[q].from && along <= p_.jets[q].to) {
          type = WallType::inflow;
          speed = jet_speed_[q](x[0], x[1], 0, t);
        }
      }
      ht(k, s) = static_cast<int>(type);
      hn(k, s) = sign * speed;
    }
  }
  Kokkos::deep_copy(btype_, ht);
  Kokkos::deep_copy(bnormal_, hn);
}

template <class Exec>
void StableSolver<Exec>::apply_walls(bool extrapolate_outflow) {
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1];
  auto bt = btype_;
  auto bn = bnormal_;
  const double tl = p_.walls[kLeft].tangential, tr = p_.walls[kRight].tangential;
  const double tb = p_.walls[kBottom].tangential, tt = p_.walls[kTop].tangential;
  const bool ex = extrapolate_outflow;
  constexpr int kOut = static_cast<int>(WallType::outflow), kNoslip = static_cast<int>(WallType::noslip),
                kIn = static_cast<int>(WallType::inflow);
  // Normal faces: prescribed (walls, inflow) or extrapolated (outflow; the projection then corrects them).
  list_for<Exec>(
      "stable_walls_normal", 1, std::max(g.nx, g.ny) + 1, KOKKOS_LAMBDA(int k) {
        if (k <= g.ny) {
          if (bt(k, 0) != kOut)
            u(g.at(0, k)) = bn(k, 0);
          else if (ex)
            u(g.at(0, k)) = u(g.at(1, k));
          if (bt(k, 1) != kOut)
            u(g.at(g.nx, k)) = bn(k, 1);
          else if (ex)
            u(g.at(g.nx, k)) = u(g.at(g.nx - 1, k));
        }
        if (k <= g.nx) {
          if (bt(k, 2) != kOut)
            v(g.at(k, 0)) = bn(k, 2);
          else if (ex)
            v(g.at(k, 0)) = v(g.at(k, 1));
          if (bt(k, 3) != kOut)
            v(g.at(k, g.ny)) = bn(k, 3);
          else if (ex)
            v(g.at(k, g.ny)) = v(g.at(k, g.ny - 1));
        }
      });
  // Tangential ghosts: no-slip mirrors about the wall velocity, inflow has zero tangential velocity,
  // slip and outflow copy the first interior value.
  list_for<Exec>(
      "stable_walls_ghost", 0, std::max(g.nx, g.ny) + 1, KOKKOS_LAMBDA(int k) {
        auto ghost = [](int type, double wall, double inner) {
          return type == kNoslip ? 2 * wall - inner : type == kIn ? -inner : inner;
        };
        if (k <= g.ny) {
          const int kk = k < 1 ? 1 : (k > g.ny ? g.ny : k);
          v(g.at(0, k)) = ghost(bt(kk, 0), tl, v(g.at(1, k)));
          v(g.at(g.nx + 1, k)) = ghost(bt(kk, 1), tr, v(g.at(g.nx, k)));
        }
        if (k <= g.nx) {
          const int kk = k < 1 ? 1 : (k > g.nx ? g.nx : k);
          u(g.at(k, 0)) = ghost(bt(kk, 2), tb, u(g.at(k, 1)));
          u(g.at(k, g.ny + 1)) = ghost(bt(kk, 3), tt, u(g.at(k, g.ny)));
        }
      });
}

template <class Exec>
void StableSolver<Exec>::apply_fixed() {
  for (int c = 0; c < 2; ++c) {
    auto f = vel_[c];
    auto code = code_[c];
    auto bv = bval_[c];
    auto idx = touched_[c];
    if (touched_n_[c] == 0) continue;
    list_for<Exec>(
        "stable_fixed", 0, static_cast<int>(touched_n_[c]), KOKKOS_LAMBDA(int k) {
          if (code(idx(k)) == kFaceFixed) f(idx(k)) = bv(idx(k));
        });
  }
}

template <class Exec>
void StableSolver<Exec>::set_constraints(const std::vector<FaceConstraint>& faces) {
  const bool changes = touched_n_[0] + touched_n_[1] > 0 || !faces.empty();
  if (changes) ++weights_version_;  // wgt_ changes below
  std::vector<int> now;             // the new constraints' cells, both components
  for (int c = 0; c < 2; ++c) {
    // Restore the walls-only values where the previous constraints were.
    if (touched_n_[c] > 0) {
      auto idx = touched_[c];
      auto w = wgt_[c], w0 = wgt0_[c], dd = ddiag_[c], dd0 = ddiag0_[c], dr = drhs_[c], dr0 = drhs0_[c], bv = bval_[c];
      auto dm = dmask_[c], dm0 = dmask0_[c], code = code_[c];
      list_for<Exec>(
          "stable_unconstrain", 0, static_cast<int>(touched_n_[c]), KOKKOS_LAMBDA(int k) {
            const int f = idx(k);
            w(f) = w0(f);
            dd(f) = dd0(f);
            dr(f) = dr0(f);
            dm(f) = dm0(f);
            code(f) = kFaceFree;
            bv(f) = 0;
          });
    }
    size_t count = 0;
    for (const auto& f : faces) count += f.c == c;
    // The staging views are reused from step to step (a body's face count barely changes); they grow
    // with head room, so the per-step cost is the copy of the live entries only.
    if (touched_[c].extent(0) < count) {
      const size_t cap = count + count / 2 + 64;
      touched_[c] = Kokkos::View<int*, device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "touched"), cap);
      cval_[c] = Kokkos::View<double* [4], device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "constraint"), cap);
      cbits_[c] = Kokkos::View<unsigned char* [2], device>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "constraint_bits"), cap);
    }
    auto idx = touched_[c];
    auto val = cval_[c];    // weight, ub, diag add, rhs add
    auto bits = cbits_[c];  // fixed, mask
    auto hi = Kokkos::create_mirror_view(idx);
    auto hv = Kokkos::create_mirror_view(val);
    auto hbits = Kokkos::create_mirror_view(bits);
    size_t k = 0;
    for (const auto& f : faces) {
      if (f.c != c) continue;
      hi(k) = g_.at(f.i, f.j);
      const bool closed = f.weight < kMinFaceFraction;
      hv(k, 0) = closed ? 0.0 : std::min(f.weight, 1.0);
      hv(k, 1) = f.ub;
      hv(k, 2) = 0;
      hv(k, 3) = 0;
      unsigned char mask = 0;
      for (int d = 0; d < 4; ++d)
        if (f.cut[d] < 1) {
          // The neighbour across the boundary is replaced by the boundary value at distance theta:
          // a (phi_nb - phi) -> a (ub - phi) / theta. Theta >= 1e-3 keeps the diagonal bounded.
          const double theta = std::max(f.cut[d], 1e-3);
          mask |= static_cast<unsigned char>(1u << d);
          hv(k, 2) += 1 / theta - 1;
          hv(k, 3) += f.cut_ub[d] / theta;
        }
      hbits(k, 0) = f.fixed || closed ? kFaceFixed : kFacePartial;
      hbits(k, 1) = mask;
      ++k;
    }
    if (count > 0) {
      Kokkos::deep_copy(idx, hi);
      Kokkos::deep_copy(val, hv);
      Kokkos::deep_copy(bits, hbits);
    }
    touched_n_[c] = count;
    for (size_t q = 0; q < count; ++q) now.push_back(hi(q));
    if (count == 0) continue;
    auto w = wgt_[c], w0 = wgt0_[c], dd = ddiag_[c], dd0 = ddiag0_[c], dr = drhs_[c], dr0 = drhs0_[c], bv = bval_[c];
    auto dm = dmask_[c], dm0 = dmask0_[c], code = code_[c];
    list_for<Exec>(
        "stable_constrain", 0, static_cast<int>(count), KOKKOS_LAMBDA(int q) {
          const int f = idx(q);
          w(f) = w0(f) * val(q, 0);
          bv(f) = val(q, 1);
          // A wall's own stencil entries stay (dd0, dr0, dm0); the body's are added; a masked wall
          // neighbour is not masked twice.
          const unsigned char add = static_cast<unsigned char>(bits(q, 1) & ~dm0(f));
          dm(f) = dm0(f) | add;
          dd(f) = dd0(f) + (add ? val(q, 2) : 0.0);
          dr(f) = dr0(f) + (add ? val(q, 3) : 0.0);
          code(f) = bits(q, 0);
        });
  }
  // The cells whose weights changed: the previous constraints' and the new ones', each once. A call
  // that changed nothing (no constraints before or after) keeps the list of the last change, which
  // the version still names.
  if (!changes) return;
  changed_mark_.resize(vel_[0].extent(0), 0);
  std::vector<int> changed;
  for (const std::vector<int>* list : {&touched_host_, &now})
    for (const int k : *list)
      if (!changed_mark_[k]) changed_mark_[k] = 1, changed.push_back(k);
  for (const int k : changed) changed_mark_[k] = 0;
  touched_host_ = std::move(now);
  if (weights_changed_.extent(0) < changed.size())
    weights_changed_ = Kokkos::View<int*, device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "weights_changed"),
                                                  changed.size() + changed.size() / 2 + 64);
  auto hc = Kokkos::create_mirror_view(weights_changed_);
  for (size_t q = 0; q < changed.size(); ++q) hc(q) = changed[q];
  Kokkos::deep_copy(weights_changed_, hc);
  weights_changed_n_ = static_cast<int>(changed.size());
}

#define IMMERSE_INSTANTIATE(Exec)                         \
  template void StableSolver<Exec>::sample_walls(double); \
  template void StableSolver<Exec>::apply_walls(bool);    \
  template void StableSolver<Exec>::apply_fixed();        \
  template void StableSolver<Exec>::set_constraints(const std::vector<FaceConstraint>&);
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

}  // namespace immerse::mac2d
