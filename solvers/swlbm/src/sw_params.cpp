#include "immerse/swlbm/sw_params.hpp"

#include "immerse/core/choices.hpp"
#include "immerse/core/error.hpp"

namespace immerse::swlbm {
namespace {

const Choices<Border> kBorders{{"wall", Border::wall},
                               {"periodic", Border::periodic},
                               {"inflow", Border::inflow},
                               {"outflow", Border::outflow},
                               {"wave", Border::wave}};
const Choices<Storage> kStorage{
    {"fp64", Storage::fp64}, {"fp32", Storage::fp32}, {"fp16s", Storage::fp16s}, {"fp16c", Storage::fp16c}};
const Choices<Collision> kCollision{{"bgk", Collision::bgk}, {"corrected", Collision::corrected}};

}  // namespace

std::string to_string(Storage s) { return kStorage.name(s); }
int population_bytes(const Storage s) { return s == Storage::fp64 ? 8 : s == Storage::fp32 ? 4 : 2; }
std::string to_string(Collision c) { return kCollision.name(c); }

VolumeTolerance volume_roundoff_tolerance(Storage s) {
  switch (s) {
    case Storage::fp32:
      return {1e-5, "lattice.storage fp32: float rounding of the stored deviations, measured <= 2.3e-6"};
    case Storage::fp16s:
      return {5e-4, "lattice.storage fp16s: binary16's unit round-off 2^-11, measured <= 1.1e-4"};
    case Storage::fp16c:
      return {5e-4,
              "lattice.storage fp16c: FP16C's unit round-off 2^-12 (a fixed step below 2^-14 of its scale), "
              "measured <= 1.6e-4"};
    default:
      return {1e-10, "double round-off"};
  }
}

Schema sw_schema() {
  Schema grid;
  grid.integer("nx", 64, 2, 16384, "cells along x")
      .integer("ny", 64, 2, 16384, "cells along y")
      .number("dx", 1.0, 1e-6, 1e6, "m", "cell size (square cells)");
  Schema time;
  time.number("dt", 0.1, 1e-9, 1e6, "s", "time step; the lattice speed is v = dx / dt")
      .integer("steps", 100, 0, 1e10, "number of time steps");
  Schema physics;
  physics.number("g", 9.81, 1e-6, 1e3, "m/s^2", "gravity")
      .number("tau", 0.6, 0.5000001, 100, "", "BGK relaxation time (viscosity (tau - 1/2) v dx / 3)")
      .number("rho", 1000, 1e-3, 1e6, "kg/m^3", "water density (forces on bodies)")
      .choice("collision", "bgk", kCollision.names(),
              "bgk: Zhou's equilibrium as printed; corrected: its second moment corrected so the viscous stress "
              "is nu h (grad u + grad u^T + div u I), with regularized populations: it carries supercritical and "
              "transcritical flow");
  Schema initial;
  initial.expression("h", "1", "initial depth, formula of x, y (m)")
      .expression("u", "0", "initial x velocity, formula of x, y (m/s)")
      .expression("v", "0", "initial y velocity, formula of x, y (m/s)");
  const std::vector<std::string> kinds = kBorders.names();
  Schema wave;
  wave.number("A", 0, 0, 1e4, "m", "wave crest height A of H = A |sin(2 pi (s + c t) / L)|^n")
      .number("L", 10, 1e-6, 1e9, "m", "distance between crests")
      .number("c", 0, -1e4, 1e4, "m/s", "wave speed (0: the shallow-water speed sqrt(g depth))")
      .number("n", 1, 0.1, 100, "", "shape exponent (large n: sharp isolated crests)")
      .number("depth", 1, 1e-6, 1e5, "m", "still depth the crests ride on");
  Schema bc;
  bc.choice("left", "wall", kinds, "x = 0 border")
      .choice("right", "wall", kinds, "x = nx dx border")
      .choice("bottom", "wall", kinds, "y = 0 border")
      .choice("top", "wall", kinds, "y = ny dx border")
      .expression("inflow_h", "1", "depth on inflow borders, formula of x, y, t (m)")
      .expression("inflow_u", "0", "x velocity on inflow borders, formula of x, y, t (m/s)")
      .expression("inflow_v", "0", "y velocity on inflow borders, formula of x, y, t (m/s)")
      .object("wave", wave, "wave maker H(x,t) = A |sin(2 pi (x + c t) / L)|^n (paper eq. 10) on 'wave' borders");
  Schema lattice;
  lattice.choice("storage", "fp64", kStorage.names(),
                 "population storage: fp64 (double); fp32, fp16s (IEEE half) or fp16c (FluidX3D's 16-bit format: one "
                 "bit more precision, deviations below 2 depths): the deviation from the still-water equilibrium at "
                 "the mean initial depth, arithmetic in float");
  Schema stab;
  stab.number("velocity_scale", 0, 0, 1e6, "m/s",
              "largest expected flow speed for the up-front lattice checks (0: from the initial/inflow formulas)")
      .boolean("allow_transcritical", false,
               "run an initial state whose dam break between its deepest and shallowest water turns supercritical "
               "with physics.collision = bgk (refused by default: that lattice stops on such flow)");
  Schema s;
  s.object("grid", grid, "water grid")
      .object("time", time, "time stepping")
      .object("physics", physics, "physics")
      .object("initial", initial, "initial water state")
      .object("boundaries", bc, "borders of the water grid")
      .object("lattice", lattice, "population storage")
      .object("stability", stab, "up-front stability checks");
  return s;
}

SwParams sw_params_from_json(const json& r, const std::string& source) {
  SwParams p;
  p.source = source;
  p.nx = r["grid"]["nx"];
  p.ny = r["grid"]["ny"];
  p.dx = r["grid"]["dx"];
  p.dt = r["time"]["dt"];
  p.steps = r["time"]["steps"];
  p.g = r["physics"]["g"];
  p.tau = r["physics"]["tau"];
  p.collision = kCollision.parse(r["physics"]["collision"], "physics.collision");
  p.initial_h = r["initial"]["h"];
  p.initial_u = r["initial"]["u"];
  p.initial_v = r["initial"]["v"];
  const auto& bc = r["boundaries"];
  p.left = kBorders.parse(bc["left"], "boundaries.left");
  p.right = kBorders.parse(bc["right"], "boundaries.right");
  p.bottom = kBorders.parse(bc["bottom"], "boundaries.bottom");
  p.top = kBorders.parse(bc["top"], "boundaries.top");
  p.inflow_h = bc["inflow_h"];
  p.inflow_u = bc["inflow_u"];
  p.inflow_v = bc["inflow_v"];
  const auto& w = bc["wave"];
  p.wave.A = w["A"];
  p.wave.L = w["L"];
  p.wave.c = w["c"];
  p.wave.n = w["n"];
  p.wave.depth = w["depth"];
  p.storage = kStorage.parse(r["lattice"]["storage"], "lattice.storage");
  p.velocity_scale = r["stability"]["velocity_scale"];
  p.allow_transcritical = r["stability"]["allow_transcritical"];
  if ((p.left == Border::periodic) != (p.right == Border::periodic))
    throw InputError(source + ": keys 'boundaries.left'/'boundaries.right': periodic needs both sides periodic");
  if ((p.bottom == Border::periodic) != (p.top == Border::periodic))
    throw InputError(source + ": keys 'boundaries.bottom'/'boundaries.top': periodic needs both sides periodic");
  return p;
}

}  // namespace immerse::swlbm
