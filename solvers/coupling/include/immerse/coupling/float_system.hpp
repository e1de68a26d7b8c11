#pragma once
// The floating-bodies scene of the floating-bodies paper: shallow-water LBM + triangle-mesh rigid bodies (Bullet)
// coupled both ways. One frame = forces (water -> bodies, host), physics update (Bullet), wetted section (submerged
// sections rasterised, eq. 7-9 forcing, device), water step (device). Per-phase wall times are kept under the paper's
// Table 1 names. With FloatCouplingParams::overlap the physics update runs while the device runs the wetted section and
// the water step (on host spaces the same arithmetic runs in turn).
#include "immerse/bodies/eigen.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "immerse/bodies/float_rigid.hpp"
#include "immerse/bodies/trimesh.hpp"
#include "immerse/coupling/float_forces.hpp"
#include "immerse/swlbm/sw_flow.hpp"

namespace immerse::coupling {

struct FloatBodySpec {
  std::string name;
  bodies::TriMesh mesh;                                // mesh frame
  double mass = 1;                                     // kg
  std::optional<Eigen::Vector3d> centre_of_mass;       // mesh frame; default: the solid's centroid
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // world position of the mesh frame's origin
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  double sphere_radius = 0;  // > 0: a sphere collision shape (else the convex hull of the mesh)
};

// A load held on a body: a force at a point of the body (mesh frame), given in the world frame
// (a weight) or in the body frame (a propeller's thrust, a rudder force turning with the hull).
struct FloatExternalLoad {
  int body = 0;
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  bool body_frame = false;
};

struct FloatCouplingParams {
  FloatForceCoefficients forces;
  double k_plus = 10, k_minus = 1;  // 1/s, eq. 7 (see float_mask.hpp)
  bool body_to_water = true;
  bool record_pressure = true;  // keep rho g h per face for the hull-pressure display
  // Run Bullet's step while the device runs the wetted section and the water step (the water is
  // then forced with the bodies' velocities of the frame's start; see float_system.cpp).
  bool overlap = false;
};

struct FloatBodyRuntime {
  bodies::TriMesh local;  // mesh in the body frame (CoM at the origin)
  Eigen::Vector3d com_in_mesh = Eigen::Vector3d::Zero();
  bodies::FloatMassModel mass;
  FloatLoads loads;              // of the latest frame
  std::vector<double> pressure;  // per face, rho g h at its centroid (latest frame)
};

class FloatSystem {
 public:
  virtual ~FloatSystem() = default;
  virtual void step() = 0;  // one frame
  virtual swlbm::SwFlow& water() = 0;
  virtual const swlbm::SwFlow& water() const = 0;
  virtual int body_count() const = 0;
  virtual bodies::FloatBodyState body_state(int b) const = 0;
  virtual const FloatBodyRuntime& body(int b) const = 0;
  virtual std::vector<FloatExternalLoad>& external_loads() = 0;
  virtual std::vector<int> mask() const = 0;  // the latest submerged-section mask (-1: water)
  virtual long frames_done() const = 0;
  // The water, the bodies' transforms and velocities, and the frame count, for checkpoints
  // (InputError when bodies touch: Bullet's contact caches are not archived).
  virtual void archive(StateArchive& a) = 0;
  // Wall seconds per phase: "forces", "physics update", "wetted section", "water step"; with
  // overlap on a device, "physics update" ran during "water step" (the phases add up to more than
  // the frame).
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const = 0;
};

std::unique_ptr<FloatSystem> make_float_system(Backend backend, const swlbm::SwParams& water,
                                               std::vector<FloatBodySpec> bodies, const FloatCouplingParams& coupling);

// The world position of a mesh-frame point of body b.
Eigen::Vector3d float_world_point(const FloatSystem& s, int b, const Eigen::Vector3d& mesh_point);

}  // namespace immerse::coupling
