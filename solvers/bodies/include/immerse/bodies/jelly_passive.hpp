#pragma once
// Objects the jellyfish's water moves (Alexandrova et al. 2006, Figs. 8 and 9): passive tracer
// particles advected by the lattice velocity (trilinear interpolation of the cell-centred velocity,
// midpoint RK2), and algae: chains of particles tied by springs, anchored at the floor, buoyant, driven
// by drag toward the local water velocity. Units: cm, s.
#include "immerse/bodies/eigen.hpp"
#include "immerse/bodies/state_points.hpp"

#include <vector>

namespace immerse::bodies {

// Cell-centred velocity field (3 blocks x, y, z of nx ny nz values, lattice units) seen in cm and cm/s.
struct JellyVelocityField {
  int nx = 0, ny = 0, nz = 0;
  double cell_cm = 1, to_cm_s = 1;  // lattice velocity -> cm/s: cell_cm / dt_s
  const std::vector<float>* u = nullptr;
  // Trilinear interpolation between the 8 surrounding cell centres; clamped at the lattice border.
  Eigen::Vector3d at(const Eigen::Vector3d& x_cm) const;
};

class JellyTracers {
 public:
  explicit JellyTracers(std::vector<Eigen::Vector3d> start) : x_(std::move(start)) {}
  // Midpoint RK2 step through the (frozen over dt) field.
  void advance(const JellyVelocityField& field, double dt);
  const std::vector<Eigen::Vector3d>& positions() const { return x_; }
  void archive(StateArchive& a) { archive_points(a, "tracers.x", x_); }

 private:
  std::vector<Eigen::Vector3d> x_;
};

struct JellyAlgaeParams {
  int links = 8;           // springs per chain (links + 1 particles, the first anchored)
  double link_cm = 3;      // rest length
  double stiffness = 200;  // 1/s^2 (unit masses)
  double drag = 4;         // 1/s: relaxation toward the water velocity
  double buoyancy = 20;    // cm/s^2 along +up: keeps the plants standing in still water
  double max_substep_s = 0.005;
  Eigen::Vector3d up{0, 0, 1};
};

class JellyAlgae {
 public:
  JellyAlgae(const JellyAlgaeParams& p, const std::vector<Eigen::Vector3d>& anchors);
  void advance(const JellyVelocityField& field, double dt);
  int chains() const { return static_cast<int>(anchors_.size()); }
  // Particle `m` of chain `c` (m = 0 is the anchor).
  const Eigen::Vector3d& particle(int c, int m) const { return x_[c * (p_.links + 1) + m]; }
  int particles_per_chain() const { return p_.links + 1; }
  // Largest sideways displacement of a chain tip from straight above its anchor (cm).
  double max_tip_deflection() const;
  void archive(StateArchive& a) {
    archive_points(a, "algae.x", x_);
    archive_points(a, "algae.v", v_);
  }

 private:
  JellyAlgaeParams p_;
  std::vector<Eigen::Vector3d> anchors_, x_, v_;
};

}  // namespace immerse::bodies
