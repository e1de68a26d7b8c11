// Shared main of the benchmark programs: versions, STREAM kernels, summary (see bench_main.hpp).
#include "bench_main.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "immerse/core/backend.hpp"
#include "immerse/core/bandwidth_patterns.hpp"
#include "immerse/core/large_view.hpp"
#include "immerse/core/versions.hpp"

namespace immerse::bench {
namespace {

// Doubles per bandwidth array: at least 2^25 (256 MiB) and twice the last-level cache the system
// reports, so that a sweep streams from memory; at most 2^26 (512 MiB: a VM may report its host's
// whole L3, 508 MiB here for 2 cores, where the in-place row read 95-107 GB/s with 256 MiB arrays and
// 65-104 GB/s with 2 GiB ones, the same within the VM's bandwidth jumps) and an eighth of the
// available memory (three arrays for the triad).
std::int64_t stream_length() {
  static const std::int64_t n = [] {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    std::int64_t len = std::max<std::int64_t>(std::int64_t(1) << 25, l3 > 0 ? 2 * std::int64_t(l3) / 8 : 0);
    len = std::min<std::int64_t>(len, std::int64_t(1) << 26);
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) len = std::min<std::int64_t>(len, std::int64_t(pages) * page / 8 / 8);
    return len;
  }();
  return n;
}

// --- STREAM kernels, written once over the execution space ---------------------------------------

// The bandwidth rows' arrays, allocated once per backend and reused by every row and every call
// Google Benchmark makes (allocating and first-touching 3 GiB per call cost more than the rows
// themselves); a row of another backend frees them first. The zero fill runs on Exec: first touch
// by the threads that use the arrays.
std::function<void()> g_release_stream_arrays;

template <class Exec>
struct StreamArrays {
  using view = Kokkos::View<double*, Kokkos::Device<Exec, typename Exec::memory_space>>;
  view a, b, c;
  // The arrays of this backend, the first `arrays` of a, b, c allocated (the in-place row needs one).
  static StreamArrays& get(int arrays) {
    static std::unique_ptr<StreamArrays> held;
    if (!held) {
      if (g_release_stream_arrays) g_release_stream_arrays();
      held = std::make_unique<StreamArrays>();
      g_release_stream_arrays = [] { held.reset(); };
    }
    StreamArrays& x = *held;
    const std::int64_t n = stream_length();
    // On huge pages where the host offers them, as the lattices of the kernel rows (large_view).
    if (arrays >= 1 && x.a.extent(0) == 0) x.a = large_view<view>("stream_a", n);
    if (arrays >= 2 && x.b.extent(0) == 0) {
      x.b = large_view<view>("stream_b", n);
      Kokkos::deep_copy(Exec(), x.b, 2.0);
    }
    if (arrays >= 3 && x.c.extent(0) == 0) {
      x.c = large_view<view>("stream_c", n);
      Kokkos::deep_copy(Exec(), x.c, 0.5);
    }
    Exec().fence();
    return x;
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

// `times` sweeps of a STREAM kernel over the arrays, then a fence.
template <class Exec, class Kernel>
void sweep(const char* label, const Kernel& k, int times = 1) {
  const Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>> range(0, stream_length());
  for (int t = 0; t < times; ++t) Kokkos::parallel_for(label, range, k);
  Exec().fence();
}

// Times one STREAM kernel over the arrays; `arrays` is how many it touches (STREAM's byte count,
// without write-allocate).
template <class Exec, class Kernel>
void time_stream(benchmark::State& state, const char* label, const Kernel& k, int arrays) {
  sweep<Exec>(label, k);  // warm-up
  for (auto _ : state) sweep<Exec>(label, k);
  state.SetBytesProcessed(std::int64_t(arrays) * 8 * stream_length() * state.iterations());
}

template <class View>
struct InPlace {  // the AA pattern's traffic: read an array and write it back, no second array
  View a;
  double s, t;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { a(i) = s * a(i) + t; }
};

// The share of the machine's CPU time that other processes used since this program started (%),
// from /proc/stat and /proc/self/stat; negative where they cannot be read.
struct CpuTimes {
  double busy = -1, total = -1, self = -1;  // clock ticks
  static CpuTimes now() {
    CpuTimes t;
    std::ifstream stat("/proc/stat");
    std::string cpu;
    double user, nice, system, idle, iowait, irq, softirq, steal;
    if (stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal && cpu == "cpu") {
      t.busy = user + nice + system + irq + softirq + steal;
      t.total = t.busy + idle + iowait;
    }
    std::ifstream self("/proc/self/stat");
    std::string line;
    if (std::getline(self, line)) {
      // Fields after the command name (in parentheses, which may hold spaces): utime and stime are
      // the 12th and 13th after it.
      std::istringstream rest(line.substr(line.rfind(')') + 2));
      std::string field;
      double utime = 0, stime = 0;
      for (int i = 1; i <= 13 && rest >> field; ++i) {
        if (i == 12) utime = std::stod(field);
        if (i == 13) stime = std::stod(field);
      }
      t.self = utime + stime;
    }
    return t;
  }
};
CpuTimes g_start;

double others_cpu_percent() {
  const CpuTimes t = CpuTimes::now();
  const double total = t.total - g_start.total;
  if (g_start.total < 0 || t.self < 0 || total <= 0) return -1;
  return 100 * std::max(0.0, (t.busy - g_start.busy) - (t.self - g_start.self)) / total;
}

double load_average_1m() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return load;
}

// Every bandwidth row also records how busy the machine was: the report flags a table measured
// beside other work (reports/src/benchmark_table.cpp).
void record_machine(benchmark::State& state) {
  const double others = others_cpu_percent();
  if (others >= 0) state.counters["others_cpu_pct"] = others;
  const double load = load_average_1m();
  if (load >= 0) state.counters["loadavg_1m"] = load;
}

// --- the cores' arithmetic rate, written once over the execution space ----------------------------

// A memory-bound kernel follows the bandwidth rows; a compute-bound one (fp16s at 256^3 on a CPU,
// whose conversions and collision fill the vector pipes) is slowed by other work on its cores,
// which the bandwidth rows may not show: with two competing processes started mid-run the core_fma
// rate fell by a third while the in-place row held. The core_fma rows measure the vector pipes
// alone: kCoreChains independent multiply-add chains per work item, in registers (on AVX-512: 8
// vectors, enough to keep two FMA pipes busy at a latency of 4), one work item per thread of the
// space. They do not catch every slowdown of a larger kernel (shared caches, the front end): on this
// project's VM the fp16s line kernel ran 30-40 % slower in cache for a while as this rate held
// within 5 %; bench_lbm3d's collide_paired times the kernels in cache for that.
constexpr int kCoreChains = 128;
constexpr double kCoreFlopsPerSweep = 2e9;

template <class Exec>
struct CoreFma {
  Kokkos::View<float*, typename Exec::memory_space> out;
  int reps;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    float acc[kCoreChains];
    for (int c = 0; c < kCoreChains; ++c) acc[c] = 1e-3f * float(c + i);
    for (int r = 0; r < reps; ++r)
      for (int c = 0; c < kCoreChains; ++c) acc[c] = acc[c] * 0.999999f + 1e-7f;
    float sum = 0;
    for (int c = 0; c < kCoreChains; ++c) sum += acc[c];
    out(i) = sum;  // used: the chains cannot be dropped
  }
  static CoreFma make() {
    const int items = Exec().concurrency();
    const double reps = kCoreFlopsPerSweep / (2.0 * kCoreChains * items);
    return {Kokkos::View<float*, typename Exec::memory_space>("core_fma", items), std::max(1, int(reps))};
  }
  double flops() const { return 2.0 * kCoreChains * double(reps) * double(out.extent(0)); }
  void sweep() const {
    Kokkos::parallel_for("bench::core_fma", Kokkos::RangePolicy<Exec>(0, int(out.extent(0))), *this);
    Exec().fence();
  }
};

template <class Exec>
void core_fma(benchmark::State& state) {
  const auto k = CoreFma<Exec>::make();
  k.sweep();  // warm-up
  for (auto _ : state) k.sweep();
  state.counters["flops_per_s"] =
      benchmark::Counter(k.flops() * double(state.iterations()), benchmark::Counter::kIsRate);
  record_machine(state);
}

template <class Exec>
void stream_copy(benchmark::State& state) {
  auto& x = StreamArrays<Exec>::get(2);
  time_stream<Exec>(state, "bench::stream_copy", Copy<typename StreamArrays<Exec>::view>{x.a, x.b}, 2);
  record_machine(state);
}

// The bytes of stream_copy through the runtime's own copy (Kokkos::deep_copy: cudaMemcpy on a GPU,
// memcpy on the host): a ceiling that does not depend on how Kokkos launches a range. On the H200 of
// 2026-11-29 stream_copy moved 1.52 TiB/s and this 3.60 TiB/s.
template <class Exec>
void stream_memcpy(benchmark::State& state) {
  auto& x = StreamArrays<Exec>::get(2);
  Kokkos::deep_copy(Exec(), x.a, x.b);  // warm-up
  Exec().fence();
  for (auto _ : state) {
    Kokkos::deep_copy(Exec(), x.a, x.b);
    Exec().fence();
  }
  state.SetBytesProcessed(2 * 8 * stream_length() * state.iterations());
  record_machine(state);
}

template <class Exec>
void stream_triad(benchmark::State& state) {
  auto& x = StreamArrays<Exec>::get(3);
  time_stream<Exec>(state, "bench::stream_triad", Triad<typename StreamArrays<Exec>::view>{x.a, x.b, x.c, 3.0}, 3);
  record_machine(state);
}

template <class Exec>
void stream_inplace(benchmark::State& state) {
  auto& x = StreamArrays<Exec>::get(1);
  // s * a + t with s = 1 and t = 0 keeps the values (no overflow over many iterations); the
  // compiler cannot know that, so the read and the write both happen.
  time_stream<Exec>(state, "bench::stream_inplace", InPlace<typename StreamArrays<Exec>::view>{x.a, 1.0, 0.0}, 2);
  record_machine(state);
}

// Registers the machine's rows (bandwidth, core_fma) of every enabled backend: name/<backend> + suffix.
void register_machine_rows(const std::vector<std::string>& kernels, const std::string& suffix) {
  for (Backend b : immerse::enabled_backends()) {
    const std::string backend = immerse::to_string(b);
    immerse::with_backend(b, [&](auto tag) {
      using Exec = typename decltype(tag)::execution_space;
      for (const std::string& kernel : kernels) {
        void (*f)(benchmark::State&) = kernel == "stream_copy"     ? stream_copy<Exec>
                                       : kernel == "stream_memcpy" ? stream_memcpy<Exec>
                                       : kernel == "stream_triad"  ? stream_triad<Exec>
                                       : kernel == "core_fma"      ? core_fma<Exec>
                                                                   : stream_inplace<Exec>;
        benchmark::RegisterBenchmark((kernel + "/" + backend + suffix).c_str(), f)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
      return 0;
    });
  }
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
      if (!r.report_label.empty()) label[name] = r.report_label;
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
  std::map<std::string, std::string> label;  // the memory pattern a kernel declares (SetLabel)

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

double core_flops(immerse::Backend backend) {
  return immerse::with_backend(backend, [](auto tag) {
    const auto k = CoreFma<typename decltype(tag)::execution_space>::make();
    k.sweep();  // warm-up
    const auto t0 = std::chrono::steady_clock::now();
    k.sweep();
    return k.flops() / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
}

double inplace_bandwidth(immerse::Backend backend, int passes) {
  return immerse::with_backend(backend, [passes](auto tag) {
    using Exec = typename decltype(tag)::execution_space;
    const InPlace<typename StreamArrays<Exec>::view> k{StreamArrays<Exec>::get(1).a, 1.0, 0.0};
    sweep<Exec>("bench::stream_inplace", k);  // warm-up
    const auto t0 = std::chrono::steady_clock::now();
    sweep<Exec>("bench::stream_inplace", k, passes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return 2.0 * 8 * stream_length() * passes / s;
  });
}

void release_stream_arrays() {
  if (g_release_stream_arrays) g_release_stream_arrays();
}

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
  benchmark::AddCustomContext("stream_array_mib", std::to_string(stream_length() * 8 >> 20));

  // Benchmarks run in the order registered: the in-place bandwidth and the cores' rate before the
  // program's kernels, every pattern and the cores' rate again after them, so the report can tell a
  // table whose machine changed during the run.
  g_start = CpuTimes::now();
  if (options.with_stream) register_machine_rows({"stream_inplace", "core_fma"}, "/before");
  if (options.register_benchmarks) options.register_benchmarks();
  if (options.with_stream)
    register_machine_rows({"stream_copy", "stream_memcpy", "stream_triad", "stream_inplace", "core_fma"}, "");

  RecordingReporter reporter(make_display_reporter(format));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  release_stream_arrays();  // Views die before Kokkos is finalised

  // Summary: each named kernel against the bandwidth of the pattern it declares (its label: copy,
  // inplace; none: triad) on its own backend, the best of the rows that bound it (bandwidth_row_bounds:
  // the pattern's own, before and after, and the runtime's copy for copy and in-place). GB/s
  // here are 1e9 B/s (STREAM's unit); the console table's "G/s" are 2^30 B/s.
  auto backend_of = [](const std::string& name) {
    const auto a = name.find('/'), b = name.find('/', a + 1);
    return a == std::string::npos ? std::string() : name.substr(a + 1, b - a - 1);
  };
  char line[512];
  for (const std::string& kernel : options.summary_kernels) {
    const auto it = reporter.bytes_per_second.find(kernel);
    const auto lab = reporter.label.find(kernel);
    const std::string pattern = lab == reporter.label.end() ? "triad" : lab->second;
    const std::string row = "stream_" + pattern + "/" + backend_of(kernel);
    double ceiling = 0;
    for (const char* p : {"copy", "inplace", "triad", "memcpy"}) {
      if (!bandwidth_row_bounds(p, pattern)) continue;
      const std::string r = std::string("stream_") + p + "/" + backend_of(kernel);
      for (const std::string& measured : {r, r + "/before"})
        if (reporter.bytes_per_second.count(measured))
          ceiling = std::max(ceiling, reporter.bytes_per_second.at(measured));
    }
    if (it == reporter.bytes_per_second.end() || ceiling <= 0)
      std::snprintf(line, sizeof line, "summary: %s not run (or %s not measured)", kernel.c_str(), row.c_str());
    else
      std::snprintf(line, sizeof line, "summary: %s GBps=%.2f ratio_to_%s=%.3f (%s %.2f GBps)", kernel.c_str(),
                    it->second * 1e-9, pattern.c_str(), it->second / ceiling, row.c_str(), ceiling * 1e-9);
    info << line << "\n";
  }
  info << std::flush;
  return 0;
}

}  // namespace immerse::bench
