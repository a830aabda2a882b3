#include "sim/metrics/metrics_window.h"

#include <algorithm>

namespace sharesim {

MetricsWindow resolve_metrics_window(const ClusterRuntime& runtime, SimTime horizon, const MetricsWindowSpec& spec) {
  const std::vector<JobRecord>& jobs = runtime.jobs();
  // Active span. Jobs are recorded in arrival order, so the first is the earliest. Its end is
  // the last job event when every job is done, else the horizon: pending or running work (a
  // service serving until `until`, a job in its restart backoff) keeps the cluster active.
  const SimTime active_start = jobs.empty() ? 0 : jobs.front().spec.arrival;
  const bool work_left = std::any_of(jobs.begin(), jobs.end(), [](const JobRecord& job) {
    return job.state == JobState::Pending || job.state == JobState::Running;
  });
  const SimTime active_end = jobs.empty() || work_left ? horizon : std::min(runtime.last_job_event(), horizon);

  MetricsWindow window;
  window.start = active_start;
  window.end = active_end;
  if (!spec.configured) return window;
  window.basis = "configured";
  window.warmup_jobs = spec.warmup_jobs;
  if (spec.end >= 0) window.end = std::min(spec.end, horizon);
  if (spec.start >= 0) {
    window.start = spec.start;
  } else if (spec.warmup_jobs > 0) {
    // Opened by the runtime at the arrival of job number warmup_jobs; kTimeNever when fewer
    // jobs arrived, which leaves the window empty (shown as starting at its end).
    window.start = std::min(runtime.measurement_window().start, window.end);
  }
  return window;  // a start past the end is an empty window (MetricsWindow::span)
}

nlohmann::ordered_json metrics_window_json(const MetricsWindow& window) {
  nlohmann::ordered_json json;
  json["basis"] = window.basis;
  json["start_s"] = time_to_seconds(window.start);
  json["end_s"] = time_to_seconds(window.end);
  json["warmup_jobs"] = window.warmup_jobs;
  return json;
}

}  // namespace sharesim
