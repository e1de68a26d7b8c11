#include "immerse/bodies/langevin_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "immerse/core/backend.hpp"
#include "immerse/core/error.hpp"

namespace immerse::bodies {

LangevinBodyParams langevin_body_params(const TriMesh& mesh, double rho_b, double rho_f, const Matrix6d& added,
                                        double Re, bool langevin) {
  if (!(rho_b > 0) || !(rho_f >= 0))
    throw InputError(fmt::format("body density {} must be > 0 and fluid density {} >= 0", rho_b, rho_f));
  const MassProperties mp = mass_properties(mesh);
  LangevinBodyParams p;
  p.volume = mp.volume;
  p.mass = rho_b * mp.volume;
  p.fluid_density = rho_f;
  Matrix6d K = added;
  K.topLeftCorner<3, 3>() += p.mass * Eigen::Matrix3d::Identity();
  K.bottomRightCorner<3, 3>() += rho_b * mp.inertia;
  const Matrix6d Kinv = K.inverse();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) p.K[i * 6 + j] = K(i, j), p.Kinv[i * 6 + j] = Kinv(i, j);
  // A uniform body: the centre of buoyancy is the centroid of the displaced volume = centre of mass.
  for (int a = 0; a < 3; ++a) p.r_buoyancy[a] = 0;
  const Eigen::AlignedBox3d box = mesh.bounds();
  const Eigen::Vector3d half = 0.5 * (box.max() - box.min());
  for (int a = 0; a < 3; ++a) p.extent[a] = half[a];
  p.L_ref = half.maxCoeff();
  p.C0 = langevin_c0(Re);
  p.langevin = langevin ? 1 : 0;
  return p;
}

void langevin_set_lift(LangevinBodyParams& p, const TriMesh& mesh, const double nose[3], const double normal[3],
                       const std::string& where) {
  const Eigen::Vector3d e0(nose[0], nose[1], nose[2]), n0(normal[0], normal[1], normal[2]);
  const Eigen::Vector3d n1 = n0 - n0.dot(e0) / std::max(e0.squaredNorm(), 1e-300) * e0;
  if (!(e0.norm() > 0) || !(n1.norm() > 1e-6 * n0.norm()))
    throw InputError(
        fmt::format("{}: the nose ({}, {}, {}) and the normal ({}, {}, {}) must be non-zero and "
                    "not parallel",
                    where, nose[0], nose[1], nose[2], normal[0], normal[1], normal[2]));
  const Eigen::Vector3d e = e0.normalized(), n = n1.normalized(), s = n.cross(e);
  double smin = 1e300, smax = -1e300, emin = 1e300;
  for (const auto& v : mesh.vertices) {
    smin = std::min(smin, v.dot(s));
    smax = std::max(smax, v.dot(s));
    emin = std::min(emin, v.dot(e));
  }
  const double span = smax - smin;
  p.lift_k = 0.25 * M_PI * p.fluid_density * span * span;
  for (int a = 0; a < 3; ++a) p.lift_normal[a] = n[a], p.lift_nose[a] = e[a], p.lift_point[a] = emin * e[a];
}

LangevinBodyState langevin_initial_state(const double x[3], const double e[3], const double v[3], const double w[3]) {
  const Eigen::Matrix3d R =
      (Eigen::AngleAxisd(e[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(e[1], Eigen::Vector3d::UnitY()) *
       Eigen::AngleAxisd(e[0], Eigen::Vector3d::UnitX()))
          .toRotationMatrix();
  LangevinBodyState s;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s.R[i * 3 + j] = R(i, j);
  for (int a = 0; a < 3; ++a) s.x[a] = x[a], s.xi[a] = v[a], s.xi[3 + a] = w[a];
  s.landed = 0;
  return s;
}

// Named (not anonymous): nvcc requires extended lambdas' enclosing functions to have external linkage.
namespace detail {
template <class Exec>
void batch_impl(const LangevinBodyParams& p, const LangevinSeries& series, std::vector<LangevinBodyState>& states,
                long first_step, double dt, long steps, uint64_t seed) {
  using Mem = typename Exec::memory_space;
  const int n = int(states.size());
  Kokkos::View<LangevinBodyState*, Mem> d_states("langevin_states", n);
  Kokkos::View<double*, Mem> d_chi("langevin_chi", series.chi.size()), d_eps("langevin_eps", series.eps.size());
  auto h_states = Kokkos::create_mirror_view(d_states);
  for (int i = 0; i < n; ++i) h_states(i) = states[i];
  Kokkos::deep_copy(d_states, h_states);
  {
    auto hc = Kokkos::create_mirror_view(d_chi);
    auto he = Kokkos::create_mirror_view(d_eps);
    for (size_t i = 0; i < series.chi.size(); ++i) hc(i) = series.chi[i], he(i) = series.eps[i];
    Kokkos::deep_copy(d_chi, hc);
    Kokkos::deep_copy(d_eps, he);
  }
  const int count = int(series.chi.size());
  const double dts = series.dt;
  Kokkos::parallel_for(
      "langevin_batch", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        const LangevinTurbulence turb{d_chi.data(), d_eps.data(), count, dts};
        LangevinBodyState s = d_states(i);
        for (long k = first_step; k < first_step + steps; ++k)
          langevin_step(p, turb, s, k * dt, dt, seed, uint64_t(i), uint64_t(k));
        d_states(i) = s;
      });
  Kokkos::fence();
  Kokkos::deep_copy(h_states, d_states);
  for (int i = 0; i < n; ++i) states[i] = h_states(i);
}
}  // namespace detail

void langevin_batch_advance(Backend b, const LangevinBodyParams& p, const LangevinSeries& series,
                            std::vector<LangevinBodyState>& states, long first_step, double dt, long steps,
                            uint64_t seed) {
  with_backend(b, [&](auto tag) {
    detail::batch_impl<typename decltype(tag)::execution_space>(p, series, states, first_step, dt, steps, seed);
  });
}

}  // namespace immerse::bodies
