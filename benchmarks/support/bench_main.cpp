// Shared main of the benchmark programs: versions, STREAM kernels, summary (see bench_main.hpp).
#include "bench_main.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/core/versions.hpp"

namespace immerse::bench {
namespace {

constexpr std::int64_t kStreamLength = std::int64_t(1) << 25;  // 2^25 doubles = 256 MiB per array

// --- STREAM kernels, written once over the execution space ---------------------------------------

template <class Exec>
struct StreamArrays {
  using view = Kokkos::View<double*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  view a, b, c;
  StreamArrays()  // the constructors' zero fill runs on Exec: first touch by the threads that use it
      : a(Kokkos::view_alloc(std::string("stream_a")), kStreamLength),
        b(Kokkos::view_alloc(std::string("stream_b")), kStreamLength),
        c(Kokkos::view_alloc(std::string("stream_c")), kStreamLength) {
    Kokkos::deep_copy(Exec(), b, 2.0);
    Kokkos::deep_copy(Exec(), c, 0.5);
    Exec().fence();
  }
};

template <class View>
struct Copy {
  View a;
  typename View::const_type b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { a(i) = b(i); }
};

template <class View>
struct Triad {
  View a;
  typename View::const_type b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { a(i) = b(i) + s * c(i); }
};

// Times one STREAM kernel over the arrays; `arrays` is how many it touches (STREAM's byte count,
// without write-allocate).
template <class Exec, class Kernel>
void time_stream(benchmark::State& state, const char* label, const Kernel& k, int arrays) {
  const Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>> range(0, kStreamLength);
  Kokkos::parallel_for(label, range, k);  // warm-up
  Exec().fence();
  for (auto _ : state) {
    Kokkos::parallel_for(label, range, k);
    Exec().fence();
  }
  state.SetBytesProcessed(std::int64_t(arrays) * 8 * kStreamLength * state.iterations());
}

template <class Exec>
void stream_copy(benchmark::State& state) {
  StreamArrays<Exec> x;
  time_stream<Exec>(state, "bench::stream_copy", Copy<typename StreamArrays<Exec>::view>{x.a, x.b}, 2);
}

template <class Exec>
void stream_triad(benchmark::State& state) {
  StreamArrays<Exec> x;
  time_stream<Exec>(state, "bench::stream_triad", Triad<typename StreamArrays<Exec>::view>{x.a, x.b, x.c, 3.0}, 3);
}

// --- reporting --------------------------------------------------------------------------------

// Forwards to the reporter --benchmark_format asks for and keeps each run's bytes_per_second, so
// main can print the step/STREAM ratio at the end.
class RecordingReporter : public benchmark::BenchmarkReporter {
 public:
  explicit RecordingReporter(std::unique_ptr<benchmark::BenchmarkReporter> inner) : inner_(std::move(inner)) {}
  bool ReportContext(const Context& context) override { return inner_->ReportContext(context); }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      const auto it = r.counters.find("bytes_per_second");
      if (r.error_occurred || it == r.counters.end()) continue;
      // By registered name (no /real_time suffix). With --benchmark_repetitions the median wins,
      // else the last repetition.
      const std::string& name = r.run_name.function_name;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") {
        bytes_per_second[name] = it->second.value;
        from_median_[name] = true;
      } else if (r.run_type == Run::RT_Iteration && !from_median_[name]) {
        bytes_per_second[name] = it->second.value;
      }
    }
    inner_->ReportRuns(runs);
  }
  void Finalize() override { inner_->Finalize(); }
  std::map<std::string, double> bytes_per_second;

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> inner_;
  std::map<std::string, bool> from_median_;
};

std::string format_flag(int argc, char** argv) {
  std::string format = "console";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i], key = "--benchmark_format=";
    if (a.rfind(key, 0) == 0) format = a.substr(key.size());
  }
  return format;
}

std::unique_ptr<benchmark::BenchmarkReporter> make_display_reporter(const std::string& format) {
  if (format == "json") return std::make_unique<benchmark::JSONReporter>();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // CSVReporter: deprecated, still honoured
  if (format == "csv") return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  return std::make_unique<benchmark::ConsoleReporter>(isatty(fileno(stdout)) ? benchmark::ConsoleReporter::OO_Color
                                                                             : benchmark::ConsoleReporter::OO_None);
}

}  // namespace

int run(int argc, char** argv, const Options& options) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // consumes --kokkos-* options
  const std::string format = format_flag(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  // Versions first (stderr when stdout carries JSON/CSV), and into the JSON context.
  std::ostream& info = format == "console" ? std::cout : std::cerr;
  const auto versions = immerse::versions_json();
  info << "versions: " << versions.dump() << "\n";
  Kokkos::print_configuration(info);
  info << std::flush;
  for (const auto& [key, value] : versions.items()) benchmark::AddCustomContext(key, value.get<std::string>());
  std::string backends;
  for (Backend b : immerse::enabled_backends()) backends += (backends.empty() ? "" : ",") + immerse::to_string(b);
  benchmark::AddCustomContext("backends", backends);
  benchmark::AddCustomContext("kokkos_concurrency", std::to_string(Kokkos::DefaultExecutionSpace().concurrency()));

  if (options.register_benchmarks) options.register_benchmarks();
  if (options.with_stream)
    for (Backend b : immerse::enabled_backends()) {
      const std::string name = immerse::to_string(b);
      immerse::with_backend(b, [&](auto tag) {
        using Exec = typename decltype(tag)::execution_space;
        benchmark::RegisterBenchmark(("stream_copy/" + name).c_str(), stream_copy<Exec>)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("stream_triad/" + name).c_str(), stream_triad<Exec>)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
        return 0;
      });
    }

  RecordingReporter reporter(make_display_reporter(format));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  // Summary: best triad over the backends vs each named kernel. GB/s here are 1e9 B/s (STREAM's
  // unit); the console table's "G/s" are 2^30 B/s.
  std::string best_name;
  double best_triad = 0;
  for (const auto& [name, bps] : reporter.bytes_per_second)
    if (name.rfind("stream_triad/", 0) == 0 && bps > best_triad) {
      best_triad = bps;
      best_name = name;
    }
  char line[512];
  std::snprintf(line, sizeof line, "summary: best_stream_triad_GBps=%.2f (%s)", best_triad * 1e-9,
                best_name.empty() ? "not run" : best_name.c_str());
  info << line << "\n";
  for (const std::string& kernel : options.summary_kernels) {
    const auto it = reporter.bytes_per_second.find(kernel);
    if (it == reporter.bytes_per_second.end() || best_triad <= 0)
      std::snprintf(line, sizeof line, "summary: %s not run", kernel.c_str());
    else
      std::snprintf(line, sizeof line, "summary: %s GBps=%.2f ratio_to_triad=%.3f", kernel.c_str(), it->second * 1e-9,
                    it->second / best_triad);
    info << line << "\n";
  }
  info << std::flush;
  return 0;
}

}  // namespace immerse::bench
