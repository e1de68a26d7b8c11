// TriMesh: mass properties against closed forms (box, sphere, ellipsoid), the generators' face
// counts and orientation, OBJ round trip and error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/error.hpp"

namespace b = immerse::bodies;

TEST(TriMesh, BoxMassPropertiesAreExact) {
  // A box is represented exactly, so volume and inertia match the closed forms to rounding:
  // V = abc, I_xx = V (b^2 + c^2) / 12.
  b::TriMesh box = b::make_box({2.0, 3.0, 5.0}, 3);
  box.translate({1.0, -2.0, 0.5});
  b::check_closed(box, "box");
  EXPECT_EQ(box.face_count(), 6 * 9 * 2);
  const auto m = b::mass_properties(box);
  EXPECT_NEAR(m.volume, 30.0, 1e-12);
  EXPECT_NEAR((m.centroid - Eigen::Vector3d(1.0, -2.0, 0.5)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(m.inertia(0, 0), 30.0 * (9 + 25) / 12, 1e-10);
  EXPECT_NEAR(m.inertia(1, 1), 30.0 * (4 + 25) / 12, 1e-10);
  EXPECT_NEAR(m.inertia(2, 2), 30.0 * (4 + 9) / 12, 1e-10);
  EXPECT_NEAR(m.inertia(0, 1), 0.0, 1e-10);
  EXPECT_NEAR(box.surface_area(), 2 * (6 + 10 + 15), 1e-12);
}

TEST(TriMesh, IcosphereConvergesToTheSphere) {
  // Face counts 20 * 4^s; the inscribed polyhedron's volume error shrinks like the squared edge
  // length, i.e. by ~4 per subdivision; at 1280 faces (mean edge ~0.1 r) it is within 1% of 4/3 pi r^3
  // and the inertia within 1.5% of 2/5 m r^2 (both errors of the same O(h^2) order).
  const double r = 2.0, exact = 4.0 / 3.0 * M_PI * r * r * r;
  double previous_error = 1;
  for (int s = 1; s <= 4; ++s) {
    const b::TriMesh sphere = b::make_icosphere(r, s);
    EXPECT_EQ(sphere.face_count(), 20 << (2 * s));
    b::check_closed(sphere, "icosphere");
    const double error = 1 - b::mass_properties(sphere).volume / exact;
    EXPECT_GT(error, 0);  // inscribed
    if (s > 1) EXPECT_NEAR(previous_error / error, 4.0, 0.6) << "subdivision " << s;
    previous_error = error;
  }
  const auto m = b::mass_properties(b::make_icosphere(r, 3));
  EXPECT_NEAR(m.volume / exact, 1.0, 1e-2);
  EXPECT_NEAR(m.inertia(2, 2) / (0.4 * m.volume * r * r), 1.0, 1.5e-2);
  EXPECT_NEAR(m.centroid.norm(), 0.0, 1e-12);
}

TEST(TriMesh, EllipsoidInertiaMatchesClosedForm) {
  // Solid ellipsoid: I_xx = V (b^2 + c^2) / 5; 5120 faces put the discretisation error under 0.5%.
  const b::TriMesh e = b::make_ellipsoid(1.0, 2.0, 4.0, 4);
  const auto m = b::mass_properties(e);
  const double V = 4.0 / 3.0 * M_PI * 8.0;
  EXPECT_NEAR(m.volume / V, 1.0, 5e-3);
  EXPECT_NEAR(m.inertia(0, 0) / (m.volume * (4 + 16) / 5), 1.0, 5e-3);
  EXPECT_NEAR(m.inertia(2, 2) / (m.volume * (1 + 4) / 5), 1.0, 5e-3);
}

TEST(TriMesh, ObjRoundTripAndErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "immerse_test_trimesh";
  std::filesystem::create_directories(dir);
  const b::TriMesh sphere = b::make_icosphere(1.5, 2);
  b::write_obj(sphere, (dir / "s.obj").string());
  const b::TriMesh back = b::read_obj((dir / "s.obj").string());
  ASSERT_EQ(back.face_count(), sphere.face_count());
  EXPECT_NEAR(b::mass_properties(back).volume, b::mass_properties(sphere).volume, 1e-12);

  std::ofstream((dir / "quad.obj").string())
      << "# a unit square as one quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2/2 3/3 -1\n";
  EXPECT_EQ(b::read_obj((dir / "quad.obj").string()).face_count(), 2);
  EXPECT_THROW(b::check_closed(b::read_obj((dir / "quad.obj").string()), "quad"), immerse::InputError);

  std::ofstream((dir / "bad.obj").string()) << "v 0 0 0\nv 1 0 0\nf 1 2 7\n";
  try {
    b::read_obj((dir / "bad.obj").string());
    FAIL() << "expected an InputError";
  } catch (const immerse::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.obj: line 3"), std::string::npos) << e.what();
  }
}

TEST(TriMesh, FlippedFaceIsRejected) {
  b::TriMesh box = b::make_box({1, 1, 1});
  std::swap(box.faces[3][0], box.faces[3][1]);
  EXPECT_THROW(b::check_closed(box, "box"), immerse::InputError);
}

TEST(TriMesh, SubmergedVolumeOfABoxAndASphere) {
  // Box 2 x 3 x 5 with its base at z = 0.5: below z = level it holds 6 (level - 0.5), exactly.
  b::TriMesh box = b::make_box({2.0, 3.0, 5.0}, 2);
  box.translate({0.0, 0.0, 3.0});
  EXPECT_NEAR(b::submerged_volume(box, 0.0), 0.0, 1e-12);
  EXPECT_NEAR(b::submerged_volume(box, 2.0), 6.0 * 1.5, 1e-12);
  EXPECT_NEAR(b::submerged_volume(box, 9.0), 30.0, 1e-12);
  EXPECT_NEAR(b::level_displacing(box, 6.0 * 1.5), 2.0, 1e-10);
  // Sphere of radius 1 (1280 faces) at the origin: the cap below z = -0.5 holds
  // pi h^2 (3 - h) / 3 with h = 0.5, within the icosphere's ~1% volume error; half of it below z = 0.
  const b::TriMesh sphere = b::make_icosphere(1.0, 3);
  const double full = b::mass_properties(sphere).volume;
  EXPECT_NEAR(b::submerged_volume(sphere, 0.0) / full, 0.5, 1e-12);
  EXPECT_NEAR(b::submerged_volume(sphere, -0.5) / (M_PI * 0.25 * 2.5 / 3), 1.0, 2e-2);
  EXPECT_NEAR(b::level_displacing(sphere, 0.5 * full), 0.0, 1e-10);
}

TEST(TriMesh, CentreOfBuoyancyOfABoxAndAHemisphere) {
  // The box's submerged part is a box: its centroid is exact. A sphere's lower half has its
  // centroid 3/8 r below the plane (within the 1280-face icosphere's ~1%).
  b::TriMesh box = b::make_box({2.0, 3.0, 5.0}, 2);
  box.translate({1.0, -1.0, 3.0});
  const b::SubmergedPart p = b::submerged_part(box, 2.0);
  EXPECT_NEAR((p.centroid - Eigen::Vector3d(1.0, -1.0, 1.25)).norm(), 0.0, 1e-12);
  const b::SubmergedPart h = b::submerged_part(b::make_icosphere(1.0, 3), 0.0);
  EXPECT_NEAR(h.centroid.z() / (-3.0 / 8.0), 1.0, 1e-2);
  EXPECT_NEAR(h.centroid.head<2>().norm(), 0.0, 1e-12);
}
