#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "immerse/reports/report.hpp"

namespace immerse::reports {

bool run_gnuplot(const std::string& dir, const std::string& script_name, const std::string& script) {
  const std::string path = (std::filesystem::path(dir) / script_name).string();
  std::ofstream(path) << script;
  // Without gnuplot the scripts stay for later, and one line says so (not one failure per plot).
  static const bool found = std::system("command -v gnuplot > /dev/null 2>&1") == 0;
  if (!found) {
    static bool told = false;
    if (!told)
      fmt::print(stderr,
                 "report: gnuplot not found: the plots are left as .gp scripts in {} (install gnuplot-nox, then "
                 "`immerse report --reuse --dir {}` draws them)\n",
                 dir, dir);
    told = true;
    return false;
  }
  const std::string cmd = fmt::format("cd '{}' && gnuplot '{}' 2>gnuplot.log", dir, script_name);
  if (std::system(cmd.c_str()) != 0) {
    fmt::print(stderr, "report: gnuplot failed on {} (see {}/gnuplot.log); the plot is missing\n", path, dir);
    return false;
  }
  return true;
}

}  // namespace immerse::reports
