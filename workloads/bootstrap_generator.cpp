#include "workloads/bootstrap_generator.h"

namespace sharesim {

std::vector<JobSample> read_job_samples(JobSource& source) {
  std::vector<JobSample> samples;
  JobSpec job;
  while (source.next(job)) samples.push_back({job.shape, job.pods, job.priority, job.work});
  return samples;
}

}  // namespace sharesim
