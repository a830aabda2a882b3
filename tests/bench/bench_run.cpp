#include "tests/bench/bench_run.h"

#include <filesystem>
#include <fstream>

#include "apps/scenario_run.h"

namespace sharesim {
namespace {

void reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
    status.ignore(1 << 10, '\n');
  }
  return 0;
}

}  // namespace

void run_scenario_bench(benchmark::State& state, const std::string& scenario_text, bool write_outputs) {
  const Scenario scenario = load_scenario_text(scenario_text, "<bench>", GpuCatalog::builtin());
  double peak = 0;
  std::uint64_t events = 0, jobs = 0, requests = 0, request_events = 0;
  for (auto _ : state) {
    reset_peak_rss();
    ScenarioRun run(scenario, GpuCatalog::builtin());
    run.run();
    if (write_outputs) run.write_outputs((std::filesystem::temp_directory_path() / "sharesim-bench-out").string());
    events = run.metrics().events;
    jobs = run.metrics().completed;
    requests = 0;
    request_events = 0;  // a request's arrival and its completion
    for (const ServiceMetrics& service : run.metrics().services) {
      requests += service.arrived;
      request_events += service.arrived + service.latency_s.count;
    }
    peak = std::max(peak, peak_rss_mib());
    benchmark::DoNotOptimize(run.metrics().wait_s.mean);
  }
  const auto per_iteration = [&](std::uint64_t count) {
    return static_cast<double>(count) * static_cast<double>(state.iterations());
  };
  state.counters["events"] = static_cast<double>(events);
  state.counters["jobs"] = static_cast<double>(jobs);
  if (requests > 0) {
    state.counters["requests"] = static_cast<double>(requests);
    state.counters["request_events"] = static_cast<double>(request_events);
    state.counters["request_events_per_s"] = benchmark::Counter(per_iteration(request_events), benchmark::Counter::kIsRate);
  }
  state.counters["events_per_s"] = benchmark::Counter(per_iteration(events), benchmark::Counter::kIsRate);
  if (jobs > 0) {
    state.counters["ns_per_job"] =
        benchmark::Counter(per_iteration(jobs), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  }
  state.counters["peak_rss_MiB"] = peak;
}

}  // namespace sharesim
