// The two registrations of each solver family agree: what a case file may say (solver_keys.cpp)
// and what runs it (solver_registry.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "immerse/cases/simulation.hpp"
#include "immerse/cases/solver_keys.hpp"

namespace immerse::cases {
namespace {

TEST(SolverRegistry, EveryFamilyWithKeysHasARunnerAndBackAgain) {
  std::vector<std::string> keyed, run;
  for (const auto& k : solver_keys()) keyed.push_back(k.name);
  for (const auto& e : solver_registry()) run.push_back(e.name);
  EXPECT_EQ(keyed, run);
}

TEST(SolverRegistry, SceneFactoriesNameScenesTheKeysDeclare) {
  for (const auto& e : solver_registry()) {
    const auto k =
        std::find_if(solver_keys().begin(), solver_keys().end(), [&](const SolverKeys& s) { return s.name == e.name; });
    ASSERT_NE(k, solver_keys().end()) << e.name;
    EXPECT_TRUE(e.make) << e.name;
    for (const auto& s : e.scenes)
      EXPECT_NE(std::find(k->scenes.begin(), k->scenes.end(), s.name), k->scenes.end())
          << e.name << ": scene '" << s.name << "' has a factory but is not among the family's keys";
  }
}

}  // namespace
}  // namespace immerse::cases
