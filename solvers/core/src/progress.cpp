#include "immerse/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace immerse {

Progress::Progress(std::string label, long total, bool quiet)
    : label_(std::move(label)),
      total_(total > 0 ? total : 1),
      quiet_(quiet),
      tty_(isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::update(long done) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double frac = static_cast<double>(done) / total_;
  const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
  if (tty_) {
    if (now - last_draw_ < std::chrono::milliseconds(100) && done < total_) return;
    last_draw_ = now;
    const int width = 30, filled = static_cast<int>(frac * width);
    fmt::print(stderr, "\r{} [{}{}] {:3.0f}% {}/{} ETA {:.1f}s ", label_, std::string(filled, '#'),
               std::string(width - filled, '.'), 100 * frac, done, total_, eta);
    std::fflush(stderr);
  } else {
    const int decile = static_cast<int>(10 * frac);
    if (decile <= last_decile_) return;
    last_decile_ = decile;
    fmt::print(stderr, "{}: {:3d}% ({}/{} steps, {:.1f}s elapsed, ETA {:.1f}s)\n", label_, 10 * decile, done, total_,
               elapsed, eta);
  }
}

void Progress::finish() {
  if (!quiet_ && tty_) fmt::print(stderr, "\n");
}

}  // namespace immerse
