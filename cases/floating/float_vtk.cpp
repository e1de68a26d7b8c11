// Body surfaces as VTK PolyData (.vtp): triangles in world coordinates with the hull pressure
// rho g h per face (the paper's Fig. 10 display).
#include "float_simulation.hpp"
#include "immerse/core/vtk.hpp"

namespace immerse::cases {

void write_float_body_vtp(const std::string& path, const coupling::FloatSystem& s, int b) {
  const auto& rt = s.body(b);
  const auto st = s.body_state(b);
  const Eigen::Matrix3d R = st.rotation();
  std::vector<std::array<double, 3>> points;
  points.reserve(rt.local.vertices.size());
  for (const auto& v : rt.local.vertices) {
    const Eigen::Vector3d w = R * v + st.position;
    points.push_back({w.x(), w.y(), w.z()});
  }
  vtk::write_triangles(path, points, rt.local.faces, {{"pressure", rt.pressure}});
}

}  // namespace immerse::cases
