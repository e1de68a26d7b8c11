#include "immerse/lbm3d/lbm_params.hpp"

#include <fmt/format.h>

#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/core/expression.hpp"

namespace immerse::lbm3d {
const Choices<Border>& border_choices() {
  static const Choices<Border> c{{"periodic", Border::periodic},
                                 {"outflow", Border::outflow},
                                 {"bounce_back", Border::bounce_back},
                                 {"velocity", Border::velocity}};
  return c;
}

const Choices<Pattern>& pattern_choices() {
  static const Choices<Pattern> c{{"aa", Pattern::aa}, {"pull", Pattern::pull}};
  return c;
}

const Choices<Storage>& storage_choices() {
  static const Choices<Storage> c{
      {"fp32", Storage::fp32}, {"fp64", Storage::fp64}, {"fp16s", Storage::fp16s}, {"fp16c", Storage::fp16c}};
  return c;
}

std::string storage_name(const LbmParams& p) { return storage_choices().name(p.storage); }

int population_bytes(const Storage s) { return s == Storage::fp64 ? 8 : s == Storage::fp32 ? 4 : 2; }

const Choices<bool>& stores_choices() {
  static const Choices<bool> c{{"cached", false}, {"streaming", true}};
  return c;
}

const Choices<BodyBoundary>& body_boundary_choices() {
  static const Choices<BodyBoundary> c{
      {"ladd", BodyBoundary::ladd}, {"paper", BodyBoundary::paper}, {"paper_literal", BodyBoundary::paper_literal}};
  return c;
}

std::string to_string(Border b) { return border_choices().name(b); }
std::string to_string(Pattern p) { return pattern_choices().name(p); }

Schema& add_storage_keys(Schema& lattice) {
  return lattice.renamed("precision", "storage")
      .choice("storage", "fp32", storage_choices().names(),
              "how the populations are stored: fp32 or fp64 as computed; fp16s (IEEE binary16) or fp16c "
              "(FluidX3D's 16-bit format: one bit more precision, deviations below 2 rho0) of the deviation from "
              "the rest equilibrium, computed in float")
      .choice("pattern", "aa", pattern_choices().names(),
              "population storage: 'aa' = one buffer, collide and stream in place in two alternating steps; "
              "'pull' = two buffers. Same results, moving bodies included (docs/jellyfish.md); 'aa' is faster on CPUs "
              "(bench_lbm3d)");
}

Schema lbm_schema() {
  Schema lattice;
  lattice.integer("nx", 32, 2, 4096, "cells along x")
      .integer("ny", 32, 2, 4096, "cells along y")
      .integer("nz", 32, 2, 4096, "cells along z");
  add_storage_keys(lattice).choice(
      "stores", "cached", stores_choices().names(),
      "how the CPU kernel writes populations: 'streaming' (non-temporal) stores skip reading the "
      "destination first but bypass the caches (whether that pays depends on the machine: compare with "
      "bench_lbm3d). Results are the same; only the speed differs. Pull pattern only");
  Schema time;
  time.integer("steps", 1000, 0, 1e10, "number of lattice steps");
  Schema physics;
  physics.number("tau", 0.8, 0.5, 20, "", "BGK relaxation time (stable range (0.5, 20]); nu = (tau - 1/2)/3")
      .number("viscosity", 0, 0, 6.5, "cell^2/step", "lattice viscosity; when > 0 it sets tau = 3 nu + 1/2")
      .number("rho0", 1, 1e-6, 1e6, "", "reference density (outflow/inlet fictitious cells)")
      .vector("force", json::array({0, 0, 0}), 3, -1, 1, "rho0 cell/step^2",
              "body force per unit volume (Guo forcing)");
  Schema borders;
  for (const char* f : kFaceNames)
    borders.choice(f, "periodic", border_choices().names(), std::string("lattice border at ") + f);
  borders.vector("inlet_velocity", json::array({0, 0, 0}), 3, -0.3, 0.3, "cell/step", "velocity of 'velocity' faces");
  Schema initial;
  initial.expression("rho", "1", "initial density, formula of the cell centre x, y, z (lattice units)")
      .expression("ux", "0", "initial x velocity, formula of x, y, z")
      .expression("uy", "0", "initial y velocity, formula of x, y, z")
      .expression("uz", "0", "initial z velocity, formula of x, y, z");
  Schema analysis;
  analysis
      .number("decay_wavelength", 0, 0, 1e6, "cells",
              "when > 0: check that the kinetic energy decays as exp(-2 nu k^2 t), k = 2 pi / wavelength")
      .number("decay_tolerance", 0.02, 1e-6, 1, "", "allowed relative error of the measured decay rate");
  Schema s;
  s.object("lattice", lattice, "lattice size and population storage")
      .object("time", time, "time stepping")
      .object("physics", physics, "relaxation, reference density, body force")
      .object("borders", borders, "per-face lattice borders")
      .object("initial", initial, "initial density and velocity (equilibrium populations)")
      .object("analysis", analysis, "optional checks of a generic run");
  return s;
}

LbmParams lbm_params_from_json(const json& r, const std::string& source) {
  LbmParams p;
  p.source = source;
  p.nx = r["lattice"]["nx"];
  p.ny = r["lattice"]["ny"];
  p.nz = r["lattice"]["nz"];
  p.storage = storage_choices().parse(r["lattice"]["storage"], "lattice.storage");
  p.pattern = pattern_choices().parse(r["lattice"]["pattern"], "lattice.pattern");
  p.streaming_stores = stores_choices().parse(r["lattice"]["stores"], "lattice.stores");
  const double nu = r["physics"]["viscosity"];
  p.tau = nu > 0 ? 3 * nu + 0.5 : r["physics"]["tau"].get<double>();
  p.rho0 = r["physics"]["rho0"];
  for (int a = 0; a < 3; ++a) p.force[a] = r["physics"]["force"][a];
  for (int f = 0; f < 6; ++f)
    p.border[f] = border_choices().parse(r["borders"][kFaceNames[f]], std::string("borders.") + kFaceNames[f]);
  for (int a = 0; a < 3; ++a) p.inlet_velocity[a] = r["borders"]["inlet_velocity"][a];
  p.init_rho = r["initial"]["rho"];
  p.init_ux = r["initial"]["ux"];
  p.init_uy = r["initial"]["uy"];
  p.init_uz = r["initial"]["uz"];
  return p;
}

double max_initial_speed(const LbmParams& p) {
  const Expression ux(p.init_ux, p.source + ": key 'initial.ux'"), uy(p.init_uy, p.source + ": key 'initial.uy'"),
      uz(p.init_uz, p.source + ": key 'initial.uz'");
  double vmax = 0;
  for (double a : p.inlet_velocity) vmax = std::max(vmax, std::abs(a));
  // Constant formulas are sampled once; others on every cell.
  const bool varies = ux.uses("x") || ux.uses("y") || ux.uses("z") || uy.uses("x") || uy.uses("y") || uy.uses("z") ||
                      uz.uses("x") || uz.uses("y") || uz.uses("z");
  const int nx = varies ? p.nx : 1, ny = varies ? p.ny : 1, nz = varies ? p.nz : 1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const auto& o = p.block.origin;  // formulas take global cell centres (a block of a split lattice)
        const double x = o[0] + i + 0.5, y = o[1] + j + 0.5, z = o[2] + k + 0.5;
        vmax = std::max(vmax,
                        std::sqrt(ux(x, y, z) * ux(x, y, z) + uy(x, y, z) * uy(x, y, z) + uz(x, y, z) * uz(x, y, z)));
      }
  return vmax;
}

