#include "immerse/lbm3d/lbm_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "immerse/core/error.hpp"
#include "immerse/core/node_shared.hpp"

namespace immerse::lbm3d {

namespace {

// The whole lattice's LbmFlow over the ranks of `comm`; this rank steps its block.
class BlockedLbmFlow final : public LbmFlow {
 public:
  // `shared`: the node's ranks share the whole lattice's populations (shared_block_params).
  BlockedLbmFlow(Backend backend, const LbmParams& whole, const RankLayout& layout, Comm& comm, bool shared)
      : whole_(whole), layout_(layout), comm_(comm), shared_(shared) {
    check_stability(whole);
    local_ = make_lbm_flow(
        backend, shared ? shared_block_params(whole, layout, comm.rank()) : block_params(whole, layout, comm.rank()));
  }

  void step() override { local_->step(); }

  // The whole lattice's groups (every rank computes the same, from the same body): this block's
  // cells take theirs, ghost cells included (a ghost layer across a periodic face holds the cells
  // of the other side).
  void set_groups(const CellGroups& whole) override {
    if (shared_) return local_->set_groups(whole);  // the local lattice is the whole one
    const LbmParams& p = local_->params();
    const long n = p.cells(), wn = whole_.cells();
    if (local_groups_.group.empty()) {
      local_groups_.group.assign(n, kWater);
      local_groups_.ub.assign(3 * n, 0.f);
    }
    local_groups_.region.clear();
    const int wsize[3] = {whole_.nx, whole_.ny, whole_.nz}, lsize[3] = {p.nx, p.ny, p.nz};
    for (const int wc : whole.region) {
      const int w[3] = {wc % whole_.nx, (wc / whole_.nx) % whole_.ny, wc / whole_.nx / whole_.ny};
      // Local positions of global cell w along each axis: w - origin, or one period away (ghosts).
      int along[3][2], count[3] = {0, 0, 0};
      for (int a = 0; a < 3; ++a)
        for (int shift : {-wsize[a], 0, wsize[a]}) {
          const int l = w[a] - p.block.origin[a] + shift;
          if (l >= 0 && l < lsize[a] && count[a] < 2) along[a][count[a]++] = l;
        }
      for (int x = 0; x < count[0]; ++x)
        for (int y = 0; y < count[1]; ++y)
          for (int z = 0; z < count[2]; ++z) {
            const long lc =
                along[0][x] + static_cast<long>(p.nx) * (along[1][y] + static_cast<long>(p.ny) * along[2][z]);
            local_groups_.group[lc] = whole.group[wc];
            for (int a = 0; a < 3; ++a) local_groups_.ub[a * n + lc] = whole.ub[a * wn + wc];
            local_groups_.region.push_back(static_cast<int>(lc));
          }
    }
    local_->set_groups(local_groups_);
  }

  Macro macro() const override { return macro({0, 0, 0}, {whole_.nx, whole_.ny, whole_.nz}); }

