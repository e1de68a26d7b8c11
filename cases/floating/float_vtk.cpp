// Body surfaces as VTK PolyData (.vtp, ASCII): triangles in world coordinates with the hull
// pressure rho g h per face (the paper's Fig. 10 display).
#include <fmt/format.h>
#include <fmt/os.h>

#include "float_simulation.hpp"
#include "immerse/core/error.hpp"

namespace immerse::cases {

void write_float_body_vtp(const std::string& path, const coupling::FloatSystem& s, int b) {
  const auto& rt = s.body(b);
  const auto st = s.body_state(b);
  const Eigen::Matrix3d R = st.rotation();
  std::unique_ptr<fmt::ostream> out;
  try {
    out = std::make_unique<fmt::ostream>(fmt::output_file(path));
  } catch (const std::system_error& e) {
    throw Error("cannot write " + path + ": " + e.what(), 1);
  }
  const auto& m = rt.local;
  out->print("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
  out->print("<PolyData>\n<Piece NumberOfPoints=\"{}\" NumberOfPolys=\"{}\">\n<Points>\n", m.vertex_count(),
             m.face_count());
  out->print("<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (const auto& v : m.vertices) {
    const Eigen::Vector3d w = R * v + st.position;
    out->print("{:.7g} {:.7g} {:.7g}\n", w.x(), w.y(), w.z());
  }
  out->print("</DataArray>\n</Points>\n<CellData>\n<DataArray type=\"Float64\" Name=\"pressure\" format=\"ascii\">\n");
  for (int f = 0; f < m.face_count(); ++f)
    out->print("{:.7g}\n", f < static_cast<int>(rt.pressure.size()) ? rt.pressure[f] : 0.0);
  out->print("</DataArray>\n</CellData>\n<Polys>\n<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
  for (const auto& f : m.faces) out->print("{} {} {}\n", f[0], f[1], f[2]);
  out->print("</DataArray>\n<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
  for (int f = 1; f <= m.face_count(); ++f) out->print("{}\n", 3 * f);
  out->print("</DataArray>\n</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n");
}

}  // namespace immerse::cases
