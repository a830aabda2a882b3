#include "workloads/scaled_trace_source.h"

#include <cstdio>

#include "sim/core/checked_conversion.h"
#include "sim/core/csv_format.h"
#include "sim/input/input_error.h"
#include "workloads/arrival_scaling.h"
#include "workloads/trace_import.h"

namespace sharesim {

ScaledTraceSource::ScaledTraceSource(std::unique_ptr<JobSource> trace, long double factor)
    : trace_(std::move(trace)), factor_(factor) {}

bool ScaledTraceSource::next(JobSpec& out) {
  if (!trace_->next(out)) return false;
  if (!have_first_) {
    have_first_ = true;
    first_ = out.arrival;
  }
  const SimTime offset = out.arrival - first_;
  const SimTime scaled = scale_offset(offset, factor_);
  // scale_offset saturates at kTimeNever: a job moved that far (or ending that far) would
  // arrive never or run forever, so the factor is refused at the row it moves out of range.
  const bool beyond = scaled >= kTimeNever - first_;
  const std::string end_problem = beyond ? "" : end_beyond_time_problem(first_ + scaled, out.work);
  if (beyond || !end_problem.empty()) {
    const auto& row = dynamic_cast<const TraceRowSource&>(*trace_);  // every trace format is one
    std::string from;
    append_seconds(from, offset);
    char factor[64];
    std::snprintf(factor, sizeof factor, "%.6Lg", factor_);
    throw InputError(row.path(), row.last_submit_where(),
                     "expected arrivals that time_scale / load_factor (" + std::string(factor) + ") keeps within " +
                         std::to_string(kMaxTimeSeconds) +
                         " s (about 292 years, what int64 nanoseconds hold), found a job " + from +
                         " s after the first arrival " +
                         (beyond ? "moved beyond that" : "moved so far that it would end beyond that") +
                         "; use a smaller time_scale or a larger load_factor");
  }
  out.arrival = first_ + scaled;
  return true;
}

}  // namespace sharesim
