#pragma once
// Wall-clock time per named phase. Each phase is also a Kokkos profiling region, so Kokkos Tools
// (kp_space_time_stack, nsys through the NVTX connector) see the same phases as result.json.
// Callers fence the device before a phase ends where the work is asynchronous (Kokkos::fence), so
// the phase times are real.
#include <chrono>
#include <map>
#include <string>

namespace immerse {

class PhaseTimer {
 public:
  class Scope {
   public:
    Scope(PhaseTimer& t, std::string name);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimer& t_;
    std::string name_;
    std::chrono::steady_clock::time_point start_;
  };
  Scope scope(std::string name) { return Scope(*this, std::move(name)); }
  void add(const std::string& name, double seconds) { total_s_[name] += seconds; }
  const std::map<std::string, double>& totals_s() const { return total_s_; }

 private:
  std::map<std::string, double> total_s_;
};

}  // namespace immerse
