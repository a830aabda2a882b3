#pragma once
// Where jobs come from, as the runtime needs it: names, behaviour class, what a kill does.
#include <memory>
#include <string>

#include "sim/core/sim_time.h"
#include "sim/runtime/job_behaviour.h"

namespace sharesim {

// One origin of jobs (a generator, an explicit job list entry, a trace): names and classes.
struct JobOrigin {
  std::string name;  // job names are "<origin>-<sequence>"
  std::string kind;  // behaviour class: "training", "batch", ...
  // Set by workloads/ for classes that are more than steady work (services, notebooks).
  std::shared_ptr<JobBehaviourFactory> behaviour;
  RestartSpec restart;  // what a kill does to its jobs
  SimTime slo = 0;      // request latency objective of a service (0 = none)
};

}  // namespace sharesim
