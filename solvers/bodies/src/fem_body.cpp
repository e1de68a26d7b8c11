#include "immerse/bodies/fem_body.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace immerse::bodies {
namespace {
double cross(const Vec2& a, const Vec2& b) { return a[0] * b[1] - a[1] * b[0]; }
}  // namespace

FemBody::FemBody(FemMesh mesh, FemMaterial material) : mesh_(std::move(mesh)), mat_(material) {
  const size_t n = mesh_.nodes.size();
  x = mesh_.nodes;
  v.assign(n, {0, 0});
  f_ext.assign(n, {0, 0});
  mass_.assign(n, 0);
  fixed_.assign(n, 0);
  std::map<std::pair<int, int>, int> edge_count;
  for (auto& t : mesh_.tris) {
    Vec2 e1 = {x[t[1]][0] - x[t[0]][0], x[t[1]][1] - x[t[0]][1]},
         e2 = {x[t[2]][0] - x[t[0]][0], x[t[2]][1] - x[t[0]][1]};
    if (cross(e1, e2) < 0) {
      std::swap(t[1], t[2]);
      std::swap(e1, e2);
    }
    const double det = cross(e1, e2);
    if (det <= 1e-300) throw std::invalid_argument("fem: degenerate triangle");
    // Dm = [e1 e2] (columns); Bm = Dm^-1.
    Bm_.push_back({e2[1] / det, -e2[0] / det, -e1[1] / det, e1[0] / det});
    A0_.push_back(0.5 * det);
    for (int k = 0; k < 3; ++k) mass_[t[k]] += mat_.density * 0.5 * det / 3;
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      edge_count[{std::min(a, b), std::max(a, b)}]++;
    }
  }
  // Boundary edges: in one triangle only; that triangle's orientation (a -> b counter-clockwise)
  // puts the body on the left.
  for (const auto& t : mesh_.tris)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      if (edge_count[{std::min(a, b), std::max(a, b)}] == 1) boundary_.push_back({a, b});
    }
  force_.assign(n, {0, 0});
}

void FemBody::fix(int node) {
  fixed_.at(node) = 1;
  v[node] = {0, 0};
}

void FemBody::fix_where(bool (*pred)(const Vec2&, const void*), const void* ctx) {
  for (size_t k = 0; k < x.size(); ++k)
    if (pred(x[k], ctx)) fix(static_cast<int>(k));
}

void FemBody::set_hub(const std::vector<int>& nodes, Vec2 pin) {
  hub_ = nodes;
  pin_ = pin;
  hub_inertia_ = 0;
  hub_angle_ = 0;
  hub_omega_ = 0;
  hub_r0_.clear();
  for (int k : hub_) {
    const Vec2 r = {x[k][0] - pin[0], x[k][1] - pin[1]};
    hub_r0_.push_back(r);
    hub_inertia_ += mass_[k] * (r[0] * r[0] + r[1] * r[1]);
    fixed_[k] = 2;
  }
  if (hub_inertia_ <= 0) throw std::invalid_argument("fem: hub has no moment of inertia about the pin");
}

void FemBody::element_forces(std::vector<Vec2>& f) const {
  for (size_t e = 0; e < mesh_.tris.size(); ++e) {
    const auto& t = mesh_.tris[e];
    const auto& B = Bm_[e];
    const double ds[4] = {x[t[1]][0] - x[t[0]][0], x[t[2]][0] - x[t[0]][0], x[t[1]][1] - x[t[0]][1],
                          x[t[2]][1] - x[t[0]][1]};
    const double dv[4] = {v[t[1]][0] - v[t[0]][0], v[t[2]][0] - v[t[0]][0], v[t[1]][1] - v[t[0]][1],
                          v[t[2]][1] - v[t[0]][1]};
    // F = Ds Bm, Fdot = Dv Bm (row-major 2x2).
    const double F[4] = {ds[0] * B[0] + ds[1] * B[2], ds[0] * B[1] + ds[1] * B[3], ds[2] * B[0] + ds[3] * B[2],
                         ds[2] * B[1] + ds[3] * B[3]};
    const double Fd[4] = {dv[0] * B[0] + dv[1] * B[2], dv[0] * B[1] + dv[1] * B[3], dv[2] * B[0] + dv[3] * B[2],
                          dv[2] * B[1] + dv[3] * B[3]};
    // Green strain E = (F^T F - I)/2 and its rate (F'^T F + F^T F')/2 (symmetric: E00, E01, E11).
    const double E00 = 0.5 * (F[0] * F[0] + F[2] * F[2] - 1), E11 = 0.5 * (F[1] * F[1] + F[3] * F[3] - 1);
    const double E01 = 0.5 * (F[0] * F[1] + F[2] * F[3]);
    const double R00 = Fd[0] * F[0] + Fd[2] * F[2], R11 = Fd[1] * F[1] + Fd[3] * F[3];
    const double R01 = 0.5 * (Fd[0] * F[1] + Fd[2] * F[3] + F[0] * Fd[1] + F[2] * Fd[3]);
    const double trE = E00 + E11, trR = R00 + R11;
    // Second Piola-Kirchhoff stress of the Voigt material, first PK P = F S.
    const double S00 = mat_.lambda * trE + 2 * mat_.mu * E00 + mat_.lambda_d * trR + 2 * mat_.mu_d * R00;
    const double S11 = mat_.lambda * trE + 2 * mat_.mu * E11 + mat_.lambda_d * trR + 2 * mat_.mu_d * R11;
    const double S01 = 2 * mat_.mu * E01 + 2 * mat_.mu_d * R01;
    const double P[4] = {F[0] * S00 + F[1] * S01, F[0] * S01 + F[1] * S11, F[2] * S00 + F[3] * S01,
                         F[2] * S01 + F[3] * S11};
    // Nodal forces H = -A0 P Bm^T: columns go to nodes 1 and 2, node 0 takes minus their sum.
    const double A = A0_[e];
    const double H00 = -A * (P[0] * B[0] + P[1] * B[1]), H01 = -A * (P[0] * B[2] + P[1] * B[3]);
    const double H10 = -A * (P[2] * B[0] + P[3] * B[1]), H11 = -A * (P[2] * B[2] + P[3] * B[3]);
    f[t[1]][0] += H00, f[t[1]][1] += H10;
    f[t[2]][0] += H01, f[t[2]][1] += H11;
    f[t[0]][0] -= H00 + H01, f[t[0]][1] -= H10 + H11;
  }
}

