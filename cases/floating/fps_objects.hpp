#pragma once
// The fps_objects scene's columns (Table 1), shared by the scene and bench_swlbm.
#include <memory>

#include "float_case.hpp"

namespace immerse::cases {

struct FpsColumn {
  const char* key;  // metric prefix
  int objects;
  bool complex;
  // Table 1 (ms): force computation, physics update, wetted section, rendering, total; frames/s.
  double paper_forces, paper_physics, paper_wetted, paper_render, paper_total, paper_fps;
};
extern const FpsColumn kFpsColumns[4];

struct FpsLayout {
  double spacing = 2.2, drop = 0.15, sphere_radius = 0.5, complex_radius = 0.6, density = 500;
};
FpsLayout fps_layout_from_json(const json& resolved);
// The still level of the fps case (its uniform initial depth).
double fps_still_level(const FloatCase& c);
// One column's scene: the case's water (`water`: this process's part of it, float_water_of_rank),
// the column's objects laid out on a grid of the whole lake.
std::unique_ptr<coupling::FloatSystem> make_fps_column(const FloatCase& c, const swlbm::SwParams& water,
                                                       const FpsLayout& l, int column, Backend b,
                                                       const std::string& source);

}  // namespace immerse::cases
