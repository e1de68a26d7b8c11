#include "immerse/core/vtk.hpp"

#include <fmt/format.h>

#include "immerse/core/error.hpp"
#include "immerse/core/output_file.hpp"

namespace immerse::vtk {

ImageField vector_field(const std::string& name, const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<double>& z, double scale) {
  if (y.size() != x.size() || (!z.empty() && z.size() != x.size()))
    throw Error("vtk::vector_field '" + name + "': components of different lengths", kExitInternal);
  ImageField f{name, 3, {}};
  f.values.reserve(3 * x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    f.values.push_back(scale * x[i]);
    f.values.push_back(scale * y[i]);
    f.values.push_back(z.empty() ? 0.0 : scale * z[i]);
  }
  return f;
}

namespace {
// VTK extents count points: cells lo..lo+n span points lo..lo+n.
std::string extent_of(const ImageBox& b) {
  return fmt::format("{} {} {} {} {} {}", b.lo[0], b.lo[0] + b.cells[0], b.lo[1], b.lo[1] + b.cells[1], b.lo[2],
                     b.lo[2] + b.cells[2]);
}
}  // namespace

void write_image(const std::string& path, std::array<int, 3> cells, std::array<double, 3> origin,
                 std::array<double, 3> spacing, const std::vector<ImageField>& fields) {
  write_image_piece(path, cells, ImageBox{{0, 0, 0}, cells}, origin, spacing, fields);
}

void write_parallel_image(const std::string& path, std::array<int, 3> whole, std::array<double, 3> origin,
                          std::array<double, 3> spacing, const std::vector<std::pair<ImageBox, std::string>>& pieces,
                          const std::vector<ImageField>& fields) {
  write_file_atomically(path, [&](OutputFile& out) {
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"PImageData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
    out.print(
        "<PImageData WholeExtent=\"{}\" GhostLevel=\"0\" Origin=\"{:.9g} {:.9g} {:.9g}\" Spacing=\"{:.9g} {:.9g} "
        "{:.9g}\">\n<PCellData>\n",
        extent_of({{0, 0, 0}, whole}), origin[0], origin[1], origin[2], spacing[0], spacing[1], spacing[2]);
    for (const auto& f : fields)
      out.print("<PDataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\"/>\n", f.name, f.components);
    out.print("</PCellData>\n");
    for (const auto& [box, file] : pieces) out.print("<Piece Extent=\"{}\" Source=\"{}\"/>\n", extent_of(box), file);
    out.print("</PImageData>\n</VTKFile>\n");
  });
}

void write_image_piece(const std::string& path, std::array<int, 3> whole, const ImageBox& box,
                       std::array<double, 3> origin, std::array<double, 3> spacing,
                       const std::vector<ImageField>& fields) {
  write_file_atomically(path, [&](OutputFile& out) {
    const std::string extent = extent_of(box);
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
    out.print("<ImageData WholeExtent=\"{}\" Origin=\"{:.9g} {:.9g} {:.9g}\" Spacing=\"{:.9g} {:.9g} {:.9g}\">\n",
              extent_of({{0, 0, 0}, whole}), origin[0], origin[1], origin[2], spacing[0], spacing[1], spacing[2]);
    out.print("<Piece Extent=\"{}\">\n<CellData>\n", extent);
    for (const auto& f : fields) {
      out.print("<DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\" format=\"ascii\">\n", f.name,
                f.components);
      for (size_t i = 0; i < f.values.size(); ++i) out.print("{:.9g}{}", f.values[i], (i + 1) % 8 ? " " : "\n");
      out.print("\n</DataArray>\n");
    }
    out.print("</CellData>\n</Piece>\n</ImageData>\n</VTKFile>\n");
  });
}

void write_points(const std::string& path, const std::vector<std::array<double, 3>>& points,
                  const std::vector<PointField>& fields, const std::vector<std::vector<int>>& lines) {
  write_file_atomically(path, [&](OutputFile& out) {
    size_t nverts = lines.empty() ? points.size() : 0;
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
    out.print(
        "<PolyData>\n<Piece NumberOfPoints=\"{}\" NumberOfVerts=\"{}\" NumberOfLines=\"{}\" NumberOfStrips=\"0\" "
        "NumberOfPolys=\"0\">\n",
        points.size(), nverts, lines.size());
    out.print("<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
    for (const auto& p : points) out.print("{:.9g} {:.9g} {:.9g}\n", p[0], p[1], p[2]);
    out.print("</DataArray>\n</Points>\n<PointData>\n");
    for (const auto& f : fields) {
      out.print("<DataArray type=\"Float64\" Name=\"{}\" format=\"ascii\">\n", f.name);
      for (double v : f.values) out.print("{:.9g}\n", v);
      out.print("</DataArray>\n");
    }
    out.print("</PointData>\n");
    auto cells = [&](const char* tag, const std::vector<std::vector<int>>& runs) {
      out.print("<{}>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", tag);
      for (const auto& r : runs)
        for (int i : r) out.print("{} ", i);
      out.print("\n</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
      size_t off = 0;
      for (const auto& r : runs) out.print("{} ", off += r.size());
      out.print("\n</DataArray>\n</{}>\n", tag);
    };
    if (lines.empty()) {
      std::vector<std::vector<int>> verts(points.size());
      for (size_t i = 0; i < points.size(); ++i) verts[i] = {static_cast<int>(i)};
      cells("Verts", verts);
    } else {
      cells("Lines", lines);
    }
    out.print("</Piece>\n</PolyData>\n</VTKFile>\n");
  });
}

void write_triangles(const std::string& path, const std::vector<std::array<double, 3>>& points,
                     const std::vector<std::array<int, 3>>& triangles, const std::vector<PointField>& cell_fields) {
  write_file_atomically(path, [&](OutputFile& out) {
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
    out.print("<PolyData>\n<Piece NumberOfPoints=\"{}\" NumberOfPolys=\"{}\">\n<Points>\n", points.size(),
              triangles.size());
    out.print("<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
    for (const auto& p : points) out.print("{:.9g} {:.9g} {:.9g}\n", p[0], p[1], p[2]);
    out.print("</DataArray>\n</Points>\n");
    if (!cell_fields.empty()) {
      out.print("<CellData>\n");
      for (const auto& f : cell_fields) {
        out.print("<DataArray type=\"Float64\" Name=\"{}\" format=\"ascii\">\n", f.name);
        for (size_t k = 0; k < triangles.size(); ++k) out.print("{:.9g}\n", k < f.values.size() ? f.values[k] : 0.0);
        out.print("</DataArray>\n");
      }
      out.print("</CellData>\n");
    }
    out.print("<Polys>\n<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n");
    for (const auto& t : triangles) out.print("{} {} {}\n", t[0], t[1], t[2]);
    out.print("</DataArray>\n<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
    for (size_t k = 1; k <= triangles.size(); ++k) out.print("{}\n", 3 * k);
    out.print("</DataArray>\n</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n");
  });
}

void write_collection(const std::string& path, const std::vector<std::pair<double, std::string>>& frames) {
  write_file_atomically(path, [&](OutputFile& out) {
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n");
    for (const auto& [t, file] : frames) out.print("<DataSet timestep=\"{:.9g}\" file=\"{}\"/>\n", t, file);
    out.print("</Collection>\n</VTKFile>\n");
  });
}

}  // namespace immerse::vtk
