#pragma once
// The behaviour classes that are more than steady work (docs/models.md "Behaviour classes"),
// as JobBehaviour programs the runtime drives (sim/runtime/job_behaviour.h):
//   inference service: a long-lived pod with a FIFO queue of requests that arrive by an
//     arrival process; the head request is served at the rate the GPU policy gives the pod;
//     the pod is idle (no GPU time) while the queue is empty;
//   notebook: alternating active phases (a cell: an amount of standalone GPU work the user
//     waits for) and idle phases (think time, wall clock), holding its memory throughout,
//     until its session (wall time since its first start) ends.
// Random draws come from streams named after the job ("service/<job>/...",
// "notebook/<job>/..."), so jobs never perturb each other's numbers.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "sim/runtime/job_behaviour.h"
#include "sim/sched/job.h"
#include "workloads/arrival_process.h"
#include "workloads/duration_distribution.h"

namespace sharesim {

struct ServiceConfig {
  std::string origin;  // names the random streams
  std::uint64_t seed = 1;
  // The request arrival process of one pod, started at its first start (absolute ns).
  std::function<std::unique_ptr<ArrivalProcess>(SimTime start)> arrivals;
  DurationDistribution work;      // standalone GPU work of one request
  SimTime lifetime = kTimeNever;  // wall time from its first start to its end
  PhaseDemand active;             // demand while serving (idle: sm = bw = 0, same memory)
};

struct NotebookConfig {
  std::string origin;
  std::uint64_t seed = 1;
  DurationDistribution active;  // standalone GPU work of one active phase (cell)
  DurationDistribution idle;    // wall time of one idle phase
  SimTime session = 0;          // wall time from its first start to its end
  PhaseDemand demand;           // demand while active
};

std::shared_ptr<JobBehaviourFactory> make_service_factory(ServiceConfig config);
std::shared_ptr<JobBehaviourFactory> make_notebook_factory(NotebookConfig config);

// The demand of an idle phase: no SMs, no bandwidth, the same memory held.
inline PhaseDemand idle_demand(const PhaseDemand& active) {
  return PhaseDemand{.sm = 0.0, .bw = 0.0, .mem_mib = active.mem_mib};
}

}  // namespace sharesim
