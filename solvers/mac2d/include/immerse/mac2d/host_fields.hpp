#pragma once
// The host-side view of a 2D staggered grid that both mac2d solvers (the patent's penalty scheme and
// Stable Fluids) return: field copies for scenes, checks and output, and the health summary.
#include <cstddef>
#include <string>
#include <vector>

namespace immerse::mac2d {

// Host copies of the staggered fields, ghost layer included, (nx+2) x (ny+2), x fastest.
// Cell (i, j), 1 <= i <= nx, 1 <= j <= ny is interior. u(i, j) is the face between cells i and i+1
// (x = i dx), v(i, j) the face between cells j and j+1 (y = j dy). Cell centres at ((i-1/2)dx, (j-1/2)dy).
struct HostFields {
  int nx = 0, ny = 0;
  double dx = 1, dy = 1, time = 0;
  std::vector<double> u, v, p;
  std::vector<unsigned char> solid;
  std::vector<std::vector<double>> dyes;
  size_t at(int i, int j) const { return static_cast<size_t>(j) * (nx + 2) + i; }
  // Cell-centre averages, the patent's display quantities: u_ij = (u_{i-1/2} + u_{i+1/2}) / 2.
  double uc(int i, int j) const { return 0.5 * (u[at(i - 1, j)] + u[at(i, j)]); }
  double vc(int i, int j) const { return 0.5 * (v[at(i, j - 1)] + v[at(i, j)]); }
};

struct FieldStatus {
  bool finite = true;
  std::string field;  // first non-finite field
  int i = -1, j = -1;
  double max_speed = 0;  // max |u|, |v| over faces
};

}  // namespace immerse::mac2d
