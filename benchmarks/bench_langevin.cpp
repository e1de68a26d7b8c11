// bench_langevin: the Langevin-rigid paper's costs (Table 1 and sec. 7) for every backend.
//
//   added_mass/host/<faces>                  added mass of the 1 x 2 x 4 cm ellipsoid as the cases compute
//                                            it: green, Richardson-extrapolated from faces/4 (both solves;
//                                            paper: 53 ms for 1280 faces)
//   added_mass_panels/host/<faces>           the same with the first-order source panels (no extrapolation)
//   added_mass_body/host/<row>[/whole]       added mass of a canned case's own thin body (the falling
//                                            paper's 1024-face sheet, the airplane), as `immerse run`
//                                            computes it: one dense LU per mirror class (counter
//                                            mirror_order: the symmetries used); /whole: the whole
//                                            system's LU (BiCGSTAB stalls on sheets); counter
//                                            assemble_ms: the influence matrices' share
//   turbulence_precompute/<backend>/<grid>   100 steps of the k-epsilon MAC-grid precompute past the
//                                            rubber ellipsoid, 10 warm-started Jacobi sweeps per projection
//                                            (paper: 182 ms on 32x32x8)
//   table1_step/<row>/dt<ms>                 one RK4 Kirchhoff-Langevin step of one body, Table 1's
//                                            rows (paper: 1.59-1.86 ms per step on an i7 3.2 GHz);
//                                            counter paper_us is the paper's figure for the row
//   langevin_batch/<backend>/<N>             N independent bodies x 100 steps in one Kokkos kernel
//                                            (counter body_steps_per_s)
// Run with OMP_PROC_BIND=spread OMP_PLACES=threads. The added_mass and turbulence_precompute CPU
// column is the whole process's CPU time (every OpenMP thread), so it compares across backends
// and thread counts on a loaded machine where the wall time does not.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <utility>

#include "immerse/bodies/langevin_body.hpp"
#include "immerse/bodies/langevin_meshes.hpp"
#include "immerse/bodies/langevin_voxelise.hpp"
#include "immerse/core/backend.hpp"
#include "immerse/mac3d/turbulence.hpp"
#include "support/bench_main.hpp"

namespace {

using immerse::Backend;
namespace b = immerse::bodies;
namespace m = immerse::mac3d;

void added_mass(benchmark::State& state, int subdivisions, b::SourceModel model) {
  const b::TriMesh mesh = b::make_ellipsoid(0.01, 0.02, 0.04, subdivisions);
  std::optional<b::TriMesh> coarse;
  if (model == b::SourceModel::green) coarse = b::make_ellipsoid(0.01, 0.02, 0.04, subdivisions - 1);
  b::AddedMassOptions opt;
  opt.fluid_density = 1000;
  opt.model = model;
  b::AddedMassResult r;
  for (auto _ : state) r = b::langevin_added_mass(mesh, coarse, opt);
  benchmark::DoNotOptimize(r.matrix(0, 0));
  state.counters["faces"] = mesh.face_count();
  state.counters["mirror_order"] = r.mirror_order;
}

void turbulence(benchmark::State& state, Backend backend, int nz) {
  m::TurbulenceParams p;
  p.nx = 32;
  p.ny = 32;
  p.nz = nz;
  p.U0 = 0.2;
  p.h = 2 * 0.08 / p.nx;  // the rubber ellipsoid's tunnel: two body lengths along the flow
  p.dt = p.h / p.U0;
  p.steps = 100;
  p.pressure_iterations = 10;
  p.length = 0.08;
  b::TriMesh body = b::make_ellipsoid(0.01, 0.02, 0.04, 2);
  body.translate({p.nx * p.h / 3, p.ny * p.h / 2, p.nz * p.h / 2});
  const auto solid = b::langevin_voxelise(body, p.nx, p.ny, p.nz, p.h, Eigen::Vector3d::Zero());
  for (auto _ : state) benchmark::DoNotOptimize(m::run_turbulence(backend, p, solid).eps.back());
  state.counters["cells"] = double(p.nx) * p.ny * p.nz;
  state.counters["cell_steps_per_s"] =
      benchmark::Counter(double(p.nx) * p.ny * p.nz * p.steps * state.iterations(), benchmark::Counter::kIsRate);
}

struct Row {
  std::string name;
  std::string shape;
  double a, bb, c, thickness, density, fluid;
  int faces;
  double dt_ms, paper_ms;
};

b::TriMesh row_mesh(const Row& r) {
  b::TriMesh mesh =
      b::langevin_body_mesh(b::langevin_shape_choices().parse(r.shape, "shape"), r.a, r.bb, r.c, r.thickness, r.faces);
  mesh.translate(-b::mass_properties(mesh).centroid);
  return mesh;
}

// The options the case runner uses (cases/langevin/langevin_simulation.cpp).
b::AddedMassOptions row_options(const Row& r) {
  b::AddedMassOptions opt;
  opt.fluid_density = r.fluid;
  opt.thickness = r.thickness;
  opt.iterative = r.thickness <= 0;
  return opt;
}

// Thin sheets are what the paper simulates (Table 1's paper and airplane rows).
void added_mass_body(benchmark::State& state, Row row, bool mirrors) {
  const b::TriMesh mesh = row_mesh(row);
  b::AddedMassOptions opt = row_options(row);
  opt.use_mirrors = mirrors;
  b::AddedMassResult r;
  for (auto _ : state) r = b::langevin_added_mass(mesh, opt);
  benchmark::DoNotOptimize(r.matrix(0, 0));
  state.counters["faces"] = mesh.face_count();
  state.counters["assemble_ms"] = r.assemble_ms;
  state.counters["mirror_order"] = r.mirror_order;
  state.counters["paper_ms"] = 53;  // the paper's precompute: 1280 faces (sec. 7)
}

b::LangevinBodyParams row_params(const Row& r) {
  const b::TriMesh mesh = row_mesh(r);
  const auto am = b::langevin_added_mass(mesh, row_options(r));
  return b::langevin_body_params(mesh, r.density, r.fluid, am.matrix, 4e4, true);
}

void table1_step(benchmark::State& state, Row row) {
  const b::LangevinBodyParams p = row_params(row);
  b::LangevinSeries series;
  series.chi = {2.0, 1.8};
  series.eps = {2.0, 1.9};
  series.dt = 0.5;
  const double x[3] = {0, 0, 1e6}, e[3] = {0.1, 0.2, 0.3}, z[3] = {0, 0, 0};
  b::LangevinBodyState s = b::langevin_initial_state(x, e, z, z);
  const double dt = row.dt_ms * 1e-3;
  uint64_t k = 0;
  for (auto _ : state) {
    b::langevin_step(p, series.view(), s, k * dt, dt, 1, 0, k);
    ++k;
    if (s.landed || s.x[2] < 1e5) s = b::langevin_initial_state(x, e, z, z);  // keep it falling
  }
  benchmark::DoNotOptimize(s.x[2]);
  state.counters["paper_us"] = row.paper_ms * 1e3;
  state.counters["faces"] = row.faces;
}

void batch(benchmark::State& state, Backend backend, int n) {
  const Row r{"ellipsoid", "ellipsoid", 0.01, 0.02, 0.04, 0, 1200, 1000, 320, 5, 0};
  const b::LangevinBodyParams p = row_params(r);
  b::LangevinSeries series;
  series.chi = {2.0, 1.8};
  series.eps = {2.0, 1.9};
  series.dt = 0.5;
  std::vector<b::LangevinBodyState> bodies(n);
  for (int i = 0; i < n; ++i) {
    const double x[3] = {0, 0, 1e6}, e[3] = {1e-3 * i, 0.2, 0.3}, z[3] = {0, 0, 0};
    bodies[i] = b::langevin_initial_state(x, e, z, z);
  }
  long first = 0;
  for (auto _ : state) {
    b::langevin_batch_advance(backend, p, series, bodies, first, 1e-3, 100, 7);
    first += 100;
  }
  state.counters["body_steps_per_s"] =
      benchmark::Counter(double(n) * 100 * state.iterations(), benchmark::Counter::kIsRate);
}

}  // namespace

