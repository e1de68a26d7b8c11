#pragma once
// VTK XML writers (ASCII, so files are diffable and need no extra library): ImageData (.vti) for
// grid fields, PolyData (.vtp) for points/lines, and a .pvd collection tying frames to times.
// ParaView opens all three.
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace immerse::vtk {

struct ImageField {
  std::string name;
  int components = 1;
  std::vector<double> values;  // x fastest, then y, then z; `components` values per cell
};

// A 3-component field from its components (z zero when empty): velocity as one vector array, which
// ParaView's glyph and stream-tracer filters expect.
ImageField vector_field(const std::string& name, const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<double>& z = {}, double scale = 1.0);

// A grid of nx*ny*nz cells with the given origin and spacing; fields are cell data.
void write_image(const std::string& path, std::array<int, 3> cells, std::array<double, 3> origin,
                 std::array<double, 3> spacing, const std::vector<ImageField>& fields);

// Cells lo <= (i, j, k) < lo + cells of a grid.
struct ImageBox {
  std::array<int, 3> lo = {0, 0, 0}, cells = {0, 0, 0};
};
// One piece of a grid of `whole` cells (a process's block): a .vti holding the box's cells only.
void write_image_piece(const std::string& path, std::array<int, 3> whole, const ImageBox& box,
                       std::array<double, 3> origin, std::array<double, 3> spacing,
                       const std::vector<ImageField>& fields);
// The .pvti that ParaView opens as one grid made of `pieces` (each a box and its .vti, named
// relative to the .pvti), with the cell arrays `fields` (their values are not used).
void write_parallel_image(const std::string& path, std::array<int, 3> whole, std::array<double, 3> origin,
                          std::array<double, 3> spacing, const std::vector<std::pair<ImageBox, std::string>>& pieces,
                          const std::vector<ImageField>& fields);

struct PointField {
  std::string name;
  std::vector<double> values;  // one per point
};

// Points (x, y, z) with optional point data; `lines` lists polylines as point-index runs.
void write_points(const std::string& path, const std::vector<std::array<double, 3>>& points,
                  const std::vector<PointField>& fields, const std::vector<std::vector<int>>& lines = {});

// A triangle surface (PolyData polys): vertices, faces as vertex-index triples, optional cell data
// (one value per triangle under the field's name).
void write_triangles(const std::string& path, const std::vector<std::array<double, 3>>& points,
                     const std::vector<std::array<int, 3>>& triangles, const std::vector<PointField>& cell_fields = {});

// Collection file: each entry is (time, file name relative to the .pvd).
void write_collection(const std::string& path, const std::vector<std::pair<double, std::string>>& frames);

}  // namespace immerse::vtk
