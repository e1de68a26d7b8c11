// Definitions of StableSolver<Exec> and their instantiation for every enabled execution space.
#include "stable_loops.hpp"
#include "stable_solver_impl.hpp"

namespace immerse::mac2d {
namespace {
constexpr int kLeft = 0, kRight = 1, kBottom = 2, kTop = 3;
// A face less than this fraction open is closed (weight 0, the body's velocity): the small-cut-cell
// rule. A cell whose only fluid opening is such a face has a pressure of order b / W, and the
// projection then drives the face at the body's net flux over its open fraction: 3.3 m/s in the
// 1 m/s windmill jet at 128^2 (measured, one step), 20 m/s in the test
// StableFluid.FaceBelowTheMinimumFractionIsClosed. Closing it moves at most 1 % of one face's flux.
// Windmill and bar metrics at 256^2 unchanged beyond the rotor's chaotic spread (measured).
constexpr double kMinFaceFraction = 0.01;
constexpr int kCheckEvery = 10;  // Jacobi / SOR iterations between residual reductions (one costs ~1 sweep)

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
void StableSolver<Exec>::stop_if_diverged(const char* solve, double res) const {
  if (!std::isfinite(res))
    throw NumericalError(fmt::format("{}: {} solve diverged (residual {} at step {})", p_.source, solve, res, steps_));
}

template <class Exec>
StableSolver<Exec>::StableSolver(const StableParams& p) : p_(p) {
  if (p_.omega <= 0) p_.omega = 2.0 / (1.0 + std::sin(M_PI / std::max(p.nx, p.ny)));
  g_ = StableGrid{p.nx, p.ny, p.nx + 2, p.h};
  const size_t n = static_cast<size_t>(p.nx + 2) * (p.ny + 2);
  for (int c = 0; c < 2; ++c) {
    vel_[c] = view(c ? "v" : "u", n);
    pred_[c] = view("pred", n);
    raw_[c] = view("advected", n);
    wgt_[c] = view("wgt", n);
    bval_[c] = view("bval", n);
    ddiag_[c] = view("ddiag", n);
    drhs_[c] = view("drhs", n);
    code_[c] = flags("code", n);
    dmask_[c] = flags("dmask", n);
  }
  tmp_ = view("tmp", n);
  p_field_ = view("p", n);
  b_ = view("b", n);
  const int m = std::max(p.nx, p.ny) + 2;
  btype_ = Kokkos::View<int* [4], device>("btype", m);
  bnormal_ = Kokkos::View<double* [4], device>("bnormal", m);
  const char* names[4] = {"left", "right", "bottom", "top"};
  for (int s = 0; s < 4; ++s) {
    side_inflow_.emplace_back(p.walls[s].inflow, fmt::format("{}: key 'walls.{}.inflow'", p.source, names[s]));
    walls_depend_on_t_ = walls_depend_on_t_ || (p.walls[s].type == WallType::inflow && side_inflow_.back().uses("t"));
  }
  for (size_t k = 0; k < p.jets.size(); ++k) {
    jet_speed_.emplace_back(p.jets[k].speed, fmt::format("{}: key 'jets.{}.speed'", p.source, k));
    walls_depend_on_t_ = walls_depend_on_t_ || jet_speed_.back().uses("t");
  }
  sample_walls(0);

  // Walls-only pressure weights and viscosity stencils (see set_constraints for the convention).
  auto hb = Kokkos::create_mirror_view(btype_);
  Kokkos::deep_copy(hb, btype_);
  auto side_type = [&](int s, int k) {
    const int len = (s < 2) ? p.ny : p.nx;
    return static_cast<WallType>(hb(std::max(1, std::min(len, k)), s));
  };
  for (int c = 0; c < 2; ++c) {
    auto w = Kokkos::create_mirror_view(wgt_[c]);
    auto dd = Kokkos::create_mirror_view(ddiag_[c]);
    auto dr = Kokkos::create_mirror_view(drhs_[c]);
    auto dm = Kokkos::create_mirror_view(dmask_[c]);
    Kokkos::deep_copy(w, 0.0), Kokkos::deep_copy(dd, 0.0), Kokkos::deep_copy(dr, 0.0), Kokkos::deep_copy(dm, 0);
    // A tangential ghost neighbour across side s: no-slip/inflow walls are Dirichlet at half a cell
    // (theta = 1/2: diagonal +1, rhs + 2 u_wall); slip and outflow are zero-gradient (diagonal -1).
    auto tangential = [&](size_t f, int bit, int s, int k) {
      dm(f) |= static_cast<unsigned char>(1u << bit);
      const WallType t = side_type(s, k);
      if (t == WallType::slip || t == WallType::outflow) {
        dd(f) += -1;
      } else {
        dd(f) += 1;
        dr(f) += t == WallType::noslip ? 2 * p.walls[s].tangential : 0.0;
      }
    };
    if (c == 0) {
      for (int j = 1; j <= p.ny; ++j) {
        for (int i = 1; i < p.nx; ++i) w(g_.at(i, j)) = 1;
        w(g_.at(0, j)) = side_type(kLeft, j) == WallType::outflow ? 1 : 0;
        w(g_.at(p.nx, j)) = side_type(kRight, j) == WallType::outflow ? 1 : 0;
      }
      for (int i = 1; i < p.nx; ++i) {
        tangential(g_.at(i, 1), 2, kBottom, i);
        tangential(g_.at(i, p.ny), 3, kTop, i);
      }
    } else {
      for (int i = 1; i <= p.nx; ++i) {
        for (int j = 1; j < p.ny; ++j) w(g_.at(i, j)) = 1;
        w(g_.at(i, 0)) = side_type(kBottom, i) == WallType::outflow ? 1 : 0;
        w(g_.at(i, p.ny)) = side_type(kTop, i) == WallType::outflow ? 1 : 0;
      }
      for (int j = 1; j < p.ny; ++j) {
        tangential(g_.at(1, j), 0, kLeft, j);
        tangential(g_.at(p.nx, j), 1, kRight, j);
      }
    }
    Kokkos::deep_copy(wgt_[c], w), Kokkos::deep_copy(ddiag_[c], dd), Kokkos::deep_copy(drhs_[c], dr);
    Kokkos::deep_copy(dmask_[c], dm);
    wgt0_[c] = view("wgt0", n);
    ddiag0_[c] = view("ddiag0", n);
    drhs0_[c] = view("drhs0", n);
    dmask0_[c] = flags("dmask0", n);
    Kokkos::deep_copy(wgt0_[c], wgt_[c]), Kokkos::deep_copy(ddiag0_[c], ddiag_[c]);
    Kokkos::deep_copy(drhs0_[c], drhs_[c]), Kokkos::deep_copy(dmask0_[c], dmask_[c]);
    touched_[c] = Kokkos::View<int*, device>("touched", 0);
  }

  Expression u0(p.initial_u, p.source + ": key 'initial.u'"), v0(p.initial_v, p.source + ": key 'initial.v'");
  auto hu = Kokkos::create_mirror_view(vel_[0]);
  auto hv = Kokkos::create_mirror_view(vel_[1]);
  for (int j = 0; j < p.ny + 2; ++j)
    for (int i = 0; i < p.nx + 2; ++i) {
      hu(g_.at(i, j)) = u0(i * p.h, (j - 0.5) * p.h);
      hv(g_.at(i, j)) = v0((i - 0.5) * p.h, j * p.h);
    }
  Kokkos::deep_copy(vel_[0], hu);
  Kokkos::deep_copy(vel_[1], hv);
  apply_walls();
  // Advection writes into pred_ without copying vel_ first: the two must agree where no kernel writes.
  Kokkos::deep_copy(pred_[0], vel_[0]);
  Kokkos::deep_copy(pred_[1], vel_[1]);
}

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
  Kokkos::parallel_for(
      "stable_walls_normal", Kokkos::RangePolicy<Exec>(1, std::max(g.nx, g.ny) + 1), KOKKOS_LAMBDA(int k) {
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
  Kokkos::parallel_for(
      "stable_walls_ghost", Kokkos::RangePolicy<Exec>(0, std::max(g.nx, g.ny) + 1), KOKKOS_LAMBDA(int k) {
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
    Kokkos::parallel_for(
        "stable_fixed", Kokkos::RangePolicy<Exec>(0, touched_n_[c]), KOKKOS_LAMBDA(int k) {
          if (code(idx(k)) == 2) f(idx(k)) = bv(idx(k));
        });
  }
}

template <class Exec>
void StableSolver<Exec>::set_constraints(const std::vector<FaceConstraint>& faces) {
  for (int c = 0; c < 2; ++c) {
    // Restore the walls-only values where the previous constraints were.
    if (touched_n_[c] > 0) {
      auto idx = touched_[c];
      auto w = wgt_[c], w0 = wgt0_[c], dd = ddiag_[c], dd0 = ddiag0_[c], dr = drhs_[c], dr0 = drhs0_[c], bv = bval_[c];
      auto dm = dmask_[c], dm0 = dmask0_[c], code = code_[c];
      Kokkos::parallel_for(
          "stable_unconstrain", Kokkos::RangePolicy<Exec>(0, touched_n_[c]), KOKKOS_LAMBDA(int k) {
            const int f = idx(k);
            w(f) = w0(f), dd(f) = dd0(f), dr(f) = dr0(f), dm(f) = dm0(f), code(f) = 0, bv(f) = 0;
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
      hv(k, 0) = closed ? 0.0 : std::min(f.weight, 1.0), hv(k, 1) = f.ub, hv(k, 2) = 0, hv(k, 3) = 0;
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
      hbits(k, 0) = f.fixed || closed ? 2 : 1, hbits(k, 1) = mask;
      ++k;
    }
    if (count > 0) Kokkos::deep_copy(idx, hi), Kokkos::deep_copy(val, hv), Kokkos::deep_copy(bits, hbits);
    touched_n_[c] = count;
    if (count == 0) continue;
    auto w = wgt_[c], w0 = wgt0_[c], dd = ddiag_[c], dd0 = ddiag0_[c], dr = drhs_[c], dr0 = drhs0_[c], bv = bval_[c];
    auto dm = dmask_[c], dm0 = dmask0_[c], code = code_[c];
    Kokkos::parallel_for(
        "stable_constrain", Kokkos::RangePolicy<Exec>(0, count), KOKKOS_LAMBDA(int q) {
          const int f = idx(q);
          w(f) = w0(f) * val(q, 0), bv(f) = val(q, 1);
          // A wall's own stencil entries stay (dd0, dr0, dm0); the body's are added; a masked wall
          // neighbour is not masked twice.
          const unsigned char add = static_cast<unsigned char>(bits(q, 1) & ~dm0(f));
          dm(f) = dm0(f) | add;
          dd(f) = dd0(f) + (add ? val(q, 2) : 0.0);
          dr(f) = dr0(f) + (add ? val(q, 3) : 0.0);
          code(f) = bits(q, 0);
        });
  }
}

template <class Exec>
void StableSolver<Exec>::predict() {
  timed("boundaries", [&] {
    if (walls_depend_on_t_) sample_walls(time_);
    apply_walls();
    apply_fixed();  // advection interpolates the body velocity inside the body (eqs. 9-12)
  });
  timed("advection", [&] {
    const StableGrid g = g_;
    const double dt = p_.dt;
    auto u = vel_[0], v = vel_[1], nu_ = pred_[0], nv = pred_[1];
    // No copy of u into the target first: the kernel writes every interior face, apply_walls() below
    // every normal boundary face and tangential ghost, and the entries neither touches (corner ghosts,
    // the faces outside the domain) are never written by any kernel, so both buffers hold the same.
    // Semi-Lagrangian with a midpoint (RK2) backtrace and bilinear interpolation.
    // The first RK2 stage needs the velocity at the face itself: its own component is the face value
    // and the other the mean of the four nearest faces of that component, which is what the bilinear
    // sample there reduces to (exactly so when h is a power of two): two of the five samples per face
    // saved.
    // Positions are lattice indices and displacements c = dt / h cells per (m/s), so no sample divides
    // (stable_interp's x / h is two divisions per sample). The u lattice's index (i, j) is
    // (x / h, y / h + 1/2), the v lattice's (x / h + 1/2, y / h).
    // u faces (i < nx) and v faces (j < ny) in a loop each, with no test on the face inside (the
    // loops stay scalar: GCC finds the gathers not worth vectorising).
    const double c = dt / g.h;
    cell_for<Exec>(
        "stable_advect_u", 1, g.nx, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);  // the v lattice index is the u one + (1/2, -1/2)
          double a = u(k), b = 0.25 * v(k - g.w) + 0.25 * v(k - g.w + 1) + 0.25 * v(k) + 0.25 * v(k + 1);
          const double fi = i - 0.5 * c * a, fj = j - 0.5 * c * b;
          a = stable_interp_index(u, g, fi, fj);
          b = stable_interp_index(v, g, fi + 0.5, fj - 0.5);
          nu_(k) = stable_interp_index(u, g, i - c * a, j - c * b);
        });
    cell_for<Exec>(
        "stable_advect_v", 1, g.nx + 1, 1, g.ny, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);  // the u lattice index is the v one + (-1/2, 1/2)
          double a = 0.25 * u(k - 1) + 0.25 * u(k) + 0.25 * u(k - 1 + g.w) + 0.25 * u(k + g.w), b = v(k);
          const double fi = i - 0.5 * c * a, fj = j - 0.5 * c * b;
          a = stable_interp_index(u, g, fi - 0.5, fj + 0.5);
          b = stable_interp_index(v, g, fi, fj);
          nv(k) = stable_interp_index(v, g, i - c * a, j - c * b);
        });
    std::swap(vel_[0], pred_[0]);
    std::swap(vel_[1], pred_[1]);
    apply_walls();
    Kokkos::deep_copy(raw_[0], vel_[0]);
    Kokkos::deep_copy(raw_[1], vel_[1]);
    apply_fixed();
  });
  timed("diffusion", [&] {
    if (p_.nu > 0) {
      if (p_.viscosity_solver == LinearSolver::jacobi)
        diffuse_jacobi(0), diffuse_jacobi(1);
      else
        diffuse_rbgs();
    }
    apply_fixed();
  });
  timed("forces", [&] {
    const StableGrid g = g_;
    const double fx = p_.fx * p_.dt, fy = p_.fy * p_.dt;
    auto u = vel_[0], v = vel_[1];
    auto cu = code_[0], cv = code_[1];
    if (fx != 0 || fy != 0)
      cell_for<Exec>(
          "stable_force", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
            if (i < g.nx && cu(g.at(i, j)) != 2) u(g.at(i, j)) += fx;
            if (j < g.ny && cv(g.at(i, j)) != 2) v(g.at(i, j)) += fy;
          });
    Kokkos::deep_copy(pred_[0], vel_[0]);
    Kokkos::deep_copy(pred_[1], vel_[1]);
  });
}

template <class Exec>
void StableSolver<Exec>::diffuse_jacobi(int c) {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  auto f = vel_[c], rhs = tmp_, out = b_;
  auto code = code_[c];
  auto dd = ddiag_[c], dr = drhs_[c];
  auto dm = dmask_[c];
  Kokkos::deep_copy(rhs, f);  // phi* (advected)
  const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
  // (1 + a (4 + dd)) phi - a sum(unmasked neighbours) = phi* + a dr
  auto relax = [=] KOKKOS_FUNCTION(const Kokkos::View<double*, device>& src, int i, int j) {
    const int k = g.at(i, j);
    const int m = dm(k);
    double s = 0;
    if (!(m & 1)) s += src(k - 1);
    if (!(m & 2)) s += src(k + 1);
    if (!(m & 4)) s += src(k - g.w);
    if (!(m & 8)) s += src(k + g.w);
    return (rhs(k) + a * (s + dr(k))) / (1 + a * (4 + dd(k)));
  };
  const auto t0 = std::chrono::steady_clock::now();
  int it = 0;
  double res = 0;
  bool converged = false;
  while (it < p_.max_iterations) {
    Kokkos::deep_copy(out, f);
    cell_for<Exec>(
        "stable_visc_jacobi", 1, i1 + 1, 1, j1 + 1, KOKKOS_LAMBDA(int i, int j) {
          if (code(g.at(i, j)) != 2) out(g.at(i, j)) = relax(f, i, j);
        });
    Kokkos::deep_copy(f, out);
    ++it;
    if (it % 2 == 0 || it == 1) {
      cell_reduce<Exec>(
          "stable_visc_residual", 1, i1 + 1, 1, j1 + 1,
          KOKKOS_LAMBDA(int i, int j, double& r) {
            const int k = g.at(i, j);
            if (code(k) == 2) return;
            const double d = Kokkos::Experimental::fabs(relax(f, i, j) - f(k)) * (1 + a * (4 + dd(k)));
            r = d > r ? d : r;
          },
          Kokkos::Max<double>(res));
      stop_if_diverged("viscosity", res);
      if (res <= p_.viscosity_tol) {
        converged = true;
        break;
      }
    }
  }
  vstats_.solves++;
  vstats_.iterations += it;
  vstats_.last_iterations = it;
  vstats_.last_residual = res;
  vstats_.unconverged += !converged;
  vstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  apply_walls();
}

// Red-black Gauss-Seidel on (1 + a (4 + dd)) phi - a sum(unmasked neighbours) = phi* + a dr for u and
// v together (the two systems are independent and every neighbour of a red face is black), to the
// same max |residual| <= viscosity_tol as before, measured after the sweeps. What changed is when it is
// measured: every row has diagonal 1 + a (4 + dd) against an off-diagonal sum a n (a masked neighbour
// adds dd >= -1), so Jacobi contracts the error by q <= 4a / (1 + 4a) per sweep in the max norm and a
// red-black sweep (red from black, then black from red) by q^2: 0.065 for the bar (a = 0.085), 0.32
// for the windmill (a = 0.33). Consecutive steps therefore need nearly the same number of sweeps, and
// checking every second sweep (a residual pass costs as much as a sweep) was a third of the work.
// Here: the previous solve's count, then one check; one more sweep and check while above the
// tolerance; every kProbeEvery solves one sweep fewer is tried, so the count also comes down.
template <class Exec>
double StableSolver<Exec>::viscosity_residual(bool scaled) const {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  auto u = vel_[0], v = vel_[1], ru = raw_[0], rv = raw_[1];
  auto cu = code_[0], cv = code_[1];
  auto ddu = ddiag_[0], ddv = ddiag_[1], dru = drhs_[0], drv = drhs_[1];
  auto dmu = dmask_[0], dmv = dmask_[1];
  double res = 0;
  cell_reduce<Exec>(
      "stable_visc_residual", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& r) {
        const int k = g.at(i, j);
        auto one = [&](const view& f, const view& rhs, const flags& dm, const view& dd, const view& dr) {
          const int m = dm(k);
          double sum = 0;
          if (!(m & 1)) sum += f(k - 1);
          if (!(m & 2)) sum += f(k + 1);
          if (!(m & 4)) sum += f(k - g.w);
          if (!(m & 8)) sum += f(k + g.w);
          const double D = 1 + a * (4 + dd(k));
          const double d = Kokkos::Experimental::fabs(rhs(k) + a * (sum + dr(k)) - D * f(k));
          return scaled ? d / D : d;
        };
        if (i < g.nx && cu(k) != 2) {
          const double d = one(u, ru, dmu, ddu, dru);
          r = d > r ? d : r;
        }
        if (j < g.ny && cv(k) != 2) {
          const double d = one(v, rv, dmv, ddv, drv);
          r = d > r ? d : r;
        }
      },
      Kokkos::Max<double>(res));
  return res;
}