void check_stability(const LbmParams& p) {
  if (!(p.tau > 0.5) || p.tau > 20)
    throw InputError(
        fmt::format("{}: key 'physics.tau': value {:g} outside the stable range (0.5, 20] "
                    "(BGK needs nu = (tau - 1/2)/3 > 0)",
                    p.source, p.tau));
  for (int a = 0; a < 3; ++a) {
    const bool lo = p.border[2 * a] == Border::periodic, hi = p.border[2 * a + 1] == Border::periodic;
    if (lo != hi)
      throw InputError(
          fmt::format("{}: keys 'borders.{}' and 'borders.{}': a periodic border needs its opposite "
                      "face periodic too",
                      p.source, kFaceNames[2 * a], kFaceNames[2 * a + 1]));
  }
  if (p.streaming_stores && p.pattern != Pattern::pull)
    throw InputError(
        fmt::format("{}: key 'lattice.stores': 'streaming' needs 'lattice.pattern' = 'pull' (the 'aa' "
                    "pattern writes where it has just read, so its lines are in cache already)",
                    p.source));
  // Lattice Boltzmann recovers Navier-Stokes for Ma = u / c_s small; beyond u = 0.3 (Ma 0.52) the
  // second-order equilibrium goes negative in places and BGK blows up.
  const double vmax = max_initial_speed(p);
  if (vmax > 0.3)
    throw InputError(
        fmt::format("{}: key 'initial.ux/uy/uz' or 'borders.inlet_velocity': lattice speed {:.4g} "
                    "outside the stable range [0, 0.3] cell/step (Mach <= 0.52)",
                    p.source, vmax));
}

}  // namespace immerse::lbm3d
