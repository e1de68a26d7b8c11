// The jellyfish body and its transfer to the lattice: NURBS evaluation against exact geometry, the
// bell's mass-spring systems, the cell-group bookkeeping of section 3.2 every step, the pushed-volume
// propulsion formula of section 3.3, tracers and algae.
#include <gtest/gtest.h>

#include <algorithm>

#include <array>
#include <cmath>
#include <map>

#include "immerse/bodies/jelly_bell.hpp"
#include "immerse/bodies/jelly_passive.hpp"
#include "immerse/coupling/jelly_groups.hpp"
#include "immerse/coupling/jelly_propulsion.hpp"
#include "immerse/lbm3d/lbm_flow.hpp"
#include "support/backends.hpp"

using namespace immerse;
using bodies::JellyBell;

namespace {

bodies::JellyBellParams default_bell() {
  bodies::JellyBellParams p;
  const double r[12] = {0, 7, 13, 17, 19.5, 20.6, 19.6, 18, 15.5, 11.5, 6, 0};
  const double h[12] = {12, 11.7, 10, 6.5, 3, 0.3, -0.3, 2, 4.8, 7.3, 8.6, 9};
  for (int i = 0; i < 12; ++i) p.profile.push_back({r[i], h[i]});
  p.origin = {40, 40, 22};
  p.k_radial = 6;
  p.damping = 4.5;
  p.contraction = 0.09;
  return p;
}

}  // namespace