// One colour of the interior cells per launch: cell (i, j) of that colour, then its u and v faces.
template <class Exec>
void StableSolver<Exec>::visc_sweeps(int n) {
  const StableGrid g = g_;
  const double a = p_.nu * p_.dt / (p_.h * p_.h);
  // Over-relaxation at Young's optimum for red-black ordering: (1 + 4a) u - a (sum of neighbours)
  // has Jacobi spectral radius at most rho = 4a / (1 + 4a) (cut cells only add to the diagonal), so
  // omega = 2 / (1 + sqrt(1 - rho^2)) and the error falls by omega - 1 per sweep instead of rho^2.
  const double rho = 4 * a / (1 + 4 * a), om = 2 / (1 + std::sqrt(1 - rho * rho));
  // u and v one after the other (independent systems), each without branches on the cell (selects
  // only), so that the row loops vectorise (GCC 12 does not when one loop relaxes both).
  for (int c = 0; c < 2; ++c) {
    auto f = vel_[c], rhs = raw_[c], dd = ddiag_[c], dr = drhs_[c];
    auto code = code_[c];
    auto dm = dmask_[c];
    // The component's interior faces are (i, j) for i <= i1, j <= j1 (the colour of a face is its
    // cell's, so the sweeps over this smaller range keep the red-black order).
    const int i1 = c == 0 ? g.nx - 1 : g.nx, j1 = c == 0 ? g.ny : g.ny - 1;
    colour_sweeps<Exec>(
        "stable_visc_gs", i1, j1, 0, 2 * n, KOKKOS_LAMBDA(int i, int j, int) {
          const int k = g.at(i, j);
          const int m = dm(k);
          // Neighbours read unconditionally, then masked: a conditional read would be a masked strided
          // load, which GCC 12 does not vectorise.
          const double fw = f(k - 1), fe = f(k + 1), fs = f(k - g.w), fn = f(k + g.w);
          const double sum = ((m & 1) ? 0.0 : fw) + ((m & 2) ? 0.0 : fe) + ((m & 4) ? 0.0 : fs) + ((m & 8) ? 0.0 : fn);
          const double relaxed = f(k) + om * ((rhs(k) + a * (sum + dr(k))) / (1 + a * (4 + dd(k))) - f(k));
          f(k) = code(k) != 2 ? relaxed : f(k);  // 2: a face the body fixes
        });
  }
}

