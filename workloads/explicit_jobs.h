#pragma once
// Jobs listed one by one in the scenario (`workload.jobs`), e.g. a Kubernetes deployment:
// `replicas` independent jobs of `pods` gang-scheduled pods each, named "<name>-<replica>".
#include <vector>

#include "sim/runtime/job_source.h"

namespace sharesim {

class ExplicitJobs final : public JobSource {
 public:
  explicit ExplicitJobs(std::vector<JobSpec> jobs);  // any order; emitted by arrival, stable
  bool next(JobSpec& out) override;
  std::size_t expected_jobs() const override { return jobs_.size(); }

 private:
  std::vector<JobSpec> jobs_;
  std::size_t next_ = 0;
};

}  // namespace sharesim
