#pragma once
// How a body and the fluid are coupled (the case file's "coupling.mode"), apart from the boundary
// map's code so that the case-file schema names the modes without the fluid solver's headers.

namespace immerse::coupling {

// boundary_map: the paper's map (bmap_boundary_map.hpp); staircase: the cells whose centre is inside
// are solid (the baseline); one_way: no constraints at all, the fluid flows through the body while
// still pushing it (the baseline with no boundary treatment; the leakage checks' counterexample).
enum class CouplingMode { boundary_map, staircase, one_way };

}  // namespace immerse::coupling
