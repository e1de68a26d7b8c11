// project_weak_scaling (weak_scaling_model.hpp): the exchange of every rank of a weak split, counted
// from the decomposition the lattice solver itself uses.
#include "immerse/reports/weak_scaling_model.hpp"

#include <algorithm>
#include <vector>

#include "immerse/lbm3d/lbm_decomposition.hpp"

namespace immerse::reports {

WeakScalingPoint project_weak_scaling(const ScalingMachine& m, int ranks, int block, int pop_bytes) {
  lbm3d::LbmParams whole;  // periodic on every face, as scaling_lattices' rows
  whole.nx = whole.ny = whole.nz = block;
  whole.source = "weak scaling model";
  WeakScalingPoint out;
  out.dims = lbm3d::choose_dims(whole, ranks, {0, 0, 0});
  whole.ny = block * out.dims[1];
  whole.nz = block * out.dims[2];
  std::vector<lbm3d::LbmParams> local(ranks);
  const lbm3d::RankLayout layout = lbm3d::rank_layout(whole, out.dims, m.per_node);
  out.tile = {layout.ty, layout.tz};
  for (int r = 0; r < ranks; ++r) local[r] = lbm3d::block_params(whole, layout, r);
  const int nodes = (ranks + m.per_node - 1) / m.per_node;
  std::vector<double> node_total(nodes, 0.0), rank_total(ranks, 0.0);
  for (int axis = 1; axis <= 2; ++axis) {
    std::vector<double> node_out(nodes, 0.0);
    double rank_in_node = 0;  // the busiest rank's bytes to ranks of its node
    bool sends = false;
    for (int r = 0; r < ranks; ++r) {
      const lbm3d::LbmParams& p = local[r];
      const double plane = 5.0 * p.nx * (axis == 1 ? p.nz : p.ny) * pop_bytes;
      double near = 0;
      for (int side = 0; side < 2; ++side) {
        const int face = 2 * axis + side;
        if (!p.block.ghost[face]) continue;
        sends = true;
        rank_total[r] += plane;
        if (p.block.neighbour[face] / m.per_node == r / m.per_node)
          near += plane;
        else
          node_out[r / m.per_node] += plane;
      }
      rank_in_node = std::max(rank_in_node, near);
    }
    if (!sends) continue;
    const double busiest = *std::max_element(node_out.begin(), node_out.end());
    out.halo_s += std::max(rank_in_node / m.intra, busiest / m.inter) + m.latency;
    for (int n = 0; n < nodes; ++n) node_total[n] += node_out[n];
  }
  out.node_bytes = *std::max_element(node_total.begin(), node_total.end());
  out.rank_bytes = *std::max_element(rank_total.begin(), rank_total.end());
  const double u = static_cast<double>(block) * block * block / m.rate, h = out.halo_s;
  out.update_s = u;
  out.blocking = 2 * u / (2 * u + 2 * h);
  out.hidden = u / std::max(u, h);
  return out;
}

}  // namespace immerse::reports
