#include "sim/metrics/run_metrics.h"

#include <vector>

namespace sharesim {
namespace {

nlohmann::json summary_json(const SampleSummary& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99}, {"max", s.max}};
}

}  // namespace

RunMetrics compute_run_metrics(const ClusterRuntime& runtime, SimTime horizon, std::uint64_t events, double wall_s) {
  RunMetrics m;
  std::vector<double> waits, jcts;
  waits.reserve(runtime.jobs().size());
  jcts.reserve(runtime.jobs().size());
  for (const JobRecord& job : runtime.jobs()) {
    ++m.submitted;
    switch (job.state) {
      case JobState::Pending: ++m.pending_at_end; break;
      case JobState::Running: ++m.running_at_end; break;
      case JobState::Completed: ++m.completed; break;
      case JobState::Failed: ++m.failed; break;
    }
    if (job.start >= 0) waits.push_back(time_to_seconds(job.start - job.spec.arrival));
    if (job.state == JobState::Completed) jcts.push_back(time_to_seconds(job.end - job.spec.arrival));
  }
  m.wait_s = summarize(waits);
  m.jct_s = summarize(jcts);
  m.horizon_s = time_to_seconds(horizon);
  if (m.horizon_s > 0) m.throughput_jobs_per_hour = static_cast<double>(m.completed) / (m.horizon_s / 3600.0);
  m.gpu_count = runtime.gpu_usage().size();
  SimTime busy = 0, allocated = 0;
  for (const GpuUsage& usage : runtime.gpu_usage()) {
    busy += usage.busy_ns;
    allocated += usage.allocated_ns;
  }
  const double capacity = static_cast<double>(m.gpu_count) * static_cast<double>(horizon);
  if (capacity > 0) {
    m.utilization_mean = static_cast<double>(busy) / capacity;
    m.allocated_fraction_mean = static_cast<double>(allocated) / capacity;
  }
  m.gpu_hours_allocated = time_to_seconds(allocated) / 3600.0;
  m.events = events;
  m.wall_s = wall_s;
  return m;
}

nlohmann::json run_metrics_json(const RunMetrics& m) {
  nlohmann::json jobs = {{"submitted", m.submitted},
                         {"completed", m.completed},
                         {"running_at_end", m.running_at_end},
                         {"pending_at_end", m.pending_at_end},
                         {"failed", m.failed},
                         {"wait_s", summary_json(m.wait_s)},
                         {"jct_s", summary_json(m.jct_s)},
                         {"throughput_per_hour", m.throughput_jobs_per_hour}};
  nlohmann::json gpus = {{"count", m.gpu_count},
                         {"utilization_mean", m.utilization_mean},
                         {"allocated_fraction_mean", m.allocated_fraction_mean},
                         {"gpu_hours_allocated", m.gpu_hours_allocated}};
  nlohmann::json sim = {{"events", m.events}, {"horizon_s", m.horizon_s}, {"wall_s", m.wall_s}};
  return {{"jobs", jobs}, {"gpus", gpus}, {"sim", sim}};
}

}  // namespace sharesim
