#pragma once
// A small rigid-body interface of ours over Bullet (the paper used Newton Game Dynamics behind an
// abstraction layer, sec. 2.2): bodies with mass, inertia and a collision shape, forces and
// torques accumulated each step, gravity, collisions between bodies. Bullet stays behind this
// header (pimpl), so its single-precision types never reach the callers.
#include "immerse/bodies/eigen.hpp"

#include <memory>
#include <vector>

#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/state_archive.hpp"

namespace immerse::bodies {

struct FloatBodyDesc {
  // Collision shape: a sphere of `sphere_radius` when > 0, else the convex hull of `hull_points`
  // (body frame, centre of mass at the origin).
  double sphere_radius = 0;
  std::vector<Eigen::Vector3d> hull_points;
  double mass = 1;                                     // kg
  Eigen::Vector3d inertia = Eigen::Vector3d::Ones();   // principal moments about the CoM, kg m^2
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // world position of the CoM, m
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  // m/s
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();
};

struct FloatBodyState {
  Eigen::Vector3d position, velocity, angular_velocity;
  Eigen::Quaterniond orientation;
  Eigen::Matrix3d rotation() const { return orientation.toRotationMatrix(); }
};

class FloatRigidWorld {
 public:
  explicit FloatRigidWorld(double gravity);  // along -z
  ~FloatRigidWorld();
  FloatRigidWorld(const FloatRigidWorld&) = delete;
  FloatRigidWorld& operator=(const FloatRigidWorld&) = delete;

  int add_body(const FloatBodyDesc& desc);
  int body_count() const;
  // Accumulated until the next step (world frame; torque about the CoM).
  void apply(int body, const Eigen::Vector3d& force, const Eigen::Vector3d& torque);
  // One step of dt (no sub-stepping): integrates gravity, the applied loads and contacts, then
  // clears the loads.
  void step(double dt);
  FloatBodyState state(int body) const;
  // The bodies' transforms and velocities, saved or restored between steps, for checkpoints
  // (InputError when bodies touch: the contact caches are not archived).
  void archive(StateArchive& a);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Mass, principal inertia and CoM of a uniform solid of the mesh's shape with the given mass,
// the CoM optionally moved (ballast, cargo) with the inertia shifted by the parallel-axis theorem.
// The mesh axes are taken as principal axes (products of inertia dropped: zero for the symmetric
// shapes generated here, small for the hulls' bow/stern asymmetry).
struct FloatMassModel {
  double mass = 0, volume = 0;
  Eigen::Vector3d centre_of_mass = Eigen::Vector3d::Zero();  // mesh frame
  Eigen::Vector3d inertia = Eigen::Vector3d::Zero();         // about the CoM
};
FloatMassModel float_mass_model(const TriMesh& mesh, double mass, const Eigen::Vector3d* centre_of_mass = nullptr);

}  // namespace immerse::bodies
