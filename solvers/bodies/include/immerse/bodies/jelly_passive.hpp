#pragma once
// Objects the jellyfish's water moves (Alexandrova et al. 2006, Figs. 8 and 9): passive tracer
// particles advected by the lattice velocity (trilinear interpolation of the cell-centred velocity,
// midpoint RK2), and chains of particles tied by springs, driven by drag toward the local water
// velocity and a constant acceleration along `up`: the algae (anchored at the floor, buoyant, up =
// +z) and the tentacles (anchored at the bell margin, which moves them, and heavy: up = -axis, the
// direction they hang in). Units: cm, s.
#include "immerse/bodies/eigen.hpp"
#include "immerse/bodies/state_points.hpp"

#include <array>
#include <string>
#include <vector>

namespace immerse::bodies {

// Cell-centred velocity field (3 blocks x, y, z of nx ny nz values, lattice units) seen in cm and cm/s.
struct JellyVelocityField {
  int nx = 0, ny = 0, nz = 0;       // the lattice
  double cell_cm = 1, to_cm_s = 1;  // lattice velocity -> cm/s: cell_cm / dt_s
  const std::vector<float>* u = nullptr;
  // The box of cells u holds (lo, size; size 0: the whole lattice). A sample whose 8 cells are not
  // all in it reads the nearest cells of the box and counts a miss: the caller then has to sample
  // again from a larger box.
  std::array<int, 3> box_lo = {0, 0, 0}, box_size = {0, 0, 0};
  mutable long misses = 0;
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
  double buoyancy = 20;    // cm/s^2 along +up: keeps the plants standing (the tentacles hanging) in still water
  double max_substep_s = 0.005;
  Eigen::Vector3d up{0, 0, 1};
};

class JellyAlgae {
 public:
  JellyAlgae(const JellyAlgaeParams& p, const std::vector<Eigen::Vector3d>& anchors);
  void advance(const JellyVelocityField& field, double dt);
  // Moves each chain's anchor (the tentacles: with the bell margin) and the direction the chains
  // stand or hang in; call before advance.
  void move_anchors(const std::vector<Eigen::Vector3d>& anchors, const Eigen::Vector3d& up);
  int chains() const { return static_cast<int>(anchors_.size()); }
  // Particle `m` of chain `c` (m = 0 is the anchor).
  const Eigen::Vector3d& particle(int c, int m) const { return x_[c * (p_.links + 1) + m]; }
  int particles_per_chain() const { return p_.links + 1; }
  // Largest sideways displacement of a chain tip from the line through its anchor along `up` (cm).
  double max_tip_deflection() const;
  void archive(StateArchive& a, const std::string& name = "algae") {
    archive_points(a, name + ".x", x_);
    archive_points(a, name + ".v", v_);
    archive_points(a, name + ".anchors", anchors_);
    std::array<double, 3> up = {p_.up.x(), p_.up.y(), p_.up.z()};
    a.value(name + ".up", up);
    p_.up = {up[0], up[1], up[2]};
  }

 private:
  JellyAlgaeParams p_;
  std::vector<Eigen::Vector3d> anchors_, x_, v_;
};

}  // namespace immerse::bodies
