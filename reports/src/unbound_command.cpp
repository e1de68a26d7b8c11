#include "unbound_command.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/sysinfo.h>

#include <cstdlib>

namespace immerse::reports {

int run_unbound(const std::string& command) {
  cpu_set_t saved, all;
  const bool have_saved = pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0;
  CPU_ZERO(&all);
  for (int c = 0; c < get_nprocs_conf() && c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
  pthread_setaffinity_np(pthread_self(), sizeof all, &all);  // best effort: on failure the child keeps the pin
  const int status = std::system(command.c_str());
  if (have_saved) pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
  return status;
}

}  // namespace immerse::reports
