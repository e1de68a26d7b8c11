#include "immerse/core/timer.hpp"

#include <Kokkos_Core.hpp>

namespace immerse {

PhaseTimer::Scope::Scope(PhaseTimer& t, std::string name)
    : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
  Kokkos::Profiling::pushRegion(name_);
}

PhaseTimer::Scope::~Scope() {
  t_.add(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  Kokkos::Profiling::popRegion();
}

}  // namespace immerse
