#pragma once
// The boundary map of Imamura, Harada & Kawaguchi (section 3): for each axis, the crossings of the
// body's boundary edges with the lines of the half-cell lattice (spacing h/2, which holds every u, v
// and p point of the staggered grid), each with its edge, position on the edge and the edge's
// velocity there. Built every step by looping over the boundary edges (Algorithm 1, O(N_E)), then
// sorted along each line; inside/outside of a lattice point by the parity of the crossings before it
// on its line (odd = inside), whole runs at once.
//
// From the map: the fluid solver's face constraints (cut-cell stencils with theta, face fractions,
// body velocity inside), the staircase (voxelised) alternative, the fluid -> solid force of eq. 8 and
// the leakage through the boundary (sampled at the outline, and as the flux through the cut cells).
#include <array>
#include <vector>

#include "immerse/bodies/fem_body.hpp"
#include "immerse/coupling/bmap_cover.hpp"
#include "immerse/coupling/coupling_mode.hpp"
#include "immerse/mac2d/stable_flow.hpp"

namespace immerse::coupling {

using bodies::Vec2;

struct BmapEntry {
  double s = 0;    // crossing coordinate along the line (x on a row, y on a column), m
  int edge = 0;    // boundary edge index
  double t = 0;    // position on the edge, 0 at its first node
  Vec2 vel{0, 0};  // the edge's velocity at the crossing
};

// Crossings of one family of lattice lines (rows y = m h/2, or columns x = m h/2), m = 0 .. lines-1.
struct BmapAxis {
  std::vector<BmapEntry> entries;  // sorted by line, then by s
  std::vector<int> start;          // entries of line m: [start[m], start[m+1])
  int lines = 0;
  // Parity: is coordinate s on line m inside the body?
  bool inside(int m, double s) const;
  // Length of [s0, s1] on line m inside the body.
  double inside_length(int m, double s0, double s1) const;
  // The crossing on line m strictly between s0 and s1 nearest to s0, or nullptr.
  const BmapEntry* first_between(int m, double s0, double s1) const;
  // Body velocity at an inside point: linear between the run's two crossings.
  Vec2 velocity_inside(int m, double s) const;
};

struct BoundaryMap {
  double h = 1;
  BmapAxis rows, cols;  // rows: y = m h/2 lines (x crossings); cols: x = m h/2 lines (y crossings)
  BmapCover cover;      // the body velocity on covered face parts (empty: the nearest crossing's)
};

// Algorithm 1 over both axes for a domain of nx x ny cells of size h, and the cover.
void bmap_build(BoundaryMap& map, const bodies::FemBody& body, int nx, int ny, double h);

// The fluid's constraints for the current body position. Boundary map: faces whose point is inside
// take the body velocity; every face carries its fluid fraction for the pressure equation, its covered
// part moving at the body's mean velocity over that part (map.cover); faces next
// to the boundary get theta-stencils (eqs. 13-15) for viscosity. Staircase: cells whose centre is
// inside are solid; every face of a solid cell takes the body velocity and is closed. Replaces the
// contents of out (pass the same vector every step: its storage is reused). The faces are worked out
// on the backend's host threads (core/host_for.hpp; one for serial), the same bits on each.
void bmap_constraints(const BoundaryMap& map, CouplingMode mode, int nx, int ny,
                      std::vector<mac2d::FaceConstraint>& out, Backend backend = Backend::serial);

// Fluid -> solid force of eq. 8, f = sum alpha rho a (u_P - u_s) / dt over the map entries: u_P the
// predicted fluid velocity at the boundary cell's lattice point just outside the crossing, a =
// (h/2)^2 the lattice point's share of a cell; spread to the edge's two nodes linearly. Adds into
// body.f_ext.
void bmap_apply_force(const BoundaryMap& map, const mac2d::StableFlow& flow, bodies::FemBody& body, double alpha,
                      double rho, double dt);

// The pressure traction -p n on every boundary edge (p from the last projection, one cell outside the
// edge's midpoint), half to each node. Not in the paper: eq. 8 alone carries only the one-step
// velocity mismatch next to the boundary, which bends the bar by well under a cell (measured); the
// stagnation pressure of the jet is what loads a body in a flow. Added into body.f_ext.
void bmap_apply_pressure(const mac2d::StableFlow& flow, bodies::FemBody& body, double h);

// Flux of the fluid through the body boundary relative to the boundary's own motion,
// integral of (u - u_body) . n ds with u bilinear from the grid at the edge midpoints: the absolute
// (leakage) and the signed (net) values, m^2/s.
struct Leakage {
  double absolute = 0, net = 0;
};
Leakage bmap_leakage(const bodies::FemBody& body, const mac2d::StableFlow& flow);
// The same against a given body state: the one the fluid's constraints were built from (the explicit
// coupling advances the body after the map is built, so the projected fluid matches the earlier state).
Leakage bmap_leakage(const std::vector<bodies::FemEdge>& edges, const std::vector<Vec2>& x, const std::vector<Vec2>& v,
                     const mac2d::StableFlow& flow);

// Leakage through the body outline measured on the grid's own faces, without interpolation: for every
// cell the outline passes through, the fluid's outflow through the open parts of its four faces (open
// fractions from the map, i.e. the true outline, whichever coupling ran; face velocities as stored)
// against the body velocity's flux through the piece of outline inside the cell (exact for the
// polygon, linear velocity along each edge). Their difference is the flux of u - u_body through that
// piece of outline (the divergence theorem over the cell's fluid part); `absolute` sums it in
// magnitude over the cells, `net` with sign, m^2/s. With the boundary map the projection makes each
// cut cell's flux balance vanish (open parts at the fluid velocity, covered parts at the body's), so
// what remains is the projection residual and the difference between the body velocity on the faces
// and along the outline; with the staircase, fluid cells the outline cuts pass fluid through the
// covered parts of their faces. The map must be the one built from (x, v).
Leakage bmap_cut_leakage(const BoundaryMap& map, const std::vector<bodies::FemEdge>& edges, const std::vector<Vec2>& x,
                         const std::vector<Vec2>& v, const mac2d::StableFlow& flow, int nx, int ny);

}  // namespace immerse::coupling
