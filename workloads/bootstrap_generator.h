#pragma once
// Trace-driven resampling: a trace's jobs (shape, gang size, priority, run time) are read once
// and each generated job is a copy of one drawn uniformly with replacement (the bootstrap,
// Efron 1979), on the generator's own arrivals. The job mix of the trace is kept; its arrival
// pattern is not.
#include <vector>

#include "sim/runtime/job_source.h"

namespace sharesim {

struct JobSample {
  std::uint32_t shape = 0;
  std::uint32_t pods = 1;
  std::int32_t priority = 0;
  SimTime work = 0;
};

// Every job of `source`, as samples.
std::vector<JobSample> read_job_samples(JobSource& source);

}  // namespace sharesim