template <class Exec>
void StableSolver<Exec>::diffuse_rbgs() {
  constexpr long kProbeEvery = 8;
  const auto t0 = std::chrono::steady_clock::now();
  int sweeps = std::max(1, visc_guess_ - (vstats_.solves % kProbeEvery == kProbeEvery - 1 ? 1 : 0));
  visc_sweeps(sweeps);
  double res = viscosity_residual(false);
  bool converged = res <= p_.viscosity_tol;
  while (!converged && sweeps < p_.max_iterations) {
    stop_if_diverged("viscosity", res);
    visc_sweeps(1), ++sweeps;
    res = viscosity_residual(false);
    converged = res <= p_.viscosity_tol;
  }
  visc_guess_ = sweeps;
  vstats_.solves++;
  vstats_.iterations += sweeps;
  vstats_.last_iterations = sweeps;
  vstats_.last_residual = res;
  vstats_.unconverged += !converged;
  vstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  apply_walls();
}

template <class Exec>
double StableSolver<Exec>::pressure_residual() const {
  const StableGrid g = g_;
  auto pf = p_field_, b = b_;
  auto wu = wgt_[0], wv = wgt_[1];
  const double scale = div_per_residual();
  double res = 0;
  cell_reduce<Exec>(
      "stable_p_residual", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& r) {
        const int k = g.at(i, j);
        const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
        if (W <= 0) return;
        const double d = Kokkos::Experimental::fabs(
            b(k) - (we * pf(k + 1) + ww * pf(k - 1) + wn * pf(k + g.w) + ws * pf(k - g.w) - W * pf(k)));
        r = d > r ? d : r;
      },
      Kokkos::Max<double>(res));
  return res * scale;
}