int main(int argc, char** argv) {
  immerse::bench::Options options;
  options.with_stream = false;  // nothing here is memory-bound
  options.register_benchmarks = [] {
    for (auto [prefix, model] : {std::pair{"added_mass/host/", b::SourceModel::green},
                                 std::pair{"added_mass_panels/host/", b::SourceModel::panels}})
      for (int s : {2, 3})
        benchmark::RegisterBenchmark((prefix + std::to_string(20 << (2 * s))).c_str(), added_mass, s, model)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond);
    for (Backend be : immerse::enabled_backends())
      for (int nz : {8, 16})
        benchmark::RegisterBenchmark(
            ("turbulence_precompute/" + immerse::to_string(be) + "/32x32x" + std::to_string(nz)).c_str(), turbulence,
            be, nz)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond);
    // Table 1 (paper, i7 3.2 GHz): ellipsoid 1 (320 faces) at dt 1/5/10 ms, ellipsoid 2 (1280, 5 ms),
    // paper (1024 faces), paper airplane (288 faces). Bodies as in the canned cases.
    const std::vector<Row> rows = {{"ellipsoid1_320", "ellipsoid", 0.01, 0.02, 0.04, 0, 1200, 1000, 320, 1, 1.59},
                                   {"ellipsoid1_320", "ellipsoid", 0.01, 0.02, 0.04, 0, 1200, 1000, 320, 5, 1.63},
                                   {"ellipsoid1_320", "ellipsoid", 0.01, 0.02, 0.04, 0, 1200, 1000, 320, 10, 1.65},
                                   {"ellipsoid2_1280", "ellipsoid", 0.01, 0.02, 0.04, 0, 1200, 1000, 1280, 5, 1.71},
                                   {"paper_1024", "elliptic_plate", 0.04, 0.01, 0, 1e-4, 800, 1.2, 1024, 5, 1.73},
                                   {"airplane_288", "paper_airplane", 0.083, 0, 0, 2e-4, 800, 1.2, 288, 5, 1.86}};
    for (const Row& r : rows)
      for (bool mirrors : {true, false})
        if (r.thickness > 0 && r.dt_ms == 5)
          benchmark::RegisterBenchmark(("added_mass_body/host/" + r.name + (mirrors ? "" : "/whole")).c_str(),
                                       added_mass_body, r, mirrors)
              ->UseRealTime()
              ->MeasureProcessCPUTime()
              ->Unit(benchmark::kMillisecond);
    for (const Row& r : rows)
      benchmark::RegisterBenchmark(("table1_step/" + r.name + "/dt" + std::to_string(int(r.dt_ms)) + "ms").c_str(),
                                   table1_step, r)
          ->Unit(benchmark::kMicrosecond);
    for (Backend be : immerse::enabled_backends())
      for (int n : {1000, 100000})
        benchmark::RegisterBenchmark(("langevin_batch/" + immerse::to_string(be) + "/" + std::to_string(n)).c_str(),
                                     batch, be, n)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
  };
  return immerse::bench::run(argc, argv, options);
}