// B-spline basis functions: partition of unity and non-negativity (Piegl & Tiller, property P2.4).
TEST(JellyNurbs, BasisIsAPartitionOfUnity) {
  const auto knots = bodies::jelly_clamped_knots(12, 3);
  for (double t = 0; t <= 1.0; t += 0.01) {
    double N[8];
    const int span = bodies::jelly_find_span(12, 3, knots, t);
    bodies::jelly_basis(span, t, 3, knots, N);
    double sum = 0;
    for (int a = 0; a <= 3; ++a) {
      EXPECT_GE(N[a], 0);
      sum += N[a];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
  }
}

// The rational quadratic circle is exact: every point of a revolved surface lies at the profile's radius
// whatever the angle, and the clamped profile starts at its first control vertex (the apex).
TEST(JellyNurbs, RevolvedSurfaceIsExactlyRound) {
  JellyBell bell(default_bell());
  std::vector<Eigen::Vector3d> cp, cv;
  bell.control_grid(cp, cv);
  for (double u : {0.0, 0.2, 0.45, 0.5, 0.8}) {
    Eigen::Vector3d ref, v;
    bell.surface().evaluate(cp, cv, u, 0.0, ref, v);
    const double r0 = std::hypot(ref.x() - 40, ref.y() - 40);
    for (double a = 0; a < 1; a += 0.037) {
      Eigen::Vector3d x;
      bell.surface().evaluate(cp, cv, u, a, x, v);
      EXPECT_NEAR(std::hypot(x.x() - 40, x.y() - 40), r0, 1e-9) << "u " << u << " v " << a;
      EXPECT_NEAR(x.z(), ref.z(), 1e-9);
    }
  }
  Eigen::Vector3d apex, v;
  bell.surface().evaluate(cp, cv, 0.0, 0.3, apex, v);
  EXPECT_NEAR((apex - Eigen::Vector3d(40, 40, 34)).norm(), 0.0, 1e-12);
}

// The relaxed bell is an equilibrium of its springs (nothing moves without a contraction), and the
// default profile has the paper's relaxed diameter of about 40 cm.
TEST(JellyBellModel, RelaxedBellIsAtRest) {
  auto p = default_bell();
  p.contraction = 0;
  JellyBell bell(p);
  const double d0 = bell.diameter();
  // The paper: "the bell diameter of relaxed jellyfish is about 40 cm"; Fig. 6b tops out at 40.5 cm.
  EXPECT_NEAR(d0, 40.0, 1.0);
  for (int s = 0; s < 100; ++s) bell.advance(0.04);
  EXPECT_NEAR(bell.diameter(), d0, 1e-12);
}

// Contraction shrinks the bell while the springs are stretched; relaxation brings it back.
TEST(JellyBellModel, ContractionAndRelaxationFollowTheSchedule) {
  JellyBell bell(default_bell());
  const double d0 = bell.diameter();
  while (bell.time() < 1.9) bell.advance(0.04);
  EXPECT_TRUE(bell.contracting());
  EXPECT_LT(bell.diameter(), d0 - 2.0);
  while (bell.time() < 7.4) bell.advance(0.04);
  EXPECT_FALSE(bell.contracting());
  EXPECT_NEAR(bell.diameter(), d0, 1.0);
}

// The exact (Pappus) volume against an independent count of lattice points inside the closed bell.
TEST(JellyBellModel, VolumeMatchesAPointCount) {
  JellyBell bell(default_bell());
  const auto profile = bell.profile_curve(192);
  const double h = 0.25;
  long inside = 0;
  for (double z = 22 - 2; z < 22 + 14; z += h)
    for (double y = 18; y < 62; y += h)
      for (double x = 18; x < 62; x += h) inside += bell.inside({x + h / 2, y + h / 2, z + h / 2}, profile);
  // Point counting at h = 0.25 cm on a ~3000 cm^3 shell of ~2 cm thickness: error ~ area x h / 2 / V ~ 2%.
  EXPECT_NEAR(inside * h * h * h / bell.volume(), 1.0, 0.03);
}

// Section 3.2 bookkeeping on a moving, contracting bell, every step: one group per cell by definition
// of each group, C1 cells carry the mean surface velocity of the samples in them.
// The bell axis is a parameter: the same holds for a tilted bell.
TEST(JellyGroupsBookkeeping, EveryCellInTheRightGroupEveryStep) {
  const int n = 40;
  const double cell = 2, dt = 0.04;
  for (const Eigen::Vector3d axis : {Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(1, 0.3, 1)}) {
    auto bp = default_bell();
    bp.axis = axis;
    bp.origin = {38, 40, 30};
    JellyBell bell(bp);
    coupling::JellyGroups groups(n, n, n, cell, dt);
    for (int s = 0; s < 40; ++s) {
      bell.advance(dt);
      bell.translate(3.0, dt);  // a fast swim, so cells change groups
      const auto st = groups.update(bell);
      const auto& g = groups.groups();
      const long N = static_cast<long>(n) * n * n;
      long total = 0;
      for (long c : st.count) total += c;
      ASSERT_EQ(total, N);
      // Independent binning of the surface samples.
      std::map<long, std::pair<int, Eigen::Vector3d>> hits;
      for (const auto& smp : bell.sample_surface(0.5 * cell)) {
        const long c =
            groups.at(static_cast<int>(std::floor(smp.x.x() / cell)), static_cast<int>(std::floor(smp.x.y() / cell)),
                      static_cast<int>(std::floor(smp.x.z() / cell)));
        auto& h = hits[c];
        if (h.first == 0) h.second.setZero();
        ++h.first, h.second += smp.v * dt / cell;
      }
      const auto profile = bell.profile_curve(96);
      std::array<long, 5> counted = {0, 0, 0, 0, 0};
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const long c = groups.at(i, j, k);
            const unsigned char gc = g.group[c];
            ++counted[gc];
            const bool hit = hits.count(c) > 0;
            ASSERT_EQ(gc == lbm3d::kSurface, hit) << "C1 <=> the surface passes through the cell";
            if (hit) {
              const Eigen::Vector3d u = hits[c].second / hits[c].first;
              for (int a = 0; a < 3; ++a)
                ASSERT_NEAR(g.ub[a * N + c], u[a], 1e-6) << "C1 carries the local surface velocity";
              continue;
            }
            bool c1 = false, body = false;
            for (int q = 1; q < 15; ++q) {
              const int si = i + lbm3d::D3Q15::cx(q), sj = j + lbm3d::D3Q15::cy(q), sk = k + lbm3d::D3Q15::cz(q);
              if (si < 0 || sj < 0 || sk < 0 || si >= n || sj >= n || sk >= n) continue;
              const unsigned char gs = g.group[groups.at(si, sj, sk)];
              c1 = c1 || gs == lbm3d::kSurface;
              body = body || lbm3d::is_body(gs);
            }
            const bool in = bell.inside({(i + 0.5) * cell, (j + 0.5) * cell, (k + 0.5) * cell}, profile);
            if (in)
              ASSERT_EQ(gc, c1 ? lbm3d::kInnerRim : lbm3d::kInner);
            else
              ASSERT_EQ(gc, body ? lbm3d::kNearBody : lbm3d::kWater);
          }
      for (int a = 0; a < 5; ++a) ASSERT_EQ(counted[a], st.count[a]);
      ASSERT_GT(st.count[lbm3d::kSurface], 500);
    }
    // The swim went along the axis.
    EXPECT_NEAR((bell.origin() - bp.origin).normalized().dot(axis.normalized()), 1.0, 1e-12);
  }
}

