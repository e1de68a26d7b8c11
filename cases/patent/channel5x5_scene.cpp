// channel5x5: the patent's printed two-step table, reproduced entry by entry.
#include <fmt/format.h>

#include <sstream>

#include "immerse/cases/case_library.hpp"
#include "penalty_simulation.hpp"

namespace immerse::cases {
namespace {

struct Entry {
  int t, i, j;  // printout labels: step, doubled indices
  double u, v, p;
};

// The printout's cell-centre values at doubled labels I, J in {2, 4, 6} (cell I/2, J/2).
std::vector<Entry> printout(const mac2d::HostFields& f, int t) {
  std::vector<Entry> out;
  for (int I = 2; I <= 6; I += 2)
    for (int J = 2; J <= 6; J += 2) {
      const int ci = I / 2, cj = J / 2;
      out.push_back({t, I, J, f.uc(ci, cj), f.vc(ci, cj), f.p[f.at(ci, cj)]});
    }
  return out;
}

std::vector<Entry> printed_table() {
  std::istringstream in(reference_data("patent_5x5_table.csv"));
  std::vector<Entry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    Entry e{};
    char c;
    std::istringstream row(line);
    row >> e.t >> c >> e.i >> c >> e.j >> c >> e.u >> c >> e.v >> c >> e.p;
    out.push_back(e);
  }
  return out;
}

class Channel5x5 final : public PenaltySimulation {
 public:
  using PenaltySimulation::PenaltySimulation;

  void step() override {
    // The time-0 block prints the second, still untouched, time level: the one step 1 writes.
    if (flow_->steps_done() == 0) append(printout(flow_->fields(/*previous_level=*/true), 0));
    PenaltySimulation::step();
    append(printout(flow_->fields(), static_cast<int>(flow_->steps_done())));
  }

  void archive(StateArchive& a) override {
    PenaltySimulation::archive(a);
    a.vector("channel5x5.table", table_);
  }

  json metrics() override {
    json m = PenaltySimulation::metrics();
    m["table"] = json::array();
    for (const auto& e : table_)
      m["table"].push_back({{"t", e.t}, {"i", e.i}, {"j", e.j}, {"u", e.u}, {"v", e.v}, {"p", e.p}});
    return m;
  }

  std::vector<Check> checks(const json& metrics) const override {
    // |ours - printed| <= 1e-6 + 2e-7 |printed|: the printout has 6 decimals (half-unit 5e-7) and was
    // computed in single precision (relative 6e-8 per operation, a few operations deep).
    std::vector<Check> out = PenaltySimulation::checks(metrics);
    const std::string source = "US 5,537,641 printed 5x5 table (validation/reference/patent_5x5_table.csv)";
    // The time-0 block prints the second time level before step 1 writes it: the zeros it was
    // allocated with, a read-back of the initial state.
    const std::string untouched =
        source + "; time 0: the untouched second time level, a read-back of the initial state";
    // The scheme is explicit with neighbours one cell apart, so the inflow (label 1) reaches p and v
    // up to label 2t after t steps, and the printed u, the mean of the faces either side of a
    // cell, one cell further (2t + 2). Beyond that reach any such scheme prints 0 (time 1: p, v at
    // labels 4 and 6 and u at 6; time 2: p, v at 6): those zeros cannot tell models apart.
    const std::string unreached =
        source + "; beyond the inflow's reach after this many steps: 0 for any explicit nearest-neighbour scheme";
    for (const Entry& ref : printed_table()) {
      const json* mine = nullptr;
      for (const auto& e : metrics["table"])
        if (e["t"] == ref.t && e["i"] == ref.i && e["j"] == ref.j) mine = &e;
      const double vals[3] = {ref.u, ref.v, ref.p};
      const char* names[3] = {"u", "v", "p"};
      for (int q = 0; q < 3; ++q) {
        const double ours = mine ? (*mine)[names[q]].get<double>() : std::nan("");
        const int reach = 2 * ref.t + (q == 0 ? 2 : 0);
        const bool structural = ref.t > 0 && vals[q] == 0 && ref.i > reach;
        out.push_back({fmt::format("time {} {}[{}][{}]", ref.t, names[q], ref.i, ref.j), ours, vals[q],
                       1e-6 + 2e-7 * std::abs(vals[q]),
                       ref.t == 0   ? untouched
                       : structural ? unreached
                                    : source,
                       ref.t == 0 || structural ? CheckKind::consistency : CheckKind::prediction});
      }
    }
    return out;
  }

 private:
  void append(const std::vector<Entry>& rows) { table_.insert(table_.end(), rows.begin(), rows.end()); }
  std::vector<Entry> table_;
};

}  // namespace

std::unique_ptr<Simulation> make_channel5x5(const json& r, const std::string& source, const RunOptions& opt) {
  return std::make_unique<Channel5x5>(r, source, opt);
}

}  // namespace immerse::cases
