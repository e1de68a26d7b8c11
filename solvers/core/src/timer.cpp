#include "immerse/core/timer.hpp"

#include <Kokkos_Core.hpp>

namespace immerse {
namespace {
bool g_phase_timing = true;
}

void set_phase_timing(bool on) { g_phase_timing = on; }
bool phase_timing() { return g_phase_timing; }

void PhaseTimer::add(const std::string& name, double seconds) {
  if (g_phase_timing) total_s_[name] += seconds;
}

PhaseTimer::Scope::Scope(PhaseTimer& t, std::string name)
    : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
  Kokkos::Profiling::pushRegion(name_);
}

PhaseTimer::Scope::~Scope() {
  if (g_phase_timing) {
    Kokkos::fence();  // device work is asynchronous: the phase ends when it has run
    t_.total_s_[name_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  Kokkos::Profiling::popRegion();
}

}  // namespace immerse
