#pragma once
// A body mesh as a voxel obstacle for the turbulence precompute's MAC grid.
#include <cstdint>
#include <vector>

#include "immerse/bodies/trimesh.hpp"

namespace immerse::bodies {

// Cells (x fastest, nx*ny*nz) of the grid with corner `origin` and cell size h that the body
// occupies: every cell whose centre is inside (ray parity along +x) plus every cell the surface
// passes through (faces sampled at spacing <= h/4), so sheets thinner than a cell still block the flow.
std::vector<uint8_t> langevin_voxelise(const TriMesh& mesh, int nx, int ny, int nz, double h,
                                       const Eigen::Vector3d& origin);

}  // namespace immerse::bodies
