#pragma once
// One benchmark iteration = one whole run through the code path of `sharesim run` (scenario
// text -> loader -> ScenarioRun), optionally writing the output files.
// Counters: events, jobs, requests (inference and notebook services), events_per_s, ns_per_job
// and the peak resident memory of the run (VmHWM after resetting it through
// /proc/self/clear_refs).
#include <benchmark/benchmark.h>

#include <string>

namespace sharesim {

void run_scenario_bench(benchmark::State& state, const std::string& scenario_text, bool write_outputs);

}  // namespace sharesim
