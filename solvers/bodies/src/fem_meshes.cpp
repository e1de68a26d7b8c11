// Mesh generators for the paper's two bodies and the import of a user triangle mesh.
#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "immerse/bodies/fem_body.hpp"
#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/user_input.hpp"

namespace immerse::bodies {

FemMesh fem_bar(double x0, double y0, double w, double l, int nw, int nl, bool pointed_tip) {
  FemMesh m;
  for (int j = 0; j <= nl; ++j)
    for (int i = 0; i <= nw; ++i) m.nodes.push_back({x0 + w * i / nw, y0 + l * j / nl});
  auto id = [&](int i, int j) { return j * (nw + 1) + i; };
  for (int j = 0; j < nl; ++j)
    for (int i = 0; i < nw; ++i) {
      // Alternating diagonals avoid a preferred bending direction.
      if ((i + j) % 2 == 0) {
        m.tris.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
        m.tris.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
      } else {
        m.tris.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
        m.tris.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
      }
    }
  if (pointed_tip) {
    if (nw != 2) throw std::invalid_argument("fem_bar: the pointed tip needs nw = 2");
    const int tip = static_cast<int>(m.nodes.size());
    m.nodes.push_back({x0 + 0.5 * w, y0 - 0.5 * w});
    m.tris.push_back({id(0, 0), tip, id(1, 0)});
    m.tris.push_back({id(1, 0), tip, id(2, 0)});
  }
  return m;
}

FemMesh fem_windmill(double cx, double cy, double a, double L, int nb, std::vector<int>& hub) {
  FemMesh m;
  // Hub: 3 x 3 nodes on [-a, a]^2, 8 triangles.
  for (int j = 0; j <= 2; ++j)
    for (int i = 0; i <= 2; ++i) m.nodes.push_back({cx + a * (i - 1), cy + a * (j - 1)});
  auto hid = [](int i, int j) { return j * 3 + i; };
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      m.tris.push_back({hid(i, j), hid(i + 1, j), hid(i + 1, j + 1)});
      m.tris.push_back({hid(i, j), hid(i + 1, j + 1), hid(i, j + 1)});
    }
  hub.clear();
  for (int k = 0; k < 9; ++k) hub.push_back(k);
  // One blade along +x from the right side's upper half, then the same rotated by 90, 180, 270 deg:
  // nodes (a + L s / nb, 0 .. a) in hub coordinates; its root nodes are hub nodes (2,1) and (2,2).
  for (int r = 0; r < 4; ++r) {
    const double c = r == 0 ? 1 : r == 2 ? -1 : 0, s = r == 1 ? 1 : r == 3 ? -1 : 0;
    auto rot = [&](double px, double py) -> Vec2 { return {cx + c * px - s * py, cy + s * px + c * py}; };
    // Root nodes: the rotated images of hub nodes (2,1) and (2,2).
    const int roots[4][2] = {
        {hid(2, 1), hid(2, 2)}, {hid(1, 2), hid(0, 2)}, {hid(0, 1), hid(0, 0)}, {hid(1, 0), hid(2, 0)}};
    int prev0 = roots[r][0], prev1 = roots[r][1];
    for (int k = 1; k <= nb; ++k) {
      const int n0 = static_cast<int>(m.nodes.size());
      m.nodes.push_back(rot(a + L * k / nb, 0));
      m.nodes.push_back(rot(a + L * k / nb, a));
      m.tris.push_back({prev0, n0, n0 + 1});
      m.tris.push_back({prev0, n0 + 1, prev1});
      prev0 = n0;
      prev1 = n0 + 1;
    }
  }
  return m;
}

FemMesh fem_read_mesh(const std::string& path) {
  const std::string text = read_input_file(path, "FEM mesh", kMaxMeshFileBytes);
  std::istringstream in(text);
  std::string word;
  long nn = 0, nt = 0;
  in >> word >> nn >> word >> nt;
  if (!in || nn < 3 || nt < 1) throw InputError(path + ": expected a first line 'nodes N triangles M'");
  // Each node or triangle takes at least 4 characters of the file ("0 0\n"): counts beyond that are
  // refused before allocating.
  if (nn > static_cast<long>(text.size()) / 4 || nt > static_cast<long>(text.size()) / 4)
    throw InputError(
        fmt::format("{}: {} nodes and {} triangles do not fit in a file of {} bytes", path, nn, nt, text.size()));
  FemMesh m;
  m.nodes.resize(nn);
  m.tris.resize(nt);
  for (auto& p : m.nodes) in >> p[0] >> p[1];
  for (auto& t : m.tris) {
    in >> t[0] >> t[1] >> t[2];
    for (int k : t)
      if (k < 0 || k >= nn) throw InputError(path + ": triangle node index out of range");
  }
  if (!in) throw InputError(path + ": truncated mesh file");
  return m;  // FemBody orients each triangle counter-clockwise
}

}  // namespace immerse::bodies