// Section 3.3 in closed form: v_j = coef * sum(v_i) R_a / (3 l #(A+C2)).
TEST(JellyPropulsionModel, PushedVolumeFormula) {
  const auto p = coupling::jelly_propulsion(100.0, 1000, 2.0, 20.0, 0.04, 1.0);
  EXPECT_NEAR(p.dV, 0.5 * 100 * 4 * 0.04, 1e-12);
  EXPECT_NEAR(p.h, p.dV / (M_PI * 400), 1e-12);
  EXPECT_NEAR(p.V_w, 2.0 / 3.0 * M_PI * 8000, 1e-9);
  EXPECT_NEAR(p.v_j, 100.0 * 20 / (3 * 2 * 1000), 1e-12);
  EXPECT_EQ(coupling::jelly_propulsion(-50.0, 1000, 2.0, 20.0, 0.04, 1.0).v_j, 0.0);  // no backward swimming
  EXPECT_NEAR(coupling::jelly_propulsion(-100.0, 1000, 2.0, 20.0, 0.04, 1.0, false).v_j, -p.v_j, 1e-12);  // unclipped
  EXPECT_NEAR(coupling::jelly_propulsion(100.0, 1000, 2.0, 20.0, 0.04, 0.5).v_j, 0.5 * p.v_j, 1e-12);
}

// A deformed bell for the fast-path tests: mid-contraction, swimming, on a tilted axis, so the control
// net is neither the relaxed one nor aligned with the lattice.
static JellyBell deformed_bell() {
  auto bp = default_bell();
  bp.axis = {1, 0.3, 1};
  bp.origin = {38, 40, 30};
  JellyBell bell(bp);
  for (int s = 0; s < 30; ++s) bell.advance(0.04), bell.translate(1.5, 0.04);
  return bell;
}

// The cached-basis, per-direction factorised grid evaluation (sample_surface) against the reference
// rational formula evaluated point by point (JellyNurbsSurface::evaluate: its own span search and basis
// per point, the 12-term sum). Both are the same surface summed in a different order: positions of
// ~60 cm and speeds of ~10 cm/s agree to a few hundred ulps; 1e-10 cm (cm/s) bounds that rounding with
// a wide margin and is far below any cell size (>= 0.5 cm). Two spacings in turn check that the cached
// basis follows a change of grid.
TEST(JellyNurbs, CachedGridSamplingMatchesPointwiseEvaluation) {
  const JellyBell bell = deformed_bell();
  ASSERT_TRUE(bell.contracting());
  std::vector<Eigen::Vector3d> cp, cv;
  bell.control_grid(cp, cv);
  std::vector<bodies::JellySurfaceSample> samples;
  for (double spacing : {1.0, 0.5, 1.0}) {
    bell.sample_surface(spacing, samples);
    const auto n = bell.sample_grid(spacing);
    ASSERT_EQ(samples.size(), static_cast<size_t>(n[0] + 1) * n[1]);
    double max_speed = 0;
    for (int a = 0; a <= n[0]; ++a)
      for (int b = 0; b < n[1]; ++b) {
        Eigen::Vector3d x, v;
        bell.surface().evaluate(cp, cv, static_cast<double>(a) / n[0], static_cast<double>(b) / n[1], x, v);
        const auto& s = samples[a * n[1] + b];
        ASSERT_LT((s.x - x).norm(), 1e-10) << "u " << a << "/" << n[0] << " v " << b << "/" << n[1];
        ASSERT_LT((s.v - v).norm(), 1e-10) << "u " << a << "/" << n[0] << " v " << b << "/" << n[1];
        max_speed = std::max(max_speed, v.norm());
      }
    EXPECT_GT(max_speed, 0.5);  // the bell is really moving: the velocity comparison is not 0 == 0
  }
}

// Row by row (sample_surface_rows, what the cell groups use) the samples are those of sample_surface,
// bit for bit, on one thread and on the host's threads: every row arrives once, at its place.
TEST(JellyNurbs, RowSamplingGivesTheWholeSampling) {
  const JellyBell bell = deformed_bell();
  std::vector<bodies::JellySurfaceSample> whole;
  bell.sample_surface(0.5, whole);
  const auto n = bell.sample_grid(0.5);
  for (const Backend backend : {Backend::serial, Backend::openmp}) {
    std::vector<bodies::JellySurfaceSample> rows(whole.size());
    std::vector<int> seen(n[0] + 1, 0);
    bell.sample_surface_rows(0.5, backend, [&](long a, const bodies::JellySurfaceSample* s, int count) {
      ASSERT_EQ(count, n[1]);
      ++seen[a];
      std::copy(s, s + count, rows.begin() + a * n[1]);
    });
    for (int a = 0; a <= n[0]; ++a) ASSERT_EQ(seen[a], 1) << "row " << a;
    for (size_t m = 0; m < whole.size(); ++m) {
      ASSERT_EQ(rows[m].x, whole[m].x) << m;
      ASSERT_EQ(rows[m].v, whole[m].v) << m;
    }
  }
}