  // The box's cells from the ranks that own them: each sends the part of the box in its block.
  Macro macro(const std::array<int, 3>& lo_in, const std::array<int, 3>& hi_in) const override {
    const int size[3] = {whole_.nx, whole_.ny, whole_.nz};
    BlockExtent box;
    for (int a = 0; a < 3; ++a) {
      box.lo[a] = std::clamp(lo_in[a], 0, size[a]);
      box.size[a] = std::clamp(hi_in[a], box.lo[a], size[a]) - box.lo[a];
    }
    // Every rank asks its solver (collective: the moments refresh the ghost layers), maybe for nothing.
    const BlockExtent part = overlap(box, block_of(whole_, layout_, comm_.rank()));
    const auto& origin = local_->params().block.origin;
    std::array<int, 3> llo, lhi;
    for (int a = 0; a < 3; ++a) llo[a] = part.lo[a] - origin[a], lhi[a] = llo[a] + part.size[a];
    const Macro mine = local_->macro(llo, lhi);
    std::vector<double> send;
    send.reserve(5 * mine.rho.size());
    for (const auto* v : {&mine.rho, &mine.ux, &mine.uy, &mine.uz}) send.insert(send.end(), v->begin(), v->end());
    for (unsigned char g : mine.group) send.push_back(g);
    const std::vector<double> all = comm_.allgather(send);
    Macro m;
    m.nx = box.size[0];
    m.ny = box.size[1];
    m.nz = box.size[2];
    for (int a = 0; a < 3; ++a) m.lo[a] = box.lo[a];
    const size_t cells = static_cast<size_t>(m.nx) * m.ny * m.nz;
    m.rho.resize(cells);
    m.ux.resize(cells);
    m.uy.resize(cells);
    m.uz.resize(cells);
    m.group.resize(cells);
    size_t at = 0;
    for (int r = 0; r < comm_.size(); ++r) {
      const BlockExtent e = overlap(box, block_of(whole_, layout_, r));
      const size_t n = static_cast<size_t>(e.size[0]) * e.size[1] * e.size[2];
      for (size_t b = 0; b < n; ++b) {
        const int i = e.lo[0] + static_cast<int>(b % e.size[0]) - box.lo[0];
        const int j = e.lo[1] + static_cast<int>((b / e.size[0]) % e.size[1]) - box.lo[1];
        const int k = e.lo[2] + static_cast<int>(b / e.size[0] / e.size[1]) - box.lo[2];
        const size_t c = m.at(i, j, k);
        m.rho[c] = all[at + b];
        m.ux[c] = all[at + n + b];
        m.uy[c] = all[at + 2 * n + b];
        m.uz[c] = all[at + 3 * n + b];
        m.group[c] = static_cast<unsigned char>(all[at + 4 * n + b]);
      }
      at += 5 * n;
    }
    return m;
  }

  std::vector<float> velocity() const override {
    const Macro m = macro();
    std::vector<float> v;
    v.reserve(3 * m.ux.size());
    for (const auto* u : {&m.ux, &m.uy, &m.uz})
      for (double x : *u) v.push_back(static_cast<float>(x));
    return v;
  }

  Health health() const override {
    // The first unhealthy cell of the whole lattice (the lowest cell index of any rank's first),
    // and the fastest water anywhere.
    const Health h = local_->health();
    const double inf = std::numeric_limits<double>::infinity();
    const double index = h.ok ? inf : h.i + double(whole_.nx) * (h.j + double(whole_.ny) * h.k);
    const std::vector<double> all =
        comm_.allgather({index, h.rho, h.speed, h.max_speed, h.what == "populations not finite" ? 1.0 : 0.0});
    Health out;
    int first = -1;
    for (int r = 0; r < comm_.size(); ++r) {
      out.max_speed = std::max(out.max_speed, all[5 * r + 3]);
      if (all[5 * r] < inf && (first < 0 || all[5 * r] < all[5 * first])) first = r;
    }
    if (first < 0) return out;
    const long c = static_cast<long>(all[5 * first]);
    out.ok = false;
    out.i = static_cast<int>(c % whole_.nx);
    out.j = static_cast<int>((c / whole_.nx) % whole_.ny);
    out.k = static_cast<int>(c / whole_.nx / whole_.ny);
    out.rho = all[5 * first + 1];
    out.speed = all[5 * first + 2];
    out.what = all[5 * first + 4] > 0 ? "populations not finite" : "negative equilibrium population";
    out.what += fmt::format(" (rank {})", first);
    return out;
  }

  std::vector<double> row_masses() const override { return whole_rows(local_->row_masses()); }
  std::vector<double> row_kinetic_energies() const override { return whole_rows(local_->row_kinetic_energies()); }

