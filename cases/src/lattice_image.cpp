#include "immerse/cases/lattice_image.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "immerse/core/comm.hpp"

namespace immerse::cases {

std::string write_lattice_image(const std::string& dir, const std::string& prefix, int index,
                                const std::array<int, 3>& whole, const std::array<double, 3>& step,
                                const vtk::ImageBox& mine, const std::vector<vtk::ImageField>& fields) {
  Comm& comm = world();
  const std::filesystem::path folder(dir);
  const std::array<double, 3> origin = {0, 0, 0};
  if (comm.size() == 1) {
    const std::string name = fmt::format("{}_{:05d}.vti", prefix, index);
    vtk::write_image((folder / name).string(), whole, origin, step, fields);
    return name;
  }
  vtk::write_image_piece((folder / fmt::format("{}_{:05d}_r{}.vti", prefix, index, comm.rank())).string(), whole, mine,
                         origin, step, fields);
  const std::vector<double> boxes =
      comm.allgather({double(mine.lo[0]), double(mine.lo[1]), double(mine.lo[2]), double(mine.cells[0]),
                      double(mine.cells[1]), double(mine.cells[2])});
  const std::string name = fmt::format("{}_{:05d}.pvti", prefix, index);
  if (comm.rank() == 0) {
    std::vector<std::pair<vtk::ImageBox, std::string>> pieces;
    for (int r = 0; r < comm.size(); ++r) {
      const double* b = &boxes[6 * r];
      pieces.push_back({vtk::ImageBox{{int(b[0]), int(b[1]), int(b[2])}, {int(b[3]), int(b[4]), int(b[5])}},
                        fmt::format("{}_{:05d}_r{}.vti", prefix, index, r)});
    }
    vtk::write_parallel_image((folder / name).string(), whole, origin, step, pieces, fields);
  }
  return name;
}

}  // namespace immerse::cases
