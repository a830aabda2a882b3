#pragma once
// Where jobs come from: a generator, an explicit job list, a trace reader (workloads/
// implements them). The runtime pulls one job at a time, so a million-job workload never
// sits in the event queue at once.
#include <cstddef>

#include "sim/sched/job.h"

namespace sharesim {

class JobSource {
 public:
  virtual ~JobSource() = default;
  // The next job, with arrival times non-decreasing; false when the source is exhausted.
  virtual bool next(JobSpec& out) = 0;
  // How many jobs it will produce when known in advance (0 = unknown); used to reserve
  // memory once instead of growing the job table a million times.
  virtual std::size_t expected_jobs() const { return 0; }
};

}  // namespace sharesim
