#pragma once
// The throughput table of one Google Benchmark program's JSON output, as `immerse report` prints it
// for every bench_* program: ms per iteration, throughput counters, GB/s and the fraction of the
// STREAM triad that the same program measured on the same backend (the second element of the
// benchmark's name, e.g. collide_stream/openmp/...).
#include <nlohmann/json.hpp>

#include <string>

namespace immerse::reports {

std::string benchmark_table(const std::string& program, const nlohmann::json& out);

}  // namespace immerse::reports
