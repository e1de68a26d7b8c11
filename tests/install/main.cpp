// Runs a 3x3 penalty channel a few steps through the installed immerse::mac2d and prints OK.
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "immerse/core/backend.hpp"
#include "immerse/core/versions.hpp"
#include "immerse/mac2d/penalty_flow.hpp"
#include "immerse/mac2d/stability.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  namespace mac2d = immerse::mac2d;
  mac2d::PenaltyParams p;
  p.nx = p.ny = 3;
  p.dx = p.dy = 1.0 / 3;
  p.Re = 100;
  p.eps = 0.005;
  p.inflow_u = "4*y*(1-y)";
  p.velocity_scale = 1.0;
  p.dt = 0.5 * mac2d::stability_limits(p, p.velocity_scale).dt_max();
  p.source = "install-consumer";

  const immerse::Backend backend = immerse::default_backend();
  auto flow = mac2d::make_penalty_flow(backend, p);
  constexpr int kSteps = 5;
  for (int s = 0; s < kSteps; ++s) flow->step();
  const auto status = flow->status();
  const auto f = flow->fields();
  std::printf("immerse %s, backend %s: %ld steps, t = %g, max speed %g, u(1,2) = %g\n",
              immerse::versions_json().dump().c_str(), immerse::to_string(backend).c_str(), flow->steps_done(),
              flow->time(), status.max_speed, f.u[f.at(1, 2)]);
  if (!status.finite || flow->steps_done() != kSteps || status.max_speed <= 0) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
