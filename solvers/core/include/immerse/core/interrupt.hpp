#pragma once
// Ctrl-C handling: the first SIGINT (or SIGTERM) sets a flag that run loops poll between steps, so a run stops
// after the current step and still writes result.json and its series; a second SIGINT exits at once.
namespace immerse {

void install_interrupt_handler();
bool interrupted();
void clear_interrupt();  // for tests

}  // namespace immerse
