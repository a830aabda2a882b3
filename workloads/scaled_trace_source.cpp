#include "workloads/scaled_trace_source.h"

#include "workloads/arrival_scaling.h"

namespace sharesim {

ScaledTraceSource::ScaledTraceSource(std::unique_ptr<JobSource> trace, long double factor)
    : trace_(std::move(trace)), factor_(factor) {}

bool ScaledTraceSource::next(JobSpec& out) {
  if (!trace_->next(out)) return false;
  if (!have_first_) {
    have_first_ = true;
    first_ = out.arrival;
  }
  const SimTime offset = scale_offset(out.arrival - first_, factor_);
  if (offset > kTimeNever - first_) return false;
  out.arrival = first_ + offset;
  return true;
}

}  // namespace sharesim
