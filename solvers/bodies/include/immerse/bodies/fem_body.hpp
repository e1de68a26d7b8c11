#pragma once
// Explicit FEM on linear triangles (Imamura et al., section 2.2): Green strain, Voigt material
// (spring and dashpot in parallel: S = lambda tr(E) I + 2 mu E + lambda' tr(E') I + 2 mu' E', the
// paper's eq. 7 repeats lambda, mu: a typo for the damping constants lambda', mu'), element forces to
// the nodes, symplectic Euler with several sub-steps per fluid step. Nodes may be fixed, or belong to
// a rigid hub that turns freely about a pin (the windmill's axle).
//
// Host code: the paper's bodies have 160-194 elements, far too few to pay a device kernel launch
// per sub-step (35-100 sub-steps per fluid step); the fluid runs on the device.
#include <array>
#include <string>
#include <vector>

#include "immerse/core/state_archive.hpp"

namespace immerse::bodies {

using Vec2 = std::array<double, 2>;

struct FemMesh {
  std::vector<Vec2> nodes;
  std::vector<std::array<int, 3>> tris;  // counter-clockwise
};

struct FemMaterial {
  double lambda = 1e3, mu = 1e3;  // Pa (2D Lame constants, plane strain)
  double lambda_d = 0, mu_d = 0;  // Pa s (Voigt dashpots)
  double density = 1;             // kg/m^2 (mass per unit area of the 2D body)
  double mass_damping = 0;        // 1/s: dv/dt -= c v (quasi-static relaxation only; 0 in the cases)
};

struct FemEdge {  // a boundary edge, oriented so the body lies on its left (outward normal to the right)
  int a, b;
};

class FemBody {
 public:
  FemBody(FemMesh mesh, FemMaterial material);

  void fix(int node);
  void fix_where(bool (*pred)(const Vec2&, const void*), const void* ctx);
  // The nodes move as one rigid hub rotating freely about `pin` (moment of inertia from their masses).
  void set_hub(const std::vector<int>& nodes, Vec2 pin);

  // `substeps` explicit steps of dt / substeps with the external nodal forces held.
  void advance(double dt, int substeps);
  void substep(double h);

  // State (world coordinates), external nodal forces (N per unit depth), gravity (m/s^2).
  std::vector<Vec2> x, v, f_ext;
  Vec2 gravity = {0, 0};

  const FemMesh& mesh() const { return mesh_; }
  const std::vector<FemEdge>& boundary() const { return boundary_; }
  const std::vector<double>& mass() const { return mass_; }
  double kinetic_energy() const;
  double strain_energy() const;
  // Largest |E_ij| of the Green strain over the elements.
  double max_green_strain() const;
  double hub_angle() const { return hub_angle_; }
  double hub_omega() const { return hub_omega_; }
  bool has_hub() const { return !hub_.empty(); }
  double area() const;  // current area (sum of signed element areas)
  // The moving state (node positions and velocities, external forces, the hub's angle and rate),
  // for checkpoints.
  void archive(StateArchive& a) {
    a.vector("fem.x", x);
    a.vector("fem.v", v);
    a.vector("fem.f_ext", f_ext);
    a.value("fem.hub_angle", hub_angle_);
    a.value("fem.hub_omega", hub_omega_);
  }

 private:
  void element_forces(std::vector<Vec2>& f) const;
  FemMesh mesh_;
  FemMaterial mat_;
  std::vector<std::array<double, 4>> Bm_;  // inverse reference edge matrix per element (row-major)
  std::vector<double> A0_;
  std::vector<double> mass_;
  std::vector<unsigned char> fixed_;
  std::vector<FemEdge> boundary_;
  std::vector<int> hub_;
  std::vector<Vec2> hub_r0_;
  Vec2 pin_{0, 0};
  double hub_inertia_ = 0, hub_angle_ = 0, hub_omega_ = 0;
  std::vector<Vec2> force_;  // scratch
};

// Rectangular bar [x0, x0 + w] x [y0, y0 + l] with nw cells across and nl along (2 triangles each,
// alternating diagonals), plus, when `pointed_tip`, one extra node below the bottom edge's middle
// making two more triangles: nw = 2, nl = 48 gives the paper's 194 elements.
FemMesh fem_bar(double x0, double y0, double w, double l, int nw, int nl, bool pointed_tip);
// Four-bladed windmill about (cx, cy): a square hub of half-size a (2 x 2 cells, 8 triangles) and four
// blades, each one cell wide (a) and nb cells long (blade length L), attached to one half of a hub side
// (a pinwheel): nb = 19 gives the paper's 160 elements. Returns the hub node indices in `hub`.
FemMesh fem_windmill(double cx, double cy, double a, double L, int nb, std::vector<int>& hub);
// A user triangle mesh: "x y" node lines then "a b c" triangle lines (0-based), in a text file
// with a first line "nodes N triangles M"; triangles reoriented counter-clockwise.
FemMesh fem_read_mesh(const std::string& path);

}  // namespace immerse::bodies