template <class Exec>
void StableSolver<Exec>::solve_pressure() {
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1], pf = p_field_, pn = tmp_, b = b_;
  auto wu = wgt_[0], wv = wgt_[1], bu = bval_[0], bv = bval_[1];
  auto cu = code_[0], cv = code_[1];
  const double s = p_.rho * p_.h / p_.dt;
  // b = rho h^2/dt div(u*) with a face's body part moving at the body velocity (stable_net_outflow).
  cell_for<Exec>(
      "stable_p_rhs", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
        const int k = g.at(i, j);
        b(k) = s * stable_net_outflow(u, v, wu, wv, cu, cv, bu, bv, k, g.w);
      });
  // Jacobi is damped (weight 0.9): with walls all round the Neumann problem's checkerboard mode has
  // iteration eigenvalue -1 under plain Jacobi and never decays.
  const double omega = p_.pressure_solver == LinearSolver::jacobi ? 0.9 : p_.omega;
  auto update = [=] KOKKOS_FUNCTION(const Kokkos::View<double*, device>& src, int k) {
    const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
    if (W <= 0) return 0.0;
    return (we * src(k + 1) + ww * src(k - 1) + wn * src(k + g.w) + ws * src(k - g.w) - b(k)) / W;
  };
  const auto t0 = std::chrono::steady_clock::now();
  int it = 0;
  double res = 0;
  bool converged = false;
  // mgcg falls back to V-cycles after a breakdown (see solve_pressure_mgcg).
  const bool vcycles = p_.pressure_solver == LinearSolver::multigrid ||
                       (p_.pressure_solver == LinearSolver::mgcg && !solve_pressure_mgcg(it, res, converged));
  if (vcycles) {
    mg_.setup(g_, wgt_[0], wgt_[1]);
    // V-cycles until the residual of p is within the tolerance. It is measured inside the cycle, by
    // the restriction after level 0's pre-smoothing, so no pass of its own: a cycle that finds it
    // within the tolerance stops there and is not counted. (Checking after every cycle would cost a
    // pass of its own per cycle.)
    const double scale = div_per_residual();
    while (true) {
      res = mg_.vcycle(p_field_, b_, /*symmetric=*/false, p_.pressure_tol / scale) * scale;
      stop_if_diverged("pressure", res);
      converged = res <= p_.pressure_tol;
      if (converged) break;
      if (++it >= p_.max_iterations) {
        res = pressure_residual();
        converged = res <= p_.pressure_tol;
        break;
      }
    }
  } else if (p_.pressure_solver != LinearSolver::mgcg) {
    res = pressure_residual();
    converged = res <= p_.pressure_tol;
  }
  while (!converged && it < p_.max_iterations) {
    if (p_.pressure_solver == LinearSolver::jacobi) {
      cell_for<Exec>(
          "stable_p_jacobi", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
            const int k = g.at(i, j);
            pn(k) = pf(k) + omega * (update(pf, k) - pf(k));
          });
      cell_for<Exec>(
          "stable_p_copy", 1, g.nx + 1, 1, g.ny + 1, KOKKOS_LAMBDA(int i, int j) { pf(g.at(i, j)) = pn(g.at(i, j)); });
    } else {
      for (int colour = 0; colour < 2; ++colour)
        colour_for<Exec>(
            "stable_p_sor", g.nx, g.ny, colour, KOKKOS_LAMBDA(int i, int j) {
              const int k = g.at(i, j);
              pf(k) += omega * (update(pf, k) - pf(k));
            });
    }
    ++it;
    if (it % kCheckEvery == 0) {
      res = pressure_residual();
      stop_if_diverged("pressure", res);
      converged = res <= p_.pressure_tol;
    }
  }
  pstats_.solves++;
  pstats_.iterations += it;
  pstats_.last_iterations = it;
  pstats_.last_residual = res;
  pstats_.unconverged += !converged;
  pstats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Conjugate gradients for A p = -b, A = -L with L p = sum over faces w (p_neighbour - p) (symmetric,
// positive definite on the cells with a face of weight > 0 once an outflow fixes the level; with
// walls all round the right-hand side sums to zero and CG stays in the range). Preconditioner: one
// symmetric V-cycle in float (red-black before, black-red after the coarse correction, Galerkin
// coarse levels; stable_multigrid.hpp), which approximates L^-1 and so maps the residual
// r = b - L p to an approximate correction z. With A-residual rho = -r: rho.z = -(r.z), and the Polak-Ribiere beta
// keeps CG convergent where the V-cycle is not exactly symmetric (the coarsest level's fixed sweeps). Cells with no
// open face (inside a body) are left out: r, z, d are 0 there and p keeps its value. A breakdown (non-positive
// curvature, from round-off near convergence) falls back to V-cycles.
template <class Exec>
bool StableSolver<Exec>::solve_pressure_mgcg(int& it, double& res, bool& converged) {
  const StableGrid g = g_;
  const size_t n = p_field_.extent(0);
  if (cg_r_.extent(0) != n) {
    cg_r_ = view("cg_r", n);
    cg_d_ = view("cg_d", n);
    cg_q_ = view("cg_q", n);
    cg_z_ = fview("cg_z", n);
    cg_rf_ = fview("cg_rf", n);
  }
  auto pf = p_field_, b = b_, r = cg_r_, d = cg_d_, q = cg_q_;
  auto z = cg_z_, rf = cg_rf_;
  auto wu = wgt_[0], wv = wgt_[1];
  const double scale = div_per_residual();
  mgf_.setup(g_, wgt_[0], wgt_[1]);
  auto precondition = [&] { mgf_.vcycle(z, rf, /*symmetric=*/true, -1); };  // z = one V-cycle for r, from z = 0
  double rmax = 0;
  cell_reduce<Exec>(
      "stable_cg_residual", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& m) {
        const int k = g.at(i, j);
        const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
        r(k) = W > 0 ? b(k) - (we * pf(k + 1) + ww * pf(k - 1) + wn * pf(k + g.w) + ws * pf(k - g.w) - W * pf(k)) : 0.0;
        rf(k) = static_cast<float>(r(k));
        const double a = Kokkos::Experimental::fabs(r(k));
        m = a > m ? a : m;
      },
      Kokkos::Max<double>(rmax));
  res = rmax * scale;
  converged = res <= p_.pressure_tol;
  if (converged) return true;
  Kokkos::deep_copy(z, 0.0f);  // the first V-cycle starts from 0 (later ones: zeroed by the update)
  precondition();
  double delta = -cg_dot(r, z);
  double beta = 0;
  while (!converged && it < p_.max_iterations) {
    // d = z + beta d and q = A d in one pass, as q = A z + beta q (A is linear): A z reads z's
    // neighbours, final after the V-cycle, where A d would need d's updated first. beta = 0 on the
    // first iteration and q is always finite (zero-initialised, then written), so q starts as A z.
    double dq = 0;
    cell_reduce<Exec>(
        "stable_cg_direction", 1, g.nx + 1, 1, g.ny + 1,
        KOKKOS_LAMBDA(int i, int j, double& acc) {
          const int k = g.at(i, j);
          const double we = wu(k), ww = wu(k - 1), wn = wv(k), ws = wv(k - g.w), W = we + ww + wn + ws;
          // Closed cells (no open face) keep d = q = 0: a factor 0 or 1 rather than a select, which GCC
          // turned into a branch around the (float z) conversions, leaving the loop scalar (measured:
          // this pass 9 % of the windmill's samples, all scalar code). z is finite there (0, or a
          // prolonged coarse correction), so the product is 0.
          const double open = W > 0 ? 1.0 : 0.0;
          const double zk = z(k);
          const double az = W * zk - (we * z(k + 1) + ww * z(k - 1) + wn * z(k + g.w) + ws * z(k - g.w));
          const double dn = open * (zk + beta * d(k)), qn = open * (az + beta * q(k));
          d(k) = dn, q(k) = qn;
          acc += dn * qn;
        },
        dq);
    if (!(delta > 0) || !(dq > 0)) return false;
    const double alpha = delta / dq;
    // p += alpha d and r += alpha q (r = b - L p = -rho, and rho -= alpha A d), with max |r| for the
    // stopping test and r (new) . z (old) for Polak-Ribiere; z is then zeroed for the next V-cycle.
    MaxSum upd{0, 0};
    cell_reduce<Exec>(
        "stable_cg_update", 1, g.nx + 1, 1, g.ny + 1,
        KOKKOS_LAMBDA(int i, int j, MaxSum& acc) {
          const int k = g.at(i, j);
          pf(k) += alpha * d(k);
          r(k) += alpha * q(k);
          rf(k) = static_cast<float>(r(k));
          const double a = Kokkos::Experimental::fabs(r(k));
          acc.max = a > acc.max ? a : acc.max;
          acc.sum += r(k) * z(k);
          z(k) = 0;
        },
        MaxSumReducer(upd));
    ++it;
    res = upd.max * scale;
    stop_if_diverged("pressure", res);
    converged = res <= p_.pressure_tol;
    if (converged) break;
    precondition();
    const double delta_new = -cg_dot(r, z);
    beta = (delta_new + upd.sum) / delta;
    delta = delta_new;
  }
  if (converged) res = pressure_residual();  // the recurrence's residual, confirmed on p itself
  return true;
}

