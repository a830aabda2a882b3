#pragma once
// A trace replayed with its arrivals moved by load scaling (workloads/arrival_scaling.h):
// each job arrives at t0 + scale_offset(t - t0, time_scale / load_factor), t0 the trace's
// first arrival. A job pushed (or ending) past the last nanosecond SimTime holds is an input
// error at its row: it would never arrive, or run forever.
#include <memory>

#include "sim/runtime/job_source.h"

namespace sharesim {

class ScaledTraceSource final : public JobSource {
 public:
  ScaledTraceSource(std::unique_ptr<JobSource> trace, long double factor);
  bool next(JobSpec& out) override;
  std::size_t expected_jobs() const override { return trace_->expected_jobs(); }

 private:
  std::unique_ptr<JobSource> trace_;
  long double factor_;
  bool have_first_ = false;
  SimTime first_ = 0;
};

}  // namespace sharesim
