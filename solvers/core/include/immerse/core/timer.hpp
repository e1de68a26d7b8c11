#pragma once
// Wall-clock time per named phase. Callers fence the device before stopping a phase where the work
// is asynchronous (Kokkos::fence), so the phase times are real.
#include <chrono>
#include <map>
#include <string>

namespace immerse {

class PhaseTimer {
 public:
  class Scope {
   public:
    Scope(PhaseTimer& t, std::string name) : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
    ~Scope() { t_.add(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()); }

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
