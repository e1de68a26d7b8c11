#pragma once
// Frames of a lattice on one process or split among MPI ranks, as ParaView image data.
#include <array>
#include <string>
#include <vector>

#include "immerse/core/vtk.hpp"

namespace immerse::cases {

// One frame of a lattice's `fields` over the cells this process updates: `box` (from its solver's
// own fields) of the `whole` lattice, cells `spacing` apart. From one process:
// `<prefix>_<index>.vti`; on several ranks each writes its piece `<prefix>_<index>_r<rank>.vti` and
// rank 0 the `.pvti` that joins them, which ParaView opens as one dataset. Returns the name the
// frames collection lists. Collective on several ranks.
std::string write_lattice_image(const std::string& dir, const std::string& prefix, int index,
                                const std::array<int, 3>& whole, const std::array<double, 3>& spacing,
                                const vtk::ImageBox& box, const std::vector<vtk::ImageField>& fields);

}  // namespace immerse::cases
