#pragma once
// Closed triangle meshes for rigid and immersed bodies: geometry queries, exact mass properties
// (divergence theorem), generators for the shapes the papers use, and OBJ import/export.
// Convention: faces are counter-clockwise seen from outside, so cross(b - a, c - a) points out.
#include "immerse/bodies/eigen.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace immerse::bodies {

struct TriMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> faces;

  int face_count() const { return static_cast<int>(faces.size()); }
  int vertex_count() const { return static_cast<int>(vertices.size()); }
  // cross(b - a, c - a): outward, length twice the area
  Eigen::Vector3d face_area_vector(int f) const;
  Eigen::Vector3d face_normal(int f) const;  // unit outward
  double face_area(int f) const;
  Eigen::Vector3d face_centroid(int f) const;
  double surface_area() const;
  Eigen::AlignedBox3d bounds() const;

  void translate(const Eigen::Vector3d& d);
  void scale(const Eigen::Vector3d& s);  // per-axis; keeps orientation for positive factors
  void transform(const Eigen::Matrix3d& rotation, const Eigen::Vector3d& translation);
};

// Mass properties of the solid a closed mesh bounds, at unit density. inertia is about the
// centroid, in the mesh's axes: multiply by the density for a body's inertia tensor.
struct MassProperties {
  double volume = 0;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};
MassProperties mass_properties(const TriMesh& mesh);

// The part of the solid a closed, outward-oriented mesh bounds below the plane z = level: its
// volume and centroid (the centre of buoyancy when the plane is the water surface).
struct SubmergedPart {
  double volume = 0;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
};
SubmergedPart submerged_part(const TriMesh& mesh, double level);
double submerged_volume(const TriMesh& mesh, double level);
// The plane z = level below which the solid has `volume` (bisection; clamped to the mesh's extent).
double level_displacing(const TriMesh& mesh, double volume);

// Throws InputError naming `what` when an edge is not shared by exactly two faces with opposite
// orientation (a hole, a non-manifold edge or a flipped face) or the enclosed volume is not positive.
void check_closed(const TriMesh& mesh, const std::string& what);

// Icosahedron subdivided `subdivisions` times, projected to the sphere: 20 * 4^s faces
// (1 -> 80, 2 -> 320, 3 -> 1280).
TriMesh make_icosphere(double radius, int subdivisions);
// The icosphere scaled to semi-axes a, b, c along x, y, z.
TriMesh make_ellipsoid(double a, double b, double c, int subdivisions);
// Axis-aligned box centred at the origin, each face split into n x n squares (2 triangles each).
TriMesh make_box(const Eigen::Vector3d& size, int n = 1);

// The largest mesh file read (OBJ, FEM): 256 MiB holds millions of triangles.
inline constexpr std::uintmax_t kMaxMeshFileBytes = 256u << 20;

// Wavefront OBJ: v and f records (polygons fanned into triangles, v/vt/vn and negative indices
// accepted, other records ignored). Errors name the file and line.
TriMesh read_obj(const std::string& path);
void write_obj(const TriMesh& mesh, const std::string& path);

}  // namespace immerse::bodies
