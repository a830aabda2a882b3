// One benchmark per sharing policy, per workload class and per fidelity, so that `make bench`
// catches a slowdown wherever it lands (docs/ci.md):
//   policy/<p>: 100,000 small training jobs (10 GiB, 40% of the SMs) on 1,000 A100-80GB GPUs
//     under each built-in policy with compare's default settings (docs/scenario.md#compare).
//   class/batch, class/notebook: the batch and notebook behaviour classes.
//   inference/10M-request-events: 48 inference services under 4-way time-slicing, Poisson
//     requests; the request path (arrival, queue, completion) dominates: 6.7 M requests,
//     13.4 M request events (arrivals and completions), over 10 M events in all.
//   timeslice/slice-level: time-slicing run slice by slice (fidelity "slice").
//   gang/20000-pods: one gang of 20,000 one-GPU pods on 20,000 GPUs, started and ended at once
//     (its GPUs' rates were refreshed GPU by GPU, the job's rate taken over all 20,000 each
//     time: 4 s, and 220 s for 80,000 pods, before ClusterRuntime::refresh_gpus).
#include <benchmark/benchmark.h>

#include <string>

#include "tests/bench/bench_run.h"

namespace sharesim {
namespace {

std::string cluster(int nodes, const std::string& sharing) {
  return R"("cluster": {"node_pools": [{"name": "n", "nodes": )" + std::to_string(nodes) +
         R"(, "gpu": "A100-80GB", "gpus_per_node": 8, "cpu_milli": 1024000, "memory_mib": 8388608,
         "sharing": )" +
         sharing + "}]}";
}

// Offered load 0.9 of the GPUs' count: 100,000 jobs of mean 1,800 s on 1,000 GPUs.
std::string policy_scenario(const std::string& sharing) {
  return R"({"name": "bench-policy", "seed": 1, )" + cluster(125, sharing) + R"(,
    "workload": {"generators": [{"name": "jobs", "kind": "training", "count": 100000,
      "arrival": {"process": "poisson", "rate_per_s": 0.5},
      "duration": {"dist": "exponential", "mean_s": 1800},
      "request": {"limits": {"nvidia.com/gpu": 1, "nvidia.com/gpumem": 10240}, "cpu_milli": 1000, "memory_mib": 1024,
                  "demand": {"sm": 0.4, "bw": 0.3, "mem_mib": 8192}}}]}})";
}

void BM_Policy(benchmark::State& state, const std::string& sharing) {
  run_scenario_bench(state, policy_scenario(sharing), false);
}

BENCHMARK_CAPTURE(BM_Policy, exclusive, R"({"policy": "exclusive"})")
    ->Name("policy/exclusive")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Policy, timeslice, R"({"policy": "timeslice", "replicas": 4})")
    ->Name("policy/timeslice")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Policy, mps, R"({"policy": "mps", "replicas": 4})")
    ->Name("policy/mps")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Policy, mig, R"({"policy": "mig", "strategy": "single", "layout": "all-2g.20gb"})")
    ->Name("policy/mig")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Policy, vgpu, R"({"policy": "vgpu", "profile": "A100-20C"})")
    ->Name("policy/vgpu")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Policy, fractional, R"({"policy": "fractional"})")
    ->Name("policy/fractional")
    ->Unit(benchmark::kMillisecond);

void BM_Batch(benchmark::State& state) {
  run_scenario_bench(state, R"({"name": "bench-batch", "seed": 1, )" + cluster(125, R"({"policy": "exclusive"})") + R"(,
    "workload": {"generators": [{"name": "jobs", "kind": "batch", "count": 100000,
      "arrival": {"process": "poisson", "rate_per_s": 0.5},
      "duration": {"dist": "lognormal", "mean_s": 1800, "cv": 1.5},
      "request": {"gpus": 1, "cpu_milli": 1000, "memory_mib": 1024}}]}})",
                     false);
}

void BM_Notebook(benchmark::State& state) {
  // 800 notebooks on 200 GPUs (4 replicas): cells of 20 s between 3 min of think time, 8 h.
  run_scenario_bench(state,
                     R"({"name": "bench-notebook", "seed": 1, "until": "8h", )" +
                         cluster(25, R"({"policy": "timeslice", "replicas": 4})") +
                         R"(,
    "workload": {"jobs": [{"name": "notebook", "kind": "notebook", "replicas": 800,
      "request": {"gpus": 1, "cpu_milli": 1000, "memory_mib": 1024, "demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 8192}},
      "active": {"dist": "exponential", "mean_s": 20}, "idle": {"dist": "exponential", "mean_s": 180},
      "session": "8h"}]}})",
                     false);
}

void BM_Inference(benchmark::State& state) {
  // 48 services on 12 GPUs (4-way time-slicing), 100 requests/s each of 4 ms mean work for
  // 1,400 s: 6.72 M requests, each an arrival and a completion (issue 16: >= 10 M request
  // events; until 1,100 s it made 8.4 M events in all, now 10.7 M).
  run_scenario_bench(state,
                     R"({"name": "bench-inference", "seed": 1, "until": "1400s", )" +
                         cluster(2, R"({"policy": "timeslice", "replicas": 4})") + R"(,
    "workload": {"jobs": [{"name": "svc", "kind": "inference", "replicas": 48,
      "request": {"gpus": 1, "cpu_milli": 1000, "memory_mib": 1024, "demand": {"sm": 0.5, "bw": 0.4, "mem_mib": 8192}},
      "requests": {"arrival": {"process": "poisson", "rate_per_s": 100},
                   "work": {"dist": "exponential", "mean_s": 0.004}, "slo": "250ms"}}]}})",
                     false);
}

void BM_SliceLevel(benchmark::State& state) {
  // 64 jobs of 60 s mean on 16 GPUs, 4 replicas, every time slice an event.
  run_scenario_bench(state,
                     R"({"name": "bench-slices", "seed": 1, )" +
                         cluster(2, R"({"policy": "timeslice", "replicas": 4, "fidelity": "slice"})") + R"(,
    "workload": {"generators": [{"name": "jobs", "kind": "training", "count": 64,
      "arrival": {"process": "poisson", "rate_per_s": 1},
      "duration": {"dist": "exponential", "mean_s": 60},
      "request": {"gpus": 1, "cpu_milli": 1000, "memory_mib": 1024, "demand": {"sm": 0.5, "bw": 0.4, "mem_mib": 8192}}}]}})",
                     false);
}

void BM_Gang(benchmark::State& state) {
  run_scenario_bench(state, R"({"name": "bench-gang", "seed": 1, )" + cluster(2500, R"({"policy": "exclusive"})") + R"(,
    "workload": {"jobs": [{"name": "gang", "duration": "100s", "pods": 20000,
      "request": {"gpus": 1, "cpu_milli": 1000, "memory_mib": 1024}}]}})",
                     false);
}

BENCHMARK(BM_Batch)->Name("class/batch")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Notebook)->Name("class/notebook")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Inference)->Name("inference/10M-request-events")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SliceLevel)->Name("timeslice/slice-level")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gang)->Name("gang/20000-pods")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sharesim
