#pragma once
// Mesh generators for the floating-bodies paper: the 80-triangle sphere, a "complex object" of
// 520 triangles, and parametric hulls at the paper's sizes. All closed, outward-oriented, with the
// waterline frame: x along the length (bow at +x), y across (port at +y), z up, keel at z = 0.
#include "immerse/bodies/trimesh.hpp"

namespace immerse::bodies {

// The paper's ball: icosphere(r, 1), 80 triangles.
TriMesh float_sphere(double radius);
// The "complex object" of the performance table (~520 triangles each): a torus (tube radius r,
// ring radius R), 20 x 13 quads = 520 triangles, centred at the origin, axis z.
TriMesh float_complex_object(double ring_radius, double tube_radius);

struct HullSpec {
  double length = 3.23, depth = 0.43, beam = 1.23;  // m (keel to deck, overall beam)
  int stations = 35, section_points = 36;           // triangles ~ 2 stations section_points + 2 section_points
  double fullness = 4;        // superellipse exponent of the sections (2: round bilge, large: box)
  double bow_fraction = 0.3;  // length over which the hull tapers to the bow
  double bow_width = 0.08;    // half-beam at the stem as a fraction of the half-beam
  double stern_width = 0.8;   // half-beam at the transom as a fraction of the half-beam
};
// Lofted hull: superellipse sections (keel at z = 0, deck at z = depth) along x in [-L/2, L/2],
// tapering towards the bow, a flat deck and flat end caps.
TriMesh float_hull(const HullSpec& spec);

// The paper's boats (sec. 3): rowing boat 3.23 x 0.43 x 1.23 m, 2628 triangles (ours 2592);
// motorboat 12.7 x 2.4 x 3.85 m, 460 triangles (ours 456); sailboat hull 19 x 2.30 x 4.60 m with a
// mast (a 0.3 m square spar, mast_height above the deck) as a second closed shell.
HullSpec float_rowing_boat_spec();
HullSpec float_motorboat_spec();
TriMesh float_sailboat(double mast_height);

// Appends the faces of b to a (two closed shells stay a closed mesh).
void float_append(TriMesh& a, const TriMesh& b);

}  // namespace immerse::bodies
