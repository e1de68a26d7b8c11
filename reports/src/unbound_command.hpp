#pragma once
// Run a shell command from a process whose OpenMP threads are pinned (OMP_PROC_BIND=spread binds
// the calling thread to one core) without passing that pin on: a child inherits its parent thread's
// CPU mask, so a benchmark or an `immerse run` started by std::system would see a single core and
// its OpenMP backend would run one thread.
#include <string>

namespace immerse::reports {

// std::system(command) with the calling thread's CPU mask widened to every CPU for the fork (the
// kernel keeps it within the process's cpuset), then restored. Returns std::system's status.
int run_unbound(const std::string& command);

}  // namespace immerse::reports
