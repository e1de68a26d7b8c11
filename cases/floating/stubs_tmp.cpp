#include "float_simulation.hpp"
namespace immerse::cases {
std::unique_ptr<Simulation> make_sailboat(const json& r, const std::string& s, const RunOptions& o) { return std::make_unique<FloatSimulation>(r, s, o); }
std::unique_ptr<Simulation> make_motorboat(const json& r, const std::string& s, const RunOptions& o) { return std::make_unique<FloatSimulation>(r, s, o); }
}
