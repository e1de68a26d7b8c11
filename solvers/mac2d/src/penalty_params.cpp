#include "immerse/mac2d/penalty_params.hpp"

#include "immerse/core/choices.hpp"
#include "immerse/core/error.hpp"

namespace immerse::mac2d {
namespace {

const Choices<BoundaryMode> kModes{{"physical", BoundaryMode::physical}, {"patent", BoundaryMode::patent}};
const Choices<ObstacleShape> kObstacleShapes{
    {"circle", ObstacleShape::circle}, {"ellipse", ObstacleShape::ellipse}, {"rectangle", ObstacleShape::rectangle}};
const Choices<Side> kSides{
    {"inflow", Side::inflow}, {"outflow", Side::outflow}, {"noslip", Side::noslip}, {"slip", Side::slip}};

}  // namespace

Schema penalty_schema() {
  Schema grid;
  grid.integer("nx", 64, 3, 16384, "interior cells along x")
      .integer("ny", 16, 3, 16384, "interior cells along y")
      .number("dx", 1.0 / 16, 1e-9, 1e9, "L", "cell width")
      .number("dy", 1.0 / 16, 1e-9, 1e9, "L", "cell height");
  Schema time;
  time.number("dt", 1e-4, 1e-15, 1e6, "L/V", "time step (checked against the explicit stability limits)")
      .integer("steps", 1000, 0, 1e10, "number of time steps");
  Schema physics;
  physics.number("Re", 100, 1e-6, 1e9, "", "Reynolds number VL/nu")
      .number("eps", 0.005, 1e-12, 0.999999, "", "penalty parameter of eps p + div v = 0 (patent: 0 < eps < 1)");
  Schema bc;
  bc.choice("mode", "physical", kModes.names(),
            "physical: prescribed inflow, walls, zero-gradient outflow; patent: the printed table's exact behaviour")
      .choice("left", "inflow", kSides.names({Side::inflow, Side::noslip, Side::slip}), "x = 0 side")
      .choice("right", "outflow", kSides.names({Side::outflow, Side::noslip, Side::slip}), "x = nx dx side")
      .choice("bottom", "noslip", kSides.names({Side::noslip, Side::slip}), "y = 0 wall")
      .choice("top", "noslip", kSides.names({Side::noslip, Side::slip}), "y = ny dy wall")
      .expression("inflow_u", "0", "u on the inflow face, formula of y and t")
      .number("bottom_wall_u", 0, -1e6, 1e6, "V", "tangential velocity of the bottom wall")
      .number("top_wall_u", 0, -1e6, 1e6, "V", "tangential velocity of the top wall (lid-driven cavity)");
  Schema initial;
  initial.expression("u", "0", "initial u, formula of x and y").expression("v", "0", "initial v, formula of x and y");
  Schema obstacle;
  obstacle.choice("shape", "circle", kObstacleShapes.names(), "outline")
      .string("name", "", "label")
      .expression("x", "0", "centre x, formula of t (constant for a fixed post)")
      .expression("y", "0", "centre y, formula of t")
      .number("a", 0.1, 1e-9, 1e9, "L", "radius (circle), semi-axis or half-length along the shape's x")
      .number("b", 0.1, 1e-9, 1e9, "L", "semi-axis or half-width along the shape's y (ignored by circles)")
      .number("angle_deg", 0, -360, 360, "deg", "rotation of the shape");
  Schema dye;
  dye.vector("source", json::array({0.1, 0.5}), 2, -1e9, 1e9, "L", "centre of the source disc held at concentration 1")
      .number("radius", 0.05, 1e-9, 1e9, "L", "source disc radius")
      .vector("rgb", json::array({1, 0, 0}), 3, 0, 1, "", "display colour");
  Schema seed;
  seed.vector("at", json(), 2, -1e9, 1e9, "L", "release point");
  Schema streak;
  streak.list("seeds", seed, "release points of streaklines")
      .integer("release_every", 10, 1, 1e9, "steps between releases")
      .integer("capacity", 20000, 1, 1e8, "particles kept (oldest replaced first)");
  Schema stab;
  stab.integer("transport_every", 0, 0, 1e9,
               "steps between dye/streakline updates, each over that many dt (0: the largest keeping their Courant "
               "number <= 0.25 at velocity_scale)");
  stab.number("velocity_scale", 0, 0, 1e9, "V",
              "largest expected speed for the advective limits (0: from inflow, walls and initial field)");

  Schema s;
  s.object("grid", grid, "grid")
      .object("time", time, "time stepping")
      .object("physics", physics, "physics")
      .object("boundaries", bc, "external boundaries")
      .object("initial", initial, "initial velocity")
      .list("obstacles", obstacle, "internal obstacles: posts, islands, boats (moving ones: x, y formulas of t)")
      .list("dyes", dye, "advected colour fields (blended for display)")
      .object("streaklines", streak, "dye particles released at fixed points")
      .object("stability", stab, "stability checks");
  return s;
}

PenaltyParams penalty_params_from_json(const json& r, const std::string& source) {
  PenaltyParams p;
  p.source = source;
  p.nx = r["grid"]["nx"];
  p.ny = r["grid"]["ny"];
  p.dx = r["grid"]["dx"];
  p.dy = r["grid"]["dy"];
  p.dt = r["time"]["dt"];
  p.Re = r["physics"]["Re"];
  p.eps = r["physics"]["eps"];
  const auto& bc = r["boundaries"];
  p.mode = kModes.parse(bc["mode"], "boundaries.mode");
  p.left = kSides.parse(bc["left"], "boundaries.left");
  p.right = kSides.parse(bc["right"], "boundaries.right");
  p.bottom = kSides.parse(bc["bottom"], "boundaries.bottom");
  p.top = kSides.parse(bc["top"], "boundaries.top");
  p.inflow_u = bc["inflow_u"];
  p.bottom_wall_u = bc["bottom_wall_u"];
  p.top_wall_u = bc["top_wall_u"];
  p.initial_u = r["initial"]["u"];
  p.initial_v = r["initial"]["v"];
  for (const auto& o : r["obstacles"]) {
    ObstacleSpec s;
    s.shape = kObstacleShapes.parse(o["shape"], "obstacles[].shape");
    s.name = o["name"];
    s.x = o["x"];
    s.y = o["y"];
    s.a = o["a"];
    s.b = o["b"];
    s.angle_deg = o["angle_deg"];
    p.obstacles.push_back(s);
  }
  for (const auto& d : r["dyes"]) {
    DyeSpec s;
    s.x = d["source"][0];
    s.y = d["source"][1];
    s.radius = d["radius"];
    for (int c = 0; c < 3; ++c) s.rgb[c] = d["rgb"][c];
    p.dyes.push_back(s);
  }
  for (const auto& s : r["streaklines"]["seeds"]) p.streak_seeds.emplace_back(s["at"][0], s["at"][1]);
  p.streak_release_every = r["streaklines"]["release_every"];
  p.streak_capacity = r["streaklines"]["capacity"];
  p.velocity_scale = r["stability"]["velocity_scale"];
  p.transport_every = r["stability"]["transport_every"];
  if (p.mode == BoundaryMode::patent &&
      (p.left != Side::inflow || p.right != Side::outflow || p.bottom != Side::noslip || p.top != Side::noslip))
    throw InputError(source +
                     ": key 'boundaries.mode': 'patent' fixes the sides (left inflow, right outflow, "
                     "bottom/top walls); remove the side keys or use mode 'physical'");
  return p;
}

}  // namespace immerse::mac2d
