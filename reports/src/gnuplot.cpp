#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "immerse/reports/report.hpp"

namespace immerse::reports {

bool run_gnuplot(const std::string& dir, const std::string& script_name, const std::string& script) {
  const std::string path = (std::filesystem::path(dir) / script_name).string();
  std::ofstream(path) << script;
  const std::string cmd = fmt::format("cd '{}' && gnuplot '{}' 2>gnuplot.log", dir, script_name);
  if (std::system(cmd.c_str()) != 0) {
    fmt::print(stderr, "report: gnuplot failed on {} (see {}/gnuplot.log); the plot is missing\n", path, dir);
    return false;
  }
  return true;
}

}  // namespace immerse::reports
