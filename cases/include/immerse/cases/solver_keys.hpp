#pragma once
// What a case file may say to each solver family: the "solver" name, the family's keys and its
// scenes. Each family folder defines its entry in keys.cpp (its code that runs a case is in
// registry.cpp). The case library resolves case files against these alone, so a program that only
// reads case files (the case-file fuzz target) links no solver.
#include <functional>
#include <string>
#include <vector>

#include "immerse/core/schema.hpp"

namespace immerse::cases {

struct SolverKeys {
  std::string name;                 // value of the case file's "solver" key
  std::function<Schema()> schema;   // the family's keys (the case library adds the common ones)
  std::vector<std::string> scenes;  // the scenes the family accepts ("generic" first where it has one)
};

const std::vector<SolverKeys>& solver_keys();

}  // namespace immerse::cases
