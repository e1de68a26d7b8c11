#include "immerse/bodies/float_rigid.hpp"

#include <btBulletDynamicsCommon.h>

#include <stdexcept>

namespace immerse::bodies {

struct FloatRigidWorld::Impl {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> motion;
  std::vector<std::unique_ptr<btRigidBody>> bodies;

  ~Impl() {
    for (auto& b : bodies) world.removeRigidBody(b.get());
  }
};

FloatRigidWorld::FloatRigidWorld(double gravity) : impl_(std::make_unique<Impl>()) {
  impl_->world.setGravity(btVector3(0, 0, static_cast<btScalar>(-gravity)));
}

FloatRigidWorld::~FloatRigidWorld() = default;

int FloatRigidWorld::add_body(const FloatBodyDesc& d) {
  std::unique_ptr<btCollisionShape> shape;
  if (d.sphere_radius > 0) {
    shape = std::make_unique<btSphereShape>(static_cast<btScalar>(d.sphere_radius));
  } else {
    auto hull = std::make_unique<btConvexHullShape>();
    for (const auto& p : d.hull_points) hull->addPoint(btVector3(p.x(), p.y(), p.z()), false);
    hull->recalcLocalAabb();
    shape = std::move(hull);
  }
  btTransform start;
  start.setOrigin(btVector3(d.position.x(), d.position.y(), d.position.z()));
  start.setRotation(btQuaternion(d.orientation.x(), d.orientation.y(), d.orientation.z(), d.orientation.w()));
  auto ms = std::make_unique<btDefaultMotionState>(start);
  btRigidBody::btRigidBodyConstructionInfo info(static_cast<btScalar>(d.mass), ms.get(), shape.get(),
                                                btVector3(d.inertia.x(), d.inertia.y(), d.inertia.z()));
  auto body = std::make_unique<btRigidBody>(info);
  body->setLinearVelocity(btVector3(d.velocity.x(), d.velocity.y(), d.velocity.z()));
  body->setAngularVelocity(btVector3(d.angular_velocity.x(), d.angular_velocity.y(), d.angular_velocity.z()));
  // Every body is integrated every step (no sleeping): the water can move a body at rest.
  body->setActivationState(DISABLE_DEACTIVATION);
  impl_->world.addRigidBody(body.get());
  impl_->shapes.push_back(std::move(shape));
  impl_->motion.push_back(std::move(ms));
  impl_->bodies.push_back(std::move(body));
  return static_cast<int>(impl_->bodies.size()) - 1;
}

int FloatRigidWorld::body_count() const { return static_cast<int>(impl_->bodies.size()); }

void FloatRigidWorld::apply(int b, const Eigen::Vector3d& f, const Eigen::Vector3d& t) {
  btRigidBody& body = *impl_->bodies.at(b);
  body.applyCentralForce(btVector3(f.x(), f.y(), f.z()));
  body.applyTorque(btVector3(t.x(), t.y(), t.z()));
}

void FloatRigidWorld::step(double dt) {
  // maxSubSteps = 0: one step of exactly dt; Bullet clears the applied loads afterwards.
  impl_->world.stepSimulation(static_cast<btScalar>(dt), 0);
}

FloatBodyState FloatRigidWorld::state(int b) const {
  const btRigidBody& body = *impl_->bodies.at(b);
  const btTransform& t = body.getCenterOfMassTransform();
  const btVector3 p = t.getOrigin(), v = body.getLinearVelocity(), w = body.getAngularVelocity();
  const btQuaternion q = t.getRotation();
  FloatBodyState s;
  s.position = {p.x(), p.y(), p.z()};
  s.velocity = {v.x(), v.y(), v.z()};
  s.angular_velocity = {w.x(), w.y(), w.z()};
  s.orientation = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).normalized();
  return s;
}

FloatMassModel float_mass_model(const TriMesh& mesh, double mass, const Eigen::Vector3d* com) {
  const MassProperties mp = mass_properties(mesh);
  if (!(mp.volume > 0)) throw std::invalid_argument("float_mass_model: mesh encloses no volume");
  FloatMassModel out;
  out.mass = mass;
  out.volume = mp.volume;
  const double density = mass / mp.volume;
  Eigen::Matrix3d I = density * mp.inertia;  // about the geometric centroid
  // A moved CoM (ballast, cargo) is modelled as the same mass distribution shifted rigidly: its
  // inertia about its own centre is unchanged. Buoyancy still acts on the mesh's geometry.
  out.centre_of_mass = com ? *com : mp.centroid;
  out.inertia = I.diagonal();
  return out;
}

}  // namespace immerse::bodies