// The profile curve from the cached u basis against JellyNurbsSurface::evaluate(u, 0) on the bell-frame
// control net: the same terms (the circle's basis is (1, 0, 0) at v = 0), so they agree to rounding
// (1e-12 cm on ~20 cm radii and heights).
TEST(JellyNurbs, CachedProfileCurveMatchesPointwiseEvaluation) {
  const JellyBell bell = deformed_bell();
  std::vector<Eigen::Vector3d> cp(12 * 9), cv(12 * 9, Eigen::Vector3d::Zero());
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 9; ++j) cp[i * 9 + j] = bell.particles()[i * 8 + j % 8];
  for (int n : {96, 192, 96}) {
    const auto curve = bell.profile_curve(n);
    ASSERT_EQ(curve.size(), static_cast<size_t>(n + 1));
    for (int a = 0; a <= n; ++a) {
      Eigen::Vector3d x, v;
      bell.surface().evaluate(cp, cv, static_cast<double>(a) / n, 0.0, x, v);
      EXPECT_NEAR(curve[a][0], std::hypot(x.x(), x.y()), 1e-12);
      EXPECT_NEAR(curve[a][1], x.z(), 1e-12);
    }
  }
}

// The height-binned inside test against the plain even-odd rule over every edge of the same polygon,
// at the centres of a 0.25 cm grid over the bell's box and at points exactly at the polygon's vertex
// heights and bin borders (where an edge starts or ends). The reference is written here: the point's
// (r, h) in the bell frame and the even-odd rule over all edges. Same edge predicate, so the answers
// must be identical, not merely close.
TEST(JellyBellModel, BinnedInsideTestMatchesTheEveryEdgeTest) {
  const JellyBell bell = deformed_bell();
  const auto fast = bell.profile(96);
  ASSERT_GT(fast.bins, 0);
  const Eigen::Vector3d axis = bell.axis(), o = bell.origin();
  const Eigen::Vector3d e1 = axis.unitOrthogonal(), e2 = axis.cross(e1);
  auto reference = [&](const Eigen::Vector3d& p) {
    const Eigen::Vector3d d = p - o;
    const double h = d.dot(axis), r = (d - h * axis).norm();
    const auto& q = fast.points;
    bool in = false;
    for (size_t a = 0, b = q.size() - 1; a < q.size(); b = a++)
      if ((q[a][1] > h) != (q[b][1] > h) && r < (q[b][0] - q[a][0]) * (h - q[a][1]) / (q[b][1] - q[a][1]) + q[a][0])
        in = !in;
    return in;
  };
  long in = 0;
  for (double z = o.z() - 26; z < o.z() + 26; z += 0.5)
    for (double y = o.y() - 26; y < o.y() + 26; y += 0.5)
      for (double x = o.x() - 26; x < o.x() + 26; x += 0.5) {
        const Eigen::Vector3d p(x + 0.25, y + 0.25, z + 0.25);
        const bool f = bell.inside(p, fast);
        ASSERT_EQ(f, reference(p)) << p.transpose();
        in += f;
      }
  EXPECT_GT(in, 1000);  // the grid does reach the inside of the bell wall
  std::vector<double> heights;
  for (const auto& q : fast.points) heights.push_back(q[1]);
  for (int k = 0; k <= fast.bins; ++k) heights.push_back(fast.hmin + k / fast.bin_scale);
  for (double h : heights)
    for (double r = 0; r <= fast.rmax + 0.5; r += 0.05)
      for (double phi : {0.0, 1.0, 2.5}) {
        const Eigen::Vector3d p = o + h * axis + r * (std::cos(phi) * e1 + std::sin(phi) * e2);
        ASSERT_EQ(bell.inside(p, fast), reference(p)) << "h " << h << " r " << r;
      }
}

