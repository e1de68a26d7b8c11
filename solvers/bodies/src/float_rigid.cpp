#include "immerse/bodies/float_rigid.hpp"

#include <btBulletDynamicsCommon.h>

#include <stdexcept>

#include "immerse/core/error.hpp"

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

void FloatRigidWorld::archive(StateArchive& a) {
  // Between steps a body's dynamic state is its centre-of-mass transform and its two velocities:
  // Bullet derives the world inverse inertia from the basis, the interpolation transform and
  // velocities equal the current ones after each step, the loads are cleared and deactivation is off.
  // What it does not expose is the contact manifolds' warm-start impulses: bodies in contact cannot
  // be restored bit for bit, so saving them is refused.
  btDispatcher& d = impl_->dispatcher;
  for (int m = 0; m < d.getNumManifolds(); ++m)
    if (d.getManifoldByIndexInternal(m)->getNumContacts() > 0)
      throw InputError(
          "the floating bodies are in contact: Bullet's contact caches are not archived, so this state cannot be "
          "checkpointed");
  std::vector<btScalar> s;
  for (const auto& body : impl_->bodies) {
    const btTransform& t = body->getCenterOfMassTransform();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) s.push_back(t.getBasis()[r][c]);
    for (int k = 0; k < 3; ++k) s.push_back(t.getOrigin()[k]);
    for (int k = 0; k < 3; ++k) s.push_back(body->getLinearVelocity()[k]);
    for (int k = 0; k < 3; ++k) s.push_back(body->getAngularVelocity()[k]);
  }
  const size_t saved = s.size();
  a.vector("float.bullet_bodies", s);
  if (!a.loading()) return;
  if (s.size() != saved) throw InputError("the checkpoint holds another number of floating bodies");
  for (size_t b = 0; b < impl_->bodies.size(); ++b) {
    btRigidBody& body = *impl_->bodies[b];
    const btScalar* v = s.data() + 18 * b;
    body.setLinearVelocity(btVector3(v[12], v[13], v[14]));
    body.setAngularVelocity(btVector3(v[15], v[16], v[17]));
    btTransform t(btMatrix3x3(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]), btVector3(v[9], v[10], v[11]));
    body.setCenterOfMassTransform(t);  // also the interpolation state and the world inverse inertia
    body.getMotionState()->setWorldTransform(t);
  }
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
