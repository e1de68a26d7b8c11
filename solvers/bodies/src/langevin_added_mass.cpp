#include "immerse/bodies/langevin_added_mass.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "immerse/bodies/mesh_mirrors.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/huge_pages.hpp"

namespace immerse::bodies {
namespace {

struct PanelInfluence {
  double potential;          // psi(x) = int_T dA / |x - y|
  Eigen::Vector3d gradient;  // grad_x psi
  double solid_angle;        // int_T n_y.(x - y) / |x - y|^3 dA (the double layer); 0 on the face itself (PV)
};

// Uniform unit source density on the flat triangle v (outward normal nt) seen from x (Hess & Smith;
// Newman 1986): psi = sum_e d_e L_e - |h| Omega, grad psi = -sum_e m_e L_e - nt Omega_signed, with
// m_e the in-plane outward edge normals, d_e = m_e.(v_e - x), L_e = ln((r1 + r2 + l)/(r1 + r2 - l)),
// h = nt.(x - v_0) and Omega the solid angle (Van Oosterom & Strackee), signed positive on the nt side.
// `self`: x is the face's own centroid, taken on the outer side (the limit Omega -> 2 pi).
PanelInfluence panel_influence(const Eigen::Vector3d v[3], const Eigen::Vector3d& nt, const Eigen::Vector3d& x,
                               bool self) {
  PanelInfluence out{0, Eigen::Vector3d::Zero(), 0};
  const Eigen::Vector3d R[3] = {v[0] - x, v[1] - x, v[2] - x};
  const double r[3] = {R[0].norm(), R[1].norm(), R[2].norm()};
  const double h = nt.dot(x - v[0]);
  double omega;
  if (self) {
    omega = 2 * M_PI;
  } else {
    const double num = R[0].dot(R[1].cross(R[2]));
    const double den = r[0] * r[1] * r[2] + R[0].dot(R[1]) * r[2] + R[0].dot(R[2]) * r[1] + R[1].dot(R[2]) * r[0];
    omega = -2.0 * std::atan2(num, den);  // triple product < 0 on the nt side
  }
  for (int e = 0; e < 3; ++e) {
    const int a = e, b = (e + 1) % 3;
    const Eigen::Vector3d edge = v[b] - v[a];
    const double l = edge.norm();
    const Eigen::Vector3d m = edge.cross(nt) / l;  // in-plane, pointing out of the triangle (CCW about nt)
    const double s = r[a] + r[b];
    const double L = std::log((s + l) / std::max(s - l, 1e-300));
    out.potential += m.dot(R[a]) * L;
    out.gradient -= m * L;
  }
  out.potential -= std::abs(h) * std::abs(omega);
  out.gradient -= nt * omega;
  out.solid_angle = self ? 0.0 : omega;
  return out;
}

// The collocation matrix, row-major: row i (collocation point i) is assembled, and read by the
// products, as one contiguous stream.
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows [0, n) through f(i): the host threads share them when Kokkos runs, in equal blocks
// (Kokkos::Static: rows of equal cost, the products) or as threads free up (Kokkos::Dynamic: the
// assembly, whose rows near a rim or a fold have more exact integrals than the rest; the classes).
template <class Schedule, class F>
void for_rows(const char* name, int n, const F& f) {
  if (Kokkos::is_initialized())
    Kokkos::parallel_for(name, Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Schedule>>(0, n),
                         f);
  else
    for (int i = 0; i < n; ++i) f(i);
}

// V = A Y for the n x 6 block Y: Y copied row-major into 8 lanes (two zero lanes), then per row of
// A one pass with 8 accumulators (one 512-bit or two 256-bit FMAs per entry). Eigen's general
// product packed the whole of A into a buffer on every call (a third of the added-mass time).
void product6(const Eigen::Ref<const RowMatrix>& A, const Eigen::MatrixXd& Y, Eigen::MatrixXd& V,
              std::vector<double>& lanes) {
  const int n = int(A.rows());
  lanes.assign(size_t(n) * 8, 0.0);
  for (int j = 0; j < n; ++j)
    for (int c = 0; c < 6; ++c) lanes[size_t(j) * 8 + c] = Y(j, c);
  const double* yp = lanes.data();
  for_rows<Kokkos::Static>("langevin_added_mass_product", n, [&](int i) {
    const double* a = A.row(i).data();
    // (Eigen's fixed-size array, so the compiler keeps the 8 lanes in one register rather than
    // vectorising over j with shuffles and scalar horizontal sums, as it did with a plain loop.)
    // Four independent sums hide the multiply-add latency.
    using Lanes = Eigen::Array<double, 8, 1>;
    Lanes acc0 = Lanes::Zero(), acc1 = Lanes::Zero(), acc2 = Lanes::Zero(), acc3 = Lanes::Zero();
    int j = 0;
    for (; j + 4 <= n; j += 4) {
      acc0 += a[j] * Eigen::Map<const Lanes>(yp + size_t(j) * 8);
      acc1 += a[j + 1] * Eigen::Map<const Lanes>(yp + size_t(j + 1) * 8);
      acc2 += a[j + 2] * Eigen::Map<const Lanes>(yp + size_t(j + 2) * 8);
      acc3 += a[j + 3] * Eigen::Map<const Lanes>(yp + size_t(j + 3) * 8);
    }
    for (; j < n; ++j) acc0 += a[j] * Eigen::Map<const Lanes>(yp + size_t(j) * 8);
    const Lanes acc = (acc0 + acc1) + (acc2 + acc3);
    for (int c = 0; c < 6; ++c) V(i, c) = acc[c];
  });
}

// BiCGSTAB (van der Vorst 1992; the same recurrences, restart rule and Jacobi preconditioner as
// Eigen's BiCGSTAB) run on the k right-hand sides in lockstep: each column keeps its own scalars
// and stops at its own convergence, but the two matrix products per iteration are done for all
// columns at once (one n x n by n x k product), so the dense matrix streams through the caches
// twice per iteration instead of 2k times. Returns the largest iteration count, -1 if a column
// did not reach tol (relative residual) in max_iters.
int bicgstab_columns(const Eigen::Ref<const RowMatrix>& A, const Eigen::MatrixXd& B, Eigen::MatrixXd& X, double tol,
                     int max_iters) {
  const Eigen::Index n = A.rows(), k = B.cols();  // k = 6 (product6)
  std::vector<double> lanes;
  const Eigen::VectorXd inv_diag = A.diagonal().cwiseInverse();
  X.setZero(n, k);
  Eigen::MatrixXd R = B, R0 = B, P = Eigen::MatrixXd::Zero(n, k), V = Eigen::MatrixXd::Zero(n, k);
  Eigen::MatrixXd Y(n, k), Z(n, k), S(n, k), T(n, k);
  std::vector<double> rho(k, 1.0), alpha(k, 1.0), w(k, 1.0), r0_sq(k), tol2(k);
  std::vector<int> iters(k, 0), restarts(k, 0);
  std::vector<char> active(k, 0);
  const double eps2 = std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon();
  for (Eigen::Index c = 0; c < k; ++c) {
    r0_sq[c] = R0.col(c).squaredNorm();
    const double b2 = B.col(c).squaredNorm();
    tol2[c] = tol * tol * b2;
    active[c] = b2 > 0 && R.col(c).squaredNorm() > tol2[c] && max_iters > 0;
  }
  auto any_active = [&] { return std::find(active.begin(), active.end(), 1) != active.end(); };
  while (any_active()) {
    for (Eigen::Index c = 0; c < k; ++c) {
      if (!active[c]) {
        Y.col(c).setZero();
        continue;
      }
      const double rho_old = rho[c];
      rho[c] = R0.col(c).dot(R.col(c));
      if (std::abs(rho[c]) < eps2 * r0_sq[c]) {  // residual orthogonal to the shadow one: restart
        R.col(c) = B.col(c) - A * X.col(c);
        R0.col(c) = R.col(c);
        rho[c] = r0_sq[c] = R.col(c).squaredNorm();
        if (restarts[c]++ == 0) iters[c] = 0;
      }
      const double beta = (rho[c] / rho_old) * (alpha[c] / w[c]);
      P.col(c) = R.col(c) + beta * (P.col(c) - w[c] * V.col(c));
      Y.col(c) = inv_diag.cwiseProduct(P.col(c));
    }
    product6(A, Y, V, lanes);
    for (Eigen::Index c = 0; c < k; ++c) {
      if (!active[c]) {
        Z.col(c).setZero();
        continue;
      }
      alpha[c] = rho[c] / R0.col(c).dot(V.col(c));
      S.col(c) = R.col(c) - alpha[c] * V.col(c);
      Z.col(c) = inv_diag.cwiseProduct(S.col(c));
    }
    product6(A, Z, T, lanes);
    for (Eigen::Index c = 0; c < k; ++c) {
      if (!active[c]) continue;
      const double tt = T.col(c).squaredNorm();
      w[c] = tt > 0 ? T.col(c).dot(S.col(c)) / tt : 0.0;
      X.col(c) += alpha[c] * Y.col(c) + w[c] * Z.col(c);
      R.col(c) = S.col(c) - w[c] * T.col(c);
      ++iters[c];
      active[c] = R.col(c).squaredNorm() > tol2[c] && iters[c] < max_iters;
      // Stall check: a healthy solve of this second-kind system gains > 10^6 in 10 iterations (the
      // ellipsoids reach 10^-12 in 6); a column that has not (thin sheets) would run to the cap,
      // so give up now and let the caller's dense LU solve it.
      if (active[c] && iters[c] == 10 && R.col(c).squaredNorm() > 1e12 * tol2[c]) return -1;
    }
  }
  int worst = 0;
  for (Eigen::Index c = 0; c < k; ++c) {
    const double b2 = B.col(c).squaredNorm();
    if (b2 > 0 && R.col(c).squaredNorm() > tol2[c]) return -1;
    worst = std::max(worst, iters[c]);
  }
  return worst;
}

// The body's faces relative to the origin of the result, as the assemblies read them:
// structure-of-arrays copies so the far-field row loops vectorise.
struct Faces {
  int n = 0;
  std::vector<std::array<Eigen::Vector3d, 3>> tri;
  std::vector<Eigen::Vector3d> c, nrm;  // centroids, unit outward normals
  Eigen::ArrayXd cx, cy, cz, nx, ny, nz, area, far2;
  // Normal velocity of the six unit motions at the face centres: n (translation), c x n (rotation).
  Eigen::MatrixXd B;
};

Faces collect_faces(const TriMesh& mesh, const Eigen::Vector3d& origin, double far_ratio) {
  Faces f;
  const int n = f.n = mesh.face_count();
  f.tri.resize(n);
  f.c.resize(n);
  f.nrm.resize(n);
  for (auto* a : {&f.cx, &f.cy, &f.cz, &f.nx, &f.ny, &f.nz, &f.area, &f.far2}) a->resize(n);
  f.B.resize(n, 6);
  for (int i = 0; i < n; ++i) {
    const auto& t = mesh.faces[i];
    f.tri[i] = {mesh.vertices[t[0]] - origin, mesh.vertices[t[1]] - origin, mesh.vertices[t[2]] - origin};
    const auto& v = f.tri[i];
    f.c[i] = mesh.face_centroid(i) - origin;
    f.nrm[i] = mesh.face_normal(i);
    f.area[i] = mesh.face_area(i);
    f.cx[i] = f.c[i].x();
    f.cy[i] = f.c[i].y();
    f.cz[i] = f.c[i].z();
    f.nx[i] = f.nrm[i].x();
    f.ny[i] = f.nrm[i].y();
    f.nz[i] = f.nrm[i].z();
    const double diam2 =
        std::max({(v[1] - v[0]).squaredNorm(), (v[2] - v[1]).squaredNorm(), (v[0] - v[2]).squaredNorm()});
    f.far2[i] = far_ratio * far_ratio * diam2;
    f.B.block<1, 3>(i, 0) = f.nrm[i].transpose();
    f.B.block<1, 3>(i, 3) = f.c[i].cross(f.nrm[i]).transpose();
  }
  return f;
}

// One collocation system and its energy form: A X = R for the six unit motions (X: n x 6), and
// K = -rho X^T W (n x 6) the fluid's kinetic energy, T = -rho/2 sum_faces phi dphi/dn area.
struct Collocation {
  HugePageBuffer a_storage;  // A is n_rows x n_faces: megabytes, written once per body
  Eigen::Map<RowMatrix> A;
  Eigen::MatrixXd R;
  Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor> W;
};

// The rows of the collocation system the assemblies build: collocation points rows[p], every column.
Collocation rows_of(const Faces& f, const std::vector<int>& rows) {
  HugePageBuffer a(rows.size() * size_t(f.n) * sizeof(double));
  double* a_data = a.as<double>();
  Collocation k{std::move(a), Eigen::Map<RowMatrix>(a_data, Eigen::Index(rows.size()), f.n),
                Eigen::MatrixXd(rows.size(), 6), decltype(Collocation::W)(rows.size(), 6)};
  for (size_t p = 0; p < rows.size(); ++p) k.R.row(p) = f.B.row(rows[p]);
  return k;
}

// point_sources: phi(x) = sum_j sigma_j / |x - s_j|, s_j the source below face j;
// A_ij = n_i . grad(1/|x - s_j|) at c_i; X = sigma; W = P^T diag(area) B with P_ji = 1/|c_j - s_i|.
Collocation assemble_point_sources(const Faces& f, const std::vector<Eigen::Vector3d>& s,
                                   const std::vector<int>& rows) {
  const int n = f.n;
  Collocation k = rows_of(f, rows);
  for_rows<Kokkos::Dynamic>("langevin_added_mass_rows", int(rows.size()), [&](int p) {
    const int i = rows[p];
    double w[6] = {0, 0, 0, 0, 0, 0};
    for (int j = 0; j < n; ++j) {
      const Eigen::Vector3d d = f.c[i] - s[j];
      const double inv = 1.0 / d.norm();
      k.A(p, j) = -f.nrm[i].dot(d) * inv * inv * inv;
      const double pw = f.area[j] / (f.c[j] - s[i]).norm();  // P(j, i) area_j
      for (int l = 0; l < 6; ++l) w[l] += pw * f.B(j, l);
    }
    for (int l = 0; l < 6; ++l) k.W(p, l) = w[l];
  });
  return k;
}

// Squared distances from centre i to every centre (one row, vectorised).
Eigen::ArrayXd distances2(const Faces& f, int i, Eigen::ArrayXd& dx, Eigen::ArrayXd& dy, Eigen::ArrayXd& dz) {
  dx = f.cx[i] - f.cx;
  dy = f.cy[i] - f.cy;
  dz = f.cz[i] - f.cz;
  return dx * dx + dy * dy + dz * dz;
}

// panels: phi(x) = sum_j sigma_j psi_j(x), psi_j = int_{face j} dA / |x - y| (uniform source density);
// A_ij = n_i . grad psi_j(c_i); X = sigma; W = P^T diag(area) B with P_ji = psi_i(c_j).
// Beyond far_ratio panel diameters the point form (area at the centroid) replaces the exact
// integral: ~10x cheaper (no logs, no atan2).
Collocation assemble_source_panels(const Faces& f, const std::vector<int>& rows) {
  const int n = f.n;
  Collocation k = rows_of(f, rows);
  for_rows<Kokkos::Dynamic>("langevin_added_mass_rows", int(rows.size()), [&](int p) {
    const int i = rows[p];
    double* a = k.A.row(p).data();
    const Eigen::Vector3d& ni = f.nrm[i];
    const double fi = f.far2[i], ai = f.area[i];
    double w[6] = {0, 0, 0, 0, 0, 0};
    // Far field first, every entry with the point form, as whole-row array expressions (Eigen
    // vectorises the square roots and the selects); the near entries (within far_ratio diameters
    // of panel j for A, of panel i for W) are zero here and filled below.
    Eigen::ArrayXd dx, dy, dz;
    const Eigen::ArrayXd r2 = distances2(f, i, dx, dy, dz);
    {
      const Eigen::ArrayXd inv = r2.max(1e-300).sqrt().inverse();
      Eigen::Map<Eigen::ArrayXd>(a, n) =
          (r2 > f.far2).select(-f.area * (ni.x() * dx + ni.y() * dy + ni.z() * dz) * inv * inv * inv, 0.0);
      const Eigen::ArrayXd pw = (r2 > fi).select(ai * inv * f.area, 0.0);  // P(j, i) area_j
      const Eigen::Matrix<double, 1, 6> wf = pw.matrix().transpose() * f.B;
      for (int l = 0; l < 6; ++l) w[l] = wf(l);
    }
    // Near field: the exact triangle integrals (the panel itself included: r2 = 0).
    for (int j = 0; j < n; ++j) {
      if (i == j || r2[j] <= f.far2[j])
        a[j] = ni.dot(panel_influence(f.tri[j].data(), f.nrm[j], f.c[i], i == j).gradient);
      if (i == j || r2[j] <= fi) {
        const double pw = panel_influence(f.tri[i].data(), ni, f.c[j], i == j).potential * f.area[j];
        for (int l = 0; l < 6; ++l) w[l] += pw * f.B(j, l);
      }
    }
    for (int l = 0; l < 6; ++l) k.W(p, l) = w[l];
  });
  return k;
}

// green: Green's third identity for the exterior potential at the face centres, phi constant on
// each face: 2 pi phi_i - sum_j D_ij phi_j = -sum_j S_ij dphi/dn_j, with D_ij = int_j n_y.(c_i - y)
// / |c_i - y|^3 dA (the solid angle of face j seen from c_i; 0 for j = i) and S_ij = psi_j(c_i).
// X = phi, W = diag(area) B. One triangle integral per near pair gives both D and S; beyond
// far_ratio diameters the point forms area_j n_j.(c_i - c_j)/r^3 and area_j / r.
Collocation assemble_green(const Faces& f, const std::vector<int>& rows) {
  const int n = f.n;
  Collocation k = rows_of(f, rows);
  for_rows<Kokkos::Dynamic>("langevin_added_mass_rows", int(rows.size()), [&](int p) {
    const int i = rows[p];
    double* a = k.A.row(p).data();
    Eigen::ArrayXd dx, dy, dz;
    const Eigen::ArrayXd r2 = distances2(f, i, dx, dy, dz);
    const Eigen::ArrayXd inv = r2.max(1e-300).sqrt().inverse();
    const Eigen::Array<bool, Eigen::Dynamic, 1> far = r2 > f.far2;
    Eigen::Map<Eigen::ArrayXd>(a, n) = far.select(-f.area * (f.nx * dx + f.ny * dy + f.nz * dz) * inv * inv * inv, 0.0);
    Eigen::ArrayXd s = far.select(f.area * inv, 0.0);
    for (int j = 0; j < n; ++j) {
      if (far[j]) continue;  // (the face itself, r2 = 0, is never far)
      const PanelInfluence p = panel_influence(f.tri[j].data(), f.nrm[j], f.c[i], i == j);
      a[j] = -p.solid_angle;
      s[j] = p.potential;
    }
    a[i] += 2 * M_PI;
    k.R.row(p) = -(s.matrix().transpose() * f.B);
    k.W.row(p) = f.area[i] * f.B.row(i);
  });
  return k;
}

// The faces split into the orbits of a mirror group: rep[j] the smallest face of j's orbit, via[j]
// an element that maps rep[j] onto j, size[r] the orbit's size (for r a representative).
struct Orbits {
  std::vector<int> reps, rep, via, size;
};

Orbits face_orbits(const MeshMirrors& g, int n) {
  Orbits o{{}, std::vector<int>(n, -1), std::vector<int>(n, 0), std::vector<int>(n, 0)};
  for (int i = 0; i < n; ++i) {
    if (o.rep[i] >= 0) continue;
    o.reps.push_back(i);
    for (int e = 0; e < g.order(); ++e) {
      const int j = g.face_image[e][i];
      if (o.rep[j] >= 0) continue;
      o.rep[j] = i;
      o.via[j] = e;
      ++o.size[i];
    }
  }
  return o;
}

// The symmetric solve. A motion whose normal velocity has the sign pattern chi (chi[e] of element
// e, mirror_sign) has a solution with the same pattern, X(g r) = chi(g) X(r), and is zero on an
// orbit whose stabiliser chi does not leave at +1. So the motions of one pattern (a class) share a
// system in the orbits' representatives: A_c(p, q) = sum over the faces j of orbit q of chi(via_j)
// A(r_p, j), |G| times smaller than A. Their energy form sums each orbit as |orbit| times its
// representative, and motions of different classes do not couple (the orbit sums cancel).
// k holds the representatives' rows. Returns the largest normalised collocation residual.
double solve_by_classes(const Collocation& k, const MeshMirrors& g, const Orbits& o, double rho, Matrix6d& K) {
  const int nr = int(o.reps.size());
  std::map<std::vector<int>, std::vector<int>> by_pattern;  // sign pattern -> motions
  for (int l = 0; l < 6; ++l) {
    std::vector<int> chi(g.order());
    for (int e = 0; e < g.order(); ++e) chi[e] = mirror_sign(g.flips[e], l);
    by_pattern[chi].push_back(l);
  }
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> classes(by_pattern.begin(), by_pattern.end());
  K.setZero();
  const double r_max = std::max(k.R.cwiseAbs().maxCoeff(), 1e-300);
  std::vector<double> residual(classes.size(), 0.0);
  // Each class's unknowns: the representatives, as rows of k, that no element fixes with chi -1
  // (that would force X(r) = -X(r) = 0). The classes' folded blocks share one buffer.
  std::vector<std::vector<int>> class_rows(classes.size());
  std::vector<size_t> block_at(classes.size() + 1, 0);
  for (size_t ci = 0; ci < classes.size(); ++ci) {
    const std::vector<int>& chi = classes[ci].first;
    for (int p = 0; p < nr; ++p) {
      const int r = o.reps[p];
      bool fixed_by_odd = false;
      for (int e = 0; e < g.order(); ++e) fixed_by_odd = fixed_by_odd || (g.face_image[e][r] == r && chi[e] == -1);
      if (!fixed_by_odd) class_rows[ci].push_back(p);
    }
    block_at[ci + 1] = block_at[ci] + class_rows[ci].size() * class_rows[ci].size();
  }
  const HugePageBuffer blocks(block_at.back() * sizeof(double));
  // One class per thread: each folds its block, factorises it and fills its motions' part of K.
  for_rows<Kokkos::Dynamic>("langevin_added_mass_classes", int(classes.size()), [&](int ci) {
    const std::vector<int>& chi = classes[ci].first;
    const std::vector<int>& motions = classes[ci].second;
    const std::vector<int>& rows = class_rows[ci];
    const int m = int(rows.size()), nm = int(motions.size());
    if (m == 0) return;
    // A_c(q, c) as a gather: the images of representative c under every element, each weighted
    // chi(e) / |stabiliser of c| (an orbit of fewer faces is met once per stabilising element).
    const int ne = g.order();
    std::vector<int> image(size_t(ne) * m);
    std::vector<double> weight(size_t(ne) * m);
    for (int c = 0; c < m; ++c) {
      const int r = o.reps[rows[c]];
      const double stabiliser = double(ne) / o.size[r];
      for (int e = 0; e < ne; ++e) {
        image[size_t(e) * m + c] = g.face_image[e][r];
        weight[size_t(e) * m + c] = chi[e] / stabiliser;
      }
    }
    Eigen::Map<RowMatrix> Ac(blocks.as<double>() + block_at[ci], m, m);
    Ac.setZero();
    for (int q = 0; q < m; ++q) {
      const double* a = k.A.row(rows[q]).data();
      double* out = Ac.row(q).data();
      for (int e = 0; e < ne; ++e) {
        const int* im = image.data() + size_t(e) * m;
        const double* w = weight.data() + size_t(e) * m;
        for (int c = 0; c < m; ++c) out[c] += w[c] * a[im[c]];
      }
    }
    Eigen::MatrixXd Rc(m, nm);
    for (int q = 0; q < m; ++q)
      for (int c = 0; c < nm; ++c) Rc(q, c) = k.R(rows[q], motions[c]);
    // Ac's rows are the columns of Ac^T: factorise that in place and solve with its transpose.
    Eigen::Map<Eigen::MatrixXd> AcT(Ac.data(), m, m);
    const Eigen::PartialPivLU<Eigen::Ref<Eigen::MatrixXd>> lu(AcT);
    const Eigen::MatrixXd Xc = lu.transpose().solve(Rc);
    // The residual of the whole collocation system at these rows, the solution unfolded onto every face.
    std::vector<int> col_of(o.rep.size(), -1);
    for (int c = 0; c < m; ++c) col_of[o.reps[rows[c]]] = c;
    Eigen::MatrixXd Xfull = Eigen::MatrixXd::Zero(k.A.cols(), nm);
    for (Eigen::Index j = 0; j < k.A.cols(); ++j)
      if (const int c = col_of[o.rep[j]]; c >= 0) Xfull.row(j) = chi[o.via[j]] * Xc.row(c);
    for (int q = 0; q < m; ++q)
      residual[ci] = std::max(residual[ci], (k.A.row(rows[q]) * Xfull - Rc.row(q)).cwiseAbs().maxCoeff() / r_max);
    for (int a = 0; a < nm; ++a)
      for (int b = 0; b < nm; ++b) {
        double sum = 0;
        for (int q = 0; q < m; ++q) sum += o.size[o.reps[rows[q]]] * Xc(q, a) * k.W(rows[q], motions[b]);
        K(motions[a], motions[b]) = -rho * sum;
      }
  });
  return *std::max_element(residual.begin(), residual.end());
}

// The whole system (no mirror symmetry): the six motions' potentials X (n x 6) and their energy form.
Matrix6d solve_full(const Collocation& k, const AddedMassOptions& opt, AddedMassResult& r) {
  Eigen::MatrixXd X(k.A.rows(), 6);
  if (opt.iterative) {
    // The collocation matrices are of the second kind (2 pi on the diagonal plus a compact part),
    // so a Krylov solver converges in a few dozen products: O(n^2) per product instead of the LU's
    // O(n^3). Thin sheets are worse conditioned (top and bottom panels nearly cancel): past 40
    // iterations the dense LU is cheaper, so the solve falls back to it.
    r.iterations = bicgstab_columns(k.A, k.R, X, 1e-12, 40);
  }
  if (!opt.iterative || r.iterations < 0) {
    const HugePageBuffer lu_storage(size_t(k.A.size()) * sizeof(double));
    Eigen::Map<Eigen::MatrixXd> lu_matrix(lu_storage.as<double>(), k.A.rows(), k.A.cols());
    lu_matrix = k.A;
    X = Eigen::PartialPivLU<Eigen::Ref<Eigen::MatrixXd>>(lu_matrix).solve(k.R);
  }
  // The collocation residual (a diagnostic) costs a full product; BiCGSTAB already bounds it.
  if (!opt.iterative || r.iterations < 0)
    r.bc_residual = (k.A * X - k.R).cwiseAbs().maxCoeff() / k.R.cwiseAbs().maxCoeff();
  // K_kl = -rho sum_i phi_k(c_i) (dphi_l/dn)(c_i) A_i: the kinetic energy's bilinear form.
  return -opt.fluid_density * X.transpose() * k.W;
}

}  // namespace

AddedMassResult langevin_added_mass(const TriMesh& mesh, const AddedMassOptions& opt) {
  const int n = mesh.face_count();
  if (n == 0) throw InputError("added mass: the mesh has no faces");
  if (!(opt.fluid_density > 0))
    throw InputError(fmt::format("added mass: fluid density {} must be > 0", opt.fluid_density));
  const auto t0 = std::chrono::steady_clock::now();
  AddedMassResult r;
  r.faces = n;
  const MassProperties mp = mass_properties(mesh);
  r.volume = mp.volume;
  const Eigen::Vector3d origin = opt.about_centroid ? mp.centroid : Eigen::Vector3d::Zero();
  const Faces f = collect_faces(mesh, origin, opt.far_ratio);
  // A mirror-symmetric mesh needs the rows of its orbits' representatives only.
  MeshMirrors mirrors;
  if (opt.use_mirrors) mirrors = mesh_mirrors(mesh, origin);
  r.mirror_order = std::max(1, mirrors.order());
  Orbits orbits;
  std::vector<int> rows(n);
  for (int i = 0; i < n; ++i) rows[i] = i;
  if (r.mirror_order > 1) {
    orbits = face_orbits(mirrors, n);
    rows = orbits.reps;
  }
  const Collocation k = [&] {
    switch (opt.model) {
      case SourceModel::point_sources: {
        std::vector<Eigen::Vector3d> s(n);
        for (int i = 0; i < n; ++i) {
          double depth = opt.offset_factor * std::sqrt(f.area[i]);
          if (opt.thickness > 0) depth = std::min(depth, opt.thin_offset * opt.thickness);
          s[i] = f.c[i] - depth * f.nrm[i];
        }
        return assemble_point_sources(f, s, rows);
      }
      case SourceModel::panels:
        return assemble_source_panels(f, rows);
      case SourceModel::green:
        break;
    }
    return assemble_green(f, rows);
  }();
  const auto t1 = std::chrono::steady_clock::now();
  r.assemble_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  Matrix6d K;
  if (r.mirror_order > 1) {
    r.bc_residual = solve_by_classes(k, mirrors, orbits, opt.fluid_density, K);
  } else {
    K = solve_full(k, opt, r);
  }
  r.raw_asymmetry = (K - K.transpose()).cwiseAbs().maxCoeff() / K.cwiseAbs().maxCoeff();
  // Green's reciprocity makes the exact form symmetric; the quadrature's asymmetry is reported
  // (raw_asymmetry) and removed, so the matrix is symmetric by construction.
  r.matrix = 0.5 * (K + K.transpose());
  r.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

AddedMassResult langevin_added_mass_richardson(const TriMesh& fine, const TriMesh& coarse,
                                               const AddedMassOptions& opt) {
  if (opt.model != SourceModel::green)
    throw InputError(fmt::format("added mass: Richardson extrapolation needs the green model (second order), not {}",
                                 source_model_choices().name(opt.model)));
  if (!(coarse.face_count() > 0 && coarse.face_count() < fine.face_count()))
    throw InputError(fmt::format("added mass: Richardson extrapolation needs a coarser mesh ({} faces) than {}",
                                 coarse.face_count(), fine.face_count()));
  AddedMassResult r = langevin_added_mass(fine, opt);
  const AddedMassResult c = langevin_added_mass(coarse, opt);
  r.matrix = richardson_extrapolate(r.matrix, c.matrix, double(fine.face_count()) / coarse.face_count());
  r.solve_ms += c.solve_ms;
  r.assemble_ms += c.assemble_ms;
  r.iterations = (r.iterations < 0 || c.iterations < 0) ? -1 : std::max(r.iterations, c.iterations);
  r.bc_residual = std::max(r.bc_residual, c.bc_residual);
  r.raw_asymmetry = std::max(r.raw_asymmetry, c.raw_asymmetry);
  return r;
}

AddedMassResult langevin_added_mass(const TriMesh& mesh, const std::optional<TriMesh>& coarse,
                                    const AddedMassOptions& opt) {
  if (coarse && opt.model == SourceModel::green) return langevin_added_mass_richardson(mesh, *coarse, opt);
  return langevin_added_mass(mesh, opt);
}

namespace {
// int_0^inf dl / ((p^2 + l) Delta(l)), Delta = sqrt((a^2+l)(b^2+l)(c^2+l)); substitution
// l = L (1/(1-t)^2 - 1) makes the integrand smooth on [0, 1]; composite Simpson.
double lamb_integral(double p, double a, double b, double c) {
  const double L = std::max({a * a, b * b, c * c});
  const int m = 20000;
  const double h = 1.0 / m;
  double sum = 0;
  for (int k = 0; k <= m; ++k) {
    const double t = k * h;
    double f = 0;
    if (k < m) {
      const double u = 1.0 / (1.0 - t);
      const double l = L * (u * u - 1.0), dl = 2.0 * L * u * u * u;
      f = dl / ((p * p + l) * std::sqrt((a * a + l) * (b * b + l) * (c * c + l)));
    }
    sum += f * ((k == 0 || k == m) ? 1.0 : (k % 2 ? 4.0 : 2.0));
  }
  return sum * h / 3.0;
}
}  // namespace

Matrix6d lamb_ellipsoid_added_mass(double a, double b, double c, double rho) {
  const double V = 4.0 / 3.0 * M_PI * a * b * c, abc = a * b * c;
  const double al = abc * lamb_integral(a, a, b, c), be = abc * lamb_integral(b, a, b, c),
               ga = abc * lamb_integral(c, a, b, c);
  Matrix6d M = Matrix6d::Zero();
  M(0, 0) = al / (2 - al) * rho * V;
  M(1, 1) = be / (2 - be) * rho * V;
  M(2, 2) = ga / (2 - ga) * rho * V;
  auto rot = [&](double p2, double q2, double gp, double gq) {  // rotation about the third axis
    const double d = p2 - q2;
    if (std::abs(d) < 1e-14 * (p2 + q2)) return 0.0;  // axisymmetric about it: no fluid moves
    return 0.2 * rho * V * d * d * (gq - gp) / (2 * d + (p2 + q2) * (gp - gq));
  };
  M(3, 3) = rot(b * b, c * c, be, ga);
  M(4, 4) = rot(c * c, a * a, ga, al);
  M(5, 5) = rot(a * a, b * b, al, be);
  return M;
}

}  // namespace immerse::bodies