template <class Exec>
double StableSolver<Exec>::cg_dot(const view& a, const fview& b) const {
  const StableGrid g = g_;
  double s = 0;
  cell_reduce<Exec>(
      "stable_cg_dot", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& acc) {
        const int k = g.at(i, j);
        acc += a(k) * b(k);
      },
      s);
  return s;
}

template <class Exec>
void StableSolver<Exec>::project() {
  timed("pressure", [&] {
    solve_pressure();
    const StableGrid g = g_;
    auto u = vel_[0], v = vel_[1], pf = p_field_;
    auto wu = wgt_[0], wv = wgt_[1];
    const double s = p_.dt / (p_.rho * p_.h);
    // Faces of the pressure equation (weight > 0) take the pressure gradient; ghost p = 0 at outflows.
    cell_for<Exec>(
        "stable_project", 0, g.nx + 1, 0, g.ny + 1, KOKKOS_LAMBDA(int i, int j) {
          const int k = g.at(i, j);
          if (j >= 1 && wu(k) > 0) u(k) -= s * (pf(k + 1) - pf(k));
          if (i >= 1 && wv(k) > 0) v(k) -= s * (pf(k + g.w) - pf(k));
        });
  });
  timed("boundaries", [&] { apply_walls(/*extrapolate_outflow=*/false); });
  time_ += p_.dt;
  ++steps_;
}

