#pragma once
// Progress of a long run: a bar with ETA when stderr is a terminal, one line per 10% otherwise
// (CI logs). Silent when quiet.
#include <chrono>
#include <string>

namespace immerse {

class Progress {
 public:
  Progress(std::string label, long total, bool quiet);
  void update(long done);
  void finish();

 private:
  std::string label_;
  long total_;
  bool quiet_, tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace immerse
