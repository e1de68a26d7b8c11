#include "immerse/core/interrupt.hpp"

#include <unistd.h>
#include <csignal>
#include <cstdlib>

namespace immerse {
namespace {
volatile std::sig_atomic_t g_interrupts = 0;

extern "C" void on_sigint(int) {
  g_interrupts = g_interrupts + 1;
  if (g_interrupts > 1) _exit(130);
  const char msg[] = "\ninterrupt: finishing the current step and writing results (interrupt again to abort)\n";
  [[maybe_unused]] auto n = write(2, msg, sizeof(msg) - 1);
}
}  // namespace

// SIGTERM (a batch system's stop, `kill`) is handled as Ctrl-C: finish the step, write everything.
void install_interrupt_handler() {
  std::signal(SIGINT, on_sigint);
  std::signal(SIGTERM, on_sigint);
}
bool interrupted() { return g_interrupts > 0; }
void clear_interrupt() { g_interrupts = 0; }

}  // namespace immerse