template <class Exec>
std::vector<std::array<double, 2>> StableSolver<Exec>::sample(const std::vector<std::array<double, 2>>& pts,
                                                              SampleField which) const {
  if (sample_xy_.extent(0) < pts.size()) {  // staging reused from call to call (several per step)
    const size_t cap = pts.size() + pts.size() / 2 + 64;
    sample_xy_ = Kokkos::View<double* [2], device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "xy"), cap);
    sample_out_ = Kokkos::View<double* [2], device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "vel"), cap);
  }
  auto xy = sample_xy_, out = sample_out_;
  auto hx = Kokkos::create_mirror_view(xy);
  for (size_t k = 0; k < pts.size(); ++k) hx(k, 0) = pts[k][0], hx(k, 1) = pts[k][1];
  Kokkos::deep_copy(xy, hx);
  const StableGrid g = g_;
  const int c = which == SampleField::predicted ? 1 : which == SampleField::advected ? 2 : 0;
  auto u = c == 1 ? pred_[0] : c == 2 ? raw_[0] : vel_[0], v = c == 1 ? pred_[1] : c == 2 ? raw_[1] : vel_[1];
  auto pf = p_field_;
  const bool pressure = which == SampleField::pressure;
  Kokkos::parallel_for(
      "stable_sample", Kokkos::RangePolicy<Exec>(0, pts.size()), KOKKOS_LAMBDA(int k) {
        if (pressure) {
          out(k, 0) = stable_interp(pf, g, xy(k, 0), xy(k, 1), -0.5, -0.5), out(k, 1) = 0;
          return;
        }
        out(k, 0) = stable_interp(u, g, xy(k, 0), xy(k, 1), 0.0, -0.5);
        out(k, 1) = stable_interp(v, g, xy(k, 0), xy(k, 1), -0.5, 0.0);
      });
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<std::array<double, 2>> r(pts.size());
  for (size_t k = 0; k < pts.size(); ++k) r[k] = {ho(k, 0), ho(k, 1)};
  return r;
}