void FemBody::substep(double h) {
  const size_t n = x.size();
  for (size_t k = 0; k < n; ++k) force_[k] = {f_ext[k][0] + mass_[k] * gravity[0], f_ext[k][1] + mass_[k] * gravity[1]};
  element_forces(force_);
  for (size_t k = 0; k < n; ++k) {
    if (fixed_[k]) continue;
    const double damp = 1 / (1 + h * mat_.mass_damping);
    v[k][0] = (v[k][0] + h * force_[k][0] / mass_[k]) * damp;
    v[k][1] = (v[k][1] + h * force_[k][1] / mass_[k]) * damp;
    x[k][0] += h * v[k][0];
    x[k][1] += h * v[k][1];
  }
  if (!hub_.empty()) {
    // The hub turns as one rigid body about the pin: torque of all forces on its nodes.
    double torque = 0;
    for (size_t q = 0; q < hub_.size(); ++q) {
      const int k = hub_[q];
      torque += cross({x[k][0] - pin_[0], x[k][1] - pin_[1]}, force_[k]);
    }
    hub_omega_ += h * torque / hub_inertia_;
    hub_angle_ += h * hub_omega_;
    const double c = std::cos(hub_angle_), s = std::sin(hub_angle_);
    for (size_t q = 0; q < hub_.size(); ++q) {
      const int k = hub_[q];
      const Vec2 r = {c * hub_r0_[q][0] - s * hub_r0_[q][1], s * hub_r0_[q][0] + c * hub_r0_[q][1]};
      x[k] = {pin_[0] + r[0], pin_[1] + r[1]};
      v[k] = {-hub_omega_ * r[1], hub_omega_ * r[0]};
    }
  }
}

void FemBody::advance(double dt, int substeps) {
  const double h = dt / substeps;
  for (int s = 0; s < substeps; ++s) substep(h);
}

double FemBody::kinetic_energy() const {
  double e = 0;
  for (size_t k = 0; k < x.size(); ++k) e += 0.5 * mass_[k] * (v[k][0] * v[k][0] + v[k][1] * v[k][1]);
  return e;
}

double FemBody::strain_energy() const {
  double e = 0;
  for (size_t q = 0; q < mesh_.tris.size(); ++q) {
    const auto& t = mesh_.tris[q];
    const auto& B = Bm_[q];
    const double ds[4] = {x[t[1]][0] - x[t[0]][0], x[t[2]][0] - x[t[0]][0], x[t[1]][1] - x[t[0]][1],
                          x[t[2]][1] - x[t[0]][1]};
    const double F[4] = {ds[0] * B[0] + ds[1] * B[2], ds[0] * B[1] + ds[1] * B[3], ds[2] * B[0] + ds[3] * B[2],
                         ds[2] * B[1] + ds[3] * B[3]};
    const double E00 = 0.5 * (F[0] * F[0] + F[2] * F[2] - 1), E11 = 0.5 * (F[1] * F[1] + F[3] * F[3] - 1);
    const double E01 = 0.5 * (F[0] * F[1] + F[2] * F[3]);
    // St Venant-Kirchhoff energy density: lambda/2 tr(E)^2 + mu E:E.
    e += A0_[q] * (0.5 * mat_.lambda * (E00 + E11) * (E00 + E11) + mat_.mu * (E00 * E00 + E11 * E11 + 2 * E01 * E01));
  }
  return e;
}

double FemBody::max_green_strain() const {
  double m = 0;
  for (size_t q = 0; q < mesh_.tris.size(); ++q) {
    const auto& t = mesh_.tris[q];
    const auto& B = Bm_[q];
    const double ds[4] = {x[t[1]][0] - x[t[0]][0], x[t[2]][0] - x[t[0]][0], x[t[1]][1] - x[t[0]][1],
                          x[t[2]][1] - x[t[0]][1]};
    const double F[4] = {ds[0] * B[0] + ds[1] * B[2], ds[0] * B[1] + ds[1] * B[3], ds[2] * B[0] + ds[3] * B[2],
                         ds[2] * B[1] + ds[3] * B[3]};
    m = std::max({m, std::abs(0.5 * (F[0] * F[0] + F[2] * F[2] - 1)), std::abs(0.5 * (F[1] * F[1] + F[3] * F[3] - 1)),
                  std::abs(0.5 * (F[0] * F[1] + F[2] * F[3]))});
  }
  return m;
}

double FemBody::area() const {
  double a = 0;
  for (const auto& t : mesh_.tris)
    a += 0.5 *
         cross({x[t[1]][0] - x[t[0]][0], x[t[1]][1] - x[t[0]][1]}, {x[t[2]][0] - x[t[0]][0], x[t[2]][1] - x[t[0]][1]});
  return a;
}

}  // namespace immerse::bodies
