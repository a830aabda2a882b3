// End-to-end runs through the same code path as `sharesim run` (scenario text -> loader ->
// ScenarioRun), without writing outputs unless the benchmark says so.
//   e2e/1M-jobs-10k-gpus: 1,000,000 single-GPU jobs on 10,000 exclusive GPUs (1,250 nodes
//     of 8), Poisson arrivals at offered load 0.9, exponential work of mean 1 h.
//   e2e/1M-jobs-10k-gpus-timeslice4: the same on time-sliced GPUs (4 replicas, fluid).
//   e2e/MM8-1M-jobs: the M/M/8 model (one node of 8 GPUs, rho = 0.8), 1,000,000 jobs,
//     the model the issue compares with a SimPy implementation.
//   e2e/MM8-1M-jobs+outputs: the same, writing every output file, as `sharesim run` does.
// Counters: tests/bench/bench_run.h.
#include <benchmark/benchmark.h>

#include <string>

#include "tests/bench/bench_run.h"

namespace sharesim {
namespace {

std::string scenario_text(int nodes, int gpus_per_node, double rate, double mean_s, int jobs,
                          const std::string& sharing = R"({"policy": "exclusive"})") {
  return R"({"name": "bench", "seed": 1,
    "cluster": {"node_pools": [{"name": "n", "nodes": )" +
         std::to_string(nodes) + R"(, "gpu": "A100-80GB", "gpus_per_node": )" + std::to_string(gpus_per_node) +
         R"(, "cpu_milli": 128000, "memory_mib": 1048576, "sharing": )" + sharing + R"(}]},
    "workload": {"generators": [{"name": "jobs", "kind": "training", "count": )" +
         std::to_string(jobs) + R"(, "arrival": {"process": "poisson", "rate_per_s": )" + std::to_string(rate) +
         R"(}, "duration": {"dist": "exponential", "mean_s": )" + std::to_string(mean_s) +
         R"(}, "request": {"gpus": 1}}]}})";
}

void BM_MillionJobsTenThousandGpus(benchmark::State& state) {
  // offered load = rate * mean / GPUs = 2.5 * 3600 / 10000 = 0.9
  run_scenario_bench(state, scenario_text(1250, 8, 2.5, 3600, 1'000'000), false);
}

void BM_MillionJobsTenThousandTimeslicedGpus(benchmark::State& state) {
  // The same workload on time-sliced GPUs, 4 replicas each, fluid mode (issue 3's target:
  // at most 3x the exclusive run's wall time).
  run_scenario_bench(state, scenario_text(1250, 8, 2.5, 3600, 1'000'000, R"({"policy": "timeslice", "replicas": 4})"),
                     false);
}

void BM_MillionJobsTenThousandGpusWithOutputs(benchmark::State& state) {
  run_scenario_bench(state, scenario_text(1250, 8, 2.5, 3600, 1'000'000), true);
}

void BM_MM8MillionJobs(benchmark::State& state) {
  // rho = 0.8: lambda = 0.8 * 8 / 100 s
  run_scenario_bench(state, scenario_text(1, 8, 0.064, 100, 1'000'000), false);
}

BENCHMARK(BM_MillionJobsTenThousandGpus)->Name("e2e/1M-jobs-10k-gpus")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_MillionJobsTenThousandTimeslicedGpus)
    ->Name("e2e/1M-jobs-10k-gpus-timeslice4")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_MillionJobsTenThousandGpusWithOutputs)
    ->Name("e2e/1M-jobs-10k-gpus+outputs")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
void BM_MM8MillionJobsWithOutputs(benchmark::State& state) {
  run_scenario_bench(state, scenario_text(1, 8, 0.064, 100, 1'000'000), true);
}

BENCHMARK(BM_MM8MillionJobs)->Name("e2e/MM8-1M-jobs")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_MM8MillionJobsWithOutputs)->Name("e2e/MM8-1M-jobs+outputs")->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace sharesim
