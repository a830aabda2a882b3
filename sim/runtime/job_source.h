#pragma once
// Where jobs come from: a generator, an explicit job list, a trace reader (workloads/
// implements them). The runtime pulls one job at a time, so a million-job workload never
// sits in the event queue at once.
#include <cstddef>
#include <vector>

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

// Which buffered job comes next when several sources are merged: the earliest arrival, ties
// to the lowest source index. The run and the trace writer both use it, so a written trace
// replays simultaneous arrivals in the order the run took them. Returns heads.size() when no
// source has a job.
inline std::size_t earliest_source(const std::vector<JobSpec>& heads, const std::vector<bool>& has_job) {
  std::size_t earliest = heads.size();
  for (std::size_t s = 0; s < heads.size(); ++s) {
    if (has_job[s] && (earliest == heads.size() || heads[s].arrival < heads[earliest].arrival)) earliest = s;
  }
  return earliest;
}

}  // namespace sharesim