template <class Exec>
HostFields StableSolver<Exec>::fields() const {
  HostFields f;
  f.nx = p_.nx;
  f.ny = p_.ny;
  f.dx = f.dy = p_.h;
  f.time = time_;
  auto copy = [](const view& v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    return std::vector<double>(h.data(), h.data() + h.extent(0));
  };
  f.u = copy(vel_[0]);
  f.v = copy(vel_[1]);
  f.p = copy(p_field_);
  const auto wu = copy(wgt_[0]), wv = copy(wgt_[1]);
  f.solid.assign(f.u.size(), 0);
  for (int j = 1; j <= p_.ny; ++j)
    for (int i = 1; i <= p_.nx; ++i) {
      const size_t k = f.at(i, j);
      // A cell no open face reaches is solid (inside a body; walls keep their own cells open).
      f.solid[k] = wu[k] + wu[k - 1] + wv[k] + wv[f.at(i, j - 1)] <= 0;
    }
  return f;
}

template <class Exec>
FieldStatus StableSolver<Exec>::status() const {
  FieldStatus s;
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1], pf = p_field_;
  int bad = -1;
  Kokkos::parallel_reduce(
      "stable_finite", Kokkos::RangePolicy<Exec>(0, u.extent(0)),
      KOKKOS_LAMBDA(int k, int& r) {
        const double a = u(k), b = v(k), c = pf(k);
        if (!(a - a == 0) || !(b - b == 0) || !(c - c == 0)) r = r < 0 || k < r ? k : r;
      },
      Kokkos::Min<int>(bad));
  if (bad >= 0 && bad < static_cast<int>(u.extent(0))) {
    auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    s.finite = false;
    s.field = !std::isfinite(hu(bad)) ? "u" : !std::isfinite(hv(bad)) ? "v" : "p";
    s.i = bad % g.w;
    s.j = bad / g.w;
  }
  double m = 0;
  Kokkos::parallel_reduce(
      "stable_max_speed", Kokkos::RangePolicy<Exec>(0, u.extent(0)),
      KOKKOS_LAMBDA(int k, double& r) {
        const double a = Kokkos::Experimental::fabs(u(k)) > Kokkos::Experimental::fabs(v(k))
                             ? Kokkos::Experimental::fabs(u(k))
                             : Kokkos::Experimental::fabs(v(k));
        r = a > r ? a : r;
      },
      Kokkos::Max<double>(m));
  s.max_speed = m;
  return s;
}

