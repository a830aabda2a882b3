#include "workloads/explicit_jobs.h"

#include <algorithm>

namespace sharesim {

ExplicitJobs::ExplicitJobs(std::vector<JobSpec> jobs) : jobs_(std::move(jobs)) {
  std::stable_sort(jobs_.begin(), jobs_.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.arrival < b.arrival; });
}

bool ExplicitJobs::next(JobSpec& out) {
  if (next_ >= jobs_.size()) return false;
  out = jobs_[next_++];
  return true;
}

}  // namespace sharesim