#if defined(IMMERSE_ENABLE_OPENMP)
// The surface samples and the groups computed on the openmp host space (parallel sample rows and inside
// tests) are the serial ones bit for bit: every parallel iteration writes only its own outputs, runs the
// same machine code as the serial loop, and the order-dependent sums stay serial. Compared every step
// of a fast, tilted, contracting swim.
TEST(JellyGroupsBookkeeping, SerialAndOpenmpGiveIdenticalGroups) {
  auto bp = default_bell();
  bp.axis = {1, 0.3, 1};
  bp.origin = {38, 40, 30};
  JellyBell bell(bp);
  coupling::JellyGroups serial(40, 40, 40, 2.0, 0.04, Backend::serial), openmp(40, 40, 40, 2.0, 0.04, Backend::openmp);
  for (int s = 0; s < 20; ++s) {
    bell.advance(0.04);
    bell.translate(3.0, 0.04);
    std::vector<bodies::JellySurfaceSample> ss, so;
    bell.sample_surface(1.0, ss, Backend::serial);
    bell.sample_surface(1.0, so, Backend::openmp);
    ASSERT_EQ(ss.size(), so.size());
    for (size_t m = 0; m < ss.size(); ++m) ASSERT_TRUE(ss[m].x == so[m].x && ss[m].v == so[m].v) << "sample " << m;
    const auto a = serial.update(bell), b = openmp.update(bell);
    ASSERT_EQ(a.count, b.count);
    ASSERT_EQ(a.inward_speed_sum, b.inward_speed_sum);
    ASSERT_EQ(a.max_surface_speed, b.max_surface_speed);
    ASSERT_EQ(serial.groups().group, openmp.groups().group);
    ASSERT_EQ(serial.groups().ub, openmp.groups().ub);
    ASSERT_EQ(serial.groups().region, openmp.groups().region);
    ASSERT_GT(a.count[lbm3d::kInner] + a.count[lbm3d::kInnerRim], 0);
  }
}
#endif

// Trilinear interpolation is exact for linear fields; midpoint RK2 is exact for constant velocity and
// for a linear shear u = (a z, 0, 0) with w = 0.
TEST(JellyPassive, TracersFollowLinearFieldsExactly) {
  const int n = 8;
  const double cell = 2, dt = 0.04;
  std::vector<float> u(3 * n * n * n, 0.f);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const long c = i + n * (j + n * k);
        u[c] = static_cast<float>(0.01 * (k + 0.5));  // lattice units
        u[n * n * n + c] = 0.02f;
      }
  bodies::JellyVelocityField field{n, n, n, cell, cell / dt, &u};
  const Eigen::Vector3d x0(5.3, 6.1, 7.7);
  const Eigen::Vector3d ux = field.at(x0);
  EXPECT_NEAR(ux.x(), 0.01 * (x0.z() / cell) * cell / dt, 1e-5);  // u_x = 0.01 z/cell in lattice units
  bodies::JellyTracers tr({x0});
  tr.advance(field, dt);
  EXPECT_NEAR(tr.positions()[0].y(), x0.y() + 0.02 * cell, 1e-6);
  EXPECT_NEAR(tr.positions()[0].x(), x0.x() + ux.x() * dt, 1e-6);
}

// A box of the field (what the jellyfish copies for its particles) samples the same bits as the
// whole field wherever a sample's 8 cells lie in the box, and counts a miss where they do not.
TEST(JellyPassive, BoxOfTheFieldSamplesLikeTheWholeField) {
  const int n = 8;
  std::vector<float> u(3 * n * n * n);
  for (size_t c = 0; c < u.size(); ++c) u[c] = static_cast<float>(std::sin(0.37 * c));
  const bodies::JellyVelocityField whole{n, n, n, 2, 50, &u};
  const std::array<int, 3> lo = {2, 1, 3}, size = {4, 5, 3};
  std::vector<float> b(3 * size[0] * size[1] * size[2]);
  for (int a = 0, m = 0; a < 3; ++a)
    for (int k = 0; k < size[2]; ++k)
      for (int j = 0; j < size[1]; ++j)
        for (int i = 0; i < size[0]; ++i) b[m++] = u[a * n * n * n + (lo[0] + i) + n * ((lo[1] + j) + n * (lo[2] + k))];
  bodies::JellyVelocityField box{n, n, n, 2, 50, &b};
  box.box_lo = lo, box.box_size = size;
  // Cell centres at 2 (i + 1/2) cm: (7.1, 6.5, 9.9) cm interpolates cells 3-4, 2-3, 4-5: inside.
  const Eigen::Vector3d inside(7.1, 6.5, 9.9), outside(3.0, 6.5, 9.9);
  const Eigen::Vector3d a = whole.at(inside), c = box.at(inside);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a[k], c[k]);
  EXPECT_EQ(box.misses, 0);
  box.at(outside);  // cells 0-1 along x: left of the box
  EXPECT_EQ(box.misses, 1);
  EXPECT_EQ(whole.misses, 0);
}