  // The queries no gather follows end together where the ranks share the populations: a rank that
  // stepped on at once could write the slots another is still reading.
  Macro own_macro() const override { return together(local_->own_macro()); }
  std::vector<double> raw_populations() const override { return together(local_->raw_populations()); }
  long steps_done() const override { return local_->steps_done(); }
  const LbmParams& params() const override { return whole_; }
  Backend backend() const override { return local_->backend(); }
  std::string precision() const override { return local_->precision(); }
  std::vector<std::pair<std::string, double>> phase_seconds() const override { return local_->phase_seconds(); }
  double halo_bytes_sent() const override { return local_->halo_bytes_sent(); }
  // This rank's block: where it is, then its solver's state (a checkpoint per rank).
  void archive(StateArchive& a) override {
    const BlockExtent mine = block_of(whole_, layout_, comm_.rank());
    BlockExtent stored = mine;
    a.value("lbm3d.block", stored);
    if (stored.lo != mine.lo || stored.size != mine.size)
      throw InputError(
          fmt::format("{}: the checkpoint holds the block at ({}, {}, {}) of {}x{}x{} cells, this rank's "
                      "is at ({}, {}, {}) of {}x{}x{}: resume with the split and ranks per node it was written with",
                      whole_.source, stored.lo[0], stored.lo[1], stored.lo[2], stored.size[0], stored.size[1],
                      stored.size[2], mine.lo[0], mine.lo[1], mine.lo[2], mine.size[0], mine.size[1], mine.size[2]));
    local_->archive(a);
    together(0);
  }

 private:
  // Every row of the whole lattice, in its order (y, then z), gathered from the ranks owning them
  // (`mine`: this rank's own rows, in the same order).
  std::vector<double> whole_rows(const std::vector<double>& mine) const {
    const std::vector<double> all = comm_.allgather(mine);
    std::vector<double> rows(static_cast<size_t>(whole_.ny) * whole_.nz);
    size_t at = 0;
    for (int r = 0; r < comm_.size(); ++r) {
      const BlockExtent e = block_of(whole_, layout_, r);
      for (int k = 0; k < e.size[2]; ++k)
        for (int j = 0; j < e.size[1]; ++j)
          rows[(e.lo[1] + j) + static_cast<size_t>(whole_.ny) * (e.lo[2] + k)] = all[at++];
    }
    return rows;
  }

  // `result`, once every rank has got its own where the ranks share the populations.
  template <class T>
  T together(T result) const {
    if (shared_) comm_.barrier();
    return result;
  }

  // The cells of a and b both (sizes zero where they do not meet).
  static BlockExtent overlap(const BlockExtent& a, const BlockExtent& b) {
    BlockExtent e;
    for (int d = 0; d < 3; ++d) {
      e.lo[d] = std::max(a.lo[d], b.lo[d]);
      e.size[d] = std::max(0, std::min(a.lo[d] + a.size[d], b.lo[d] + b.size[d]) - e.lo[d]);
      if (e.size[d] == 0) return BlockExtent{a.lo, {0, 0, 0}};
    }
    return e;
  }

  LbmParams whole_;
  RankLayout layout_;
  Comm& comm_;
  bool shared_;  // the ranks share the populations (shared_block_params)
  std::unique_ptr<LbmFlow> local_;
  CellGroups local_groups_;  // set_groups: the block's groups, kept between calls
};

}  // namespace

RankLayout rank_layout_on(const LbmParams& whole, const std::array<int, 3>& dims, const Comm& comm) {
  return rank_layout(whole, dims, comm.ranks_per_node());
}

std::unique_ptr<LbmFlow> make_lbm_flow_on_ranks(Backend backend, const LbmParams& whole, Comm& comm,
                                                const std::array<int, 3>& requested) {
  const bool given = requested[0] > 0 || requested[1] > 0 || requested[2] > 0;
  if (comm.size() == 1 && (!given || requested[1] * requested[2] <= 1)) {
    choose_dims(whole, 1, requested);  // rejects an x split on one rank too
    return make_lbm_flow(backend, whole);
  }
  // Ranks of one node on the host share the populations where the split is along z only: the
  // split they get unless another is requested. Where the node's shared memory has no room for the
  // lattice (a container's small /dev/shm), they exchange ghost layers instead, and say so.
  const bool may_share = whole.block.share_node && node_sharing_from_env() != NodeSharing::never && comm.one_node() &&
                         backend != Backend::cuda;
  const std::array<int, 3> dims = !given && may_share && whole.nz >= comm.size()
                                      ? std::array<int, 3>{1, 1, comm.size()}
                                      : choose_dims(whole, comm.size(), requested);
  bool share = may_share && dims[1] == 1;
  if (share) share = node_has_room(comm, lattice_bytes(whole), "the lattice");
  return std::make_unique<BlockedLbmFlow>(backend, whole, rank_layout_on(whole, dims, comm), comm, share);
}

}  // namespace immerse::lbm3d
