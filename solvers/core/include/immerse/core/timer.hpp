#pragma once
// Wall-clock time per named phase. Each phase is also a Kokkos profiling region, so Kokkos Tools
// (kp_space_time_stack, nsys through the NVTX connector) see the same phases as result.json.
// A phase's time is real only if the device has finished its work when the phase ends, and a fence
// in every phase of every step costs on a device. So phase timing is a process-wide switch: on, each
// scope fences every backend when it ends and records its time; off, scopes are profiling regions
// only and record nothing (host backends run their kernels synchronously, so the runner turns it on
// for them; on a device it is on only when asked for, `immerse run --phase-times`).
#include <chrono>
#include <map>
#include <string>

namespace immerse {

void set_phase_timing(bool on);
bool phase_timing();

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
  // A time measured by the caller (work overlapped with a device phase); ignored with timing off.
  void add(const std::string& name, double seconds);
  const std::map<std::string, double>& totals_s() const { return total_s_; }

 private:
  std::map<std::string, double> total_s_;
};

}  // namespace immerse