// Still water: algae stand up straight (buoyancy), tips above the anchors; a current bends them.
TEST(JellyPassive, AlgaeStandInStillWaterAndBendInACurrent) {
  const int n = 8;
  std::vector<float> u(3 * n * n * n, 0.f);
  bodies::JellyVelocityField field{n, n, n, 2, 50, &u};
  bodies::JellyAlgaeParams p;
  bodies::JellyAlgae still(p, {{8, 8, 1}}), moved(p, {{8, 8, 1}});
  for (int s = 0; s < 100; ++s) still.advance(field, 0.04);
  EXPECT_LT(still.max_tip_deflection(), 1e-9);
  EXPECT_GT(still.particle(0, p.links).z(), 1 + p.links * p.link_cm * 0.9);
  for (long c = 0; c < n * n * n; ++c) u[c] = 0.05f;  // 2.5 cm/s along x
  for (int s = 0; s < 100; ++s) moved.advance(field, 0.04);
  EXPECT_GT(moved.max_tip_deflection(), 1.0);
  EXPECT_GT(moved.particle(0, p.links).x(), 8);
}

// A tentacle (a chain hanging along up = -z, weight g) in a uniform current U: every particle feels
// the same drag k U and weight g, so the steady chain is straight along (k U, 0, -g): it trails at
// atan(k U / g) from the vertical (58 deg here) whatever its stiffness. Measured 4e-4 deg off; tol
// 0.5 deg (the settling transient, e-folding 1/k = 0.25 s, is 80 e-foldings gone). Without drag the
// same chain hangs straight down, 58 deg off the line (the counterexample).
TEST(JellyPassive, TentacleTrailsAtTheDragToWeightAngle) {
  const int n = 8;
  std::vector<float> u(3 * n * n * n, 0.f);
  for (long c = 0; c < n * n * n; ++c) u[c] = 2.f;  // 2 cm/s along x (cell 1 cm, 1 cm/s per lattice unit)
  bodies::JellyVelocityField field{n, n, n, 1, 1, &u};
  for (const double drag : {4.0, 0.0}) {
    bodies::JellyAlgaeParams p;
    p.links = 6;
    p.link_cm = 1;
    p.stiffness = 2000;
    p.drag = drag;
    p.buoyancy = 5;
    p.up = {0, 0, -1};
    bodies::JellyAlgae tentacle(p, {{4, 4, 7}});
    if (drag == 0) tentacle.move_anchors({{4, 4, 7}}, {0, 0, -1});  // moving nothing changes nothing
    for (int s = 0; s < 500; ++s) tentacle.advance(field, 0.04);
    const Eigen::Vector3d along = (tentacle.particle(0, p.links) - tentacle.particle(0, 0)).normalized();
    const double angle = std::acos(std::clamp(along.dot(Eigen::Vector3d(4 * 2, 0, -5).normalized()), -1.0, 1.0));
    if (drag > 0)
      EXPECT_LT(angle * 180 / M_PI, 0.5);
    else
      EXPECT_GT(angle * 180 / M_PI, 50.0);
  }
}

template <class Exec>
class JellyLattice : public test::BackendTest<Exec> {};
TYPED_TEST_SUITE(JellyLattice, test::EnabledSpaces, test::SpaceName);

// A bell that does not move leaves the water at rest everywhere (C1 velocity 0: plain bounce-back).
TYPED_TEST(JellyLattice, StillBellLeavesTheWaterAtRest) {
  auto bp = default_bell();
  bp.contraction = 0;
  JellyBell bell(bp);
  lbm3d::LbmParams p;
  p.nx = p.ny = p.nz = 40;
  p.tau = 0.6;
  for (auto& b : p.border) b = lbm3d::Border::outflow;
  auto flow = lbm3d::make_lbm_flow(this->backend, p);
  coupling::JellyGroups groups(40, 40, 40, 2.0, 0.04);
  for (int s = 0; s < 30; ++s) {
    bell.advance(0.04);
    groups.update(bell);
    flow->set_groups(groups.groups());
    flow->step();
  }
  EXPECT_LT(flow->health().max_speed, 1e-7);  // FP32 round-off of rest populations
}