template <class Exec>
double StableSolver<Exec>::max_divergence() const {
  const StableGrid g = g_;
  auto u = vel_[0], v = vel_[1];
  auto wu = wgt_[0], wv = wgt_[1], bu = bval_[0], bv = bval_[1];
  auto cu = code_[0], cv = code_[1];
  const double ih = 1 / p_.h;
  double m = 0;
  cell_reduce<Exec>(
      "stable_div", 1, g.nx + 1, 1, g.ny + 1,
      KOKKOS_LAMBDA(int i, int j, double& r) {
        const int k = g.at(i, j);
        if (wu(k) + wu(k - 1) + wv(k) + wv(k - g.w) <= 0) return;
        const double d = Kokkos::Experimental::fabs(ih * stable_net_outflow(u, v, wu, wv, cu, cv, bu, bv, k, g.w));
        r = d > r ? d : r;
      },
      Kokkos::Max<double>(m));
  return m;
}

#define IMMERSE_INSTANTIATE(Exec) template class StableSolver<Exec>;
IMMERSE_FOR_EACH_BACKEND(IMMERSE_INSTANTIATE)
#undef IMMERSE_INSTANTIATE

std::unique_ptr<StableFlow> make_stable_flow(Backend backend, const StableParams& p) {
  // Semi-Lagrangian advection has no CFL limit, but a departure point further than 20 cells means the
  // time step no longer resolves the flow; the viscosity and pressure steps are implicit.
  double speed = 0;
  for (const auto& w : p.walls) speed = std::max(speed, std::abs(w.tangential));
  for (int s = 0; s < 4; ++s)
    if (p.walls[s].type == WallType::inflow) {
      const char* names[4] = {"left", "right", "bottom", "top"};
      Expression e(p.walls[s].inflow, fmt::format("{}: key 'walls.{}.inflow'", p.source, names[s]));
      for (int k = 0; k <= 8; ++k)
        speed = std::max(speed, std::abs(e(k / 8.0 * p.nx * p.h, k / 8.0 * p.ny * p.h, 0, 0)));
    }
  for (size_t q = 0; q < p.jets.size(); ++q) {
    const JetSpec& j = p.jets[q];
    Expression e(j.speed, fmt::format("{}: key 'jets.{}.speed'", p.source, q));
    speed = std::max(speed, std::abs(e(0.5 * (j.from + j.to), 0.5 * (j.from + j.to), 0, 0)));
  }
  if (speed * p.dt / p.h > 20)
    throw InputError(
        fmt::format("{}: key 'time.dt': {:g} s moves the prescribed speed {:g} m/s over {:.1f} cells per "
                    "step; allowed range dt <= {:g} s (20 cells)",
                    p.source, p.dt, speed, speed * p.dt / p.h, 20 * p.h / speed));
  return with_backend(backend, [&](auto tag) -> std::unique_ptr<StableFlow> {
    using Exec = typename decltype(tag)::execution_space;
    return std::make_unique<StableSolver<Exec>>(p);
  });
}

}  // namespace immerse::mac2d
