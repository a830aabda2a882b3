#include "apps/summary_table.h"

#include <algorithm>
#include <cstdio>

#include "policies/policy_registry.h"
#include "sim/input/error_text.h"

namespace sharesim {
namespace {

std::string stats_row(const char* label, const SampleSummary& s, const std::string& over) {
  std::string row = label;
  row.resize(12, ' ');
  if (s.count == 0) return row + "(none)   over " + over + "\n";
  return row + "mean " + format_fixed(s.mean, 2) + "   p50 " + format_fixed(s.p50, 2) + "   p95 " +
         format_fixed(s.p95, 2) + "   p99 " + format_fixed(s.p99, 2) + "   over " + over + "\n";
}

// One service's requests: how many, their latency and the SLO they met.
std::string service_row(const ServiceMetrics& s) {
  char line[256];
  const bool any = s.latency_s.count > 0;
  std::snprintf(line, sizeof line, "  %-20s  %-9s %9llu %9llu %8llu %10s %10s %7s %8s\n", s.name.c_str(),
                s.kind.c_str(), static_cast<unsigned long long>(s.arrived),
                static_cast<unsigned long long>(s.latency_s.count), static_cast<unsigned long long>(s.dropped),
                any ? format_fixed(s.latency_s.p50, 3).c_str() : "-",
                any ? format_fixed(s.latency_s.p99, 3).c_str() : "-",
                s.slo_s > 0 ? format_fixed_or_exact(s.slo_s, 3).c_str() : "-",
                s.slo_attainment >= 0 ? format_fixed(s.slo_attainment, 3).c_str() : "-");
  return line;
}

}  // namespace

std::string format_summary_table(const ScenarioRun& run, const std::string& output_dir) {
  const RunMetrics& m = run.metrics();
  const Scenario& s = run.scenario();
  std::string out;
  out += "scenario    " + s.name + "   seed " + std::to_string(s.seed) + "   until " +
         (s.until == kTimeNever ? std::string("all work done") : format_duration(s.until)) + "\n";
  // The figures below cover the measurement window; say so when it is not the whole run.
  if (m.window.start != 0 || time_to_seconds(m.window.end) != m.horizon_s || m.window.basis != "active span") {
    out += "window      " + m.window.basis + " " + format_fixed(time_to_seconds(m.window.start), 1) + " s to " +
           format_fixed(time_to_seconds(m.window.end), 1) + " s (the figures below cover it)\n";
  }
  out += "jobs        submitted " + std::to_string(m.submitted) + "   completed " + std::to_string(m.completed) +
         "   running " + std::to_string(m.running_at_end) + "   pending at end " + std::to_string(m.pending_at_end) +
         " (never started " + std::to_string(m.never_started) + ")   failed " + std::to_string(m.failed) + "\n";
  // Waits of started jobs only look best exactly when many jobs never start: the second row
  // counts those at the wait they had reached by the end (a lower bound).
  out += stats_row("wait (s)", m.wait_s, "started jobs");
  if (m.never_started > 0) out += stats_row("", m.wait_censored_s, "all jobs, never-started censored at end");
  out += stats_row("JCT (s)", m.jct_s, "completed jobs");
  out += "GPUs        " + std::to_string(m.gpu_count) + "   utilization " + format_fixed(m.utilization_mean, 3) +
         "   allocated " + format_fixed(m.allocated_fraction_mean, 3) + "   used at peak " +
         std::to_string(m.gpus_used_peak) + "\n";
  out += "GPU-hours   used " + format_fixed(m.gpu_hours_allocated, 1) + "   provisioned " +
         format_fixed(m.gpu_hours_provisioned, 1);
  if (m.cost > 0) out += "   cost used " + format_fixed(m.cost_used, 2) + "   provisioned " + format_fixed(m.cost, 2);
  out += "\n";
  // Every kill, also those after which the job restarted (restart OnFailure: no job failed).
  if (m.killed_oom + m.killed_fault + m.killed_admission + m.killed_preempted > 0) {
    out += "kills       OOM " + std::to_string(m.killed_oom) + "   fault " + std::to_string(m.killed_fault) +
           "   admission error " + std::to_string(m.killed_admission) + "   of which by another pod's " +
           std::to_string(m.killed_by_other);
    if (m.preemption) out += "   preempted " + std::to_string(m.killed_preempted);
    out += "\n";
  }
  // Sharing figures matter only where some GPU is shared (a policy that hands out whole GPUs runs
  // every pod at slowdown 1).
  const bool shared = std::any_of(m.pools.begin(), m.pools.end(), [](const PoolMetrics& p) {
    const PolicyEntry* policy = find_sharing_policy(p.policy);
    return policy == nullptr || !policy->whole_gpus;
  });
  if (shared) {
    // Slowdown is over completed jobs with standalone work; notebooks and services have none,
    // their slowdown is per cell or request (the services table below).
    out +=
        "sharing     SM utilization " + format_fixed(m.sm_utilization_mean, 3) + "   slowdown " +
        (m.slowdown.count > 0 ? "p50 " + format_fixed(m.slowdown.p50, 2) + "   p95 " + format_fixed(m.slowdown.p95, 2)
                              : std::string("- (no completed job with standalone work)")) +
        "   context switches " + format_fixed(m.context_switches, 0) + "\n";
  }
  if (!m.services.empty()) {
    out += "\n  service               kind       requests  finished  dropped  p50 (s)    p99 (s)    SLO (s) SLO met\n";
    for (const ServiceMetrics& service : m.services) out += service_row(service);
    if (m.origins.size() <= 1 && m.pools.size() <= 1) out += "\n";
  }
  if (m.origins.size() > 1) {
    out +=
        "\n  origin                kind        jobs     done  never started   wait p50   wait p95    JCT p50    JCT "
        "p95\n";
    // An empty sample (no job of the origin started, or none completed) has no percentiles:
    // "-", as summary.json's null (docs/outputs.md), not 0.0.
    const auto percentile = [](const SampleSummary& sample, double value) {
      return sample.count == 0 ? std::string("-") : format_fixed(value, 1);
    };
    for (const OriginMetrics& o : m.origins) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-20s  %-9s %6llu %8llu %14llu %10s %10s %10s %10s\n", o.name.c_str(),
                    o.kind.c_str(), static_cast<unsigned long long>(o.submitted),
                    static_cast<unsigned long long>(o.completed), static_cast<unsigned long long>(o.never_started),
                    percentile(o.wait_s, o.wait_s.p50).c_str(), percentile(o.wait_s, o.wait_s.p95).c_str(),
                    percentile(o.jct_s, o.jct_s.p50).c_str(), percentile(o.jct_s, o.jct_s.p95).c_str());
      out += line;
    }
    if (m.pools.size() <= 1) out += "\n";
  }
  if (m.pools.size() > 1) {
    out += "\n  pool                  GPUs  model            policy       utilization  allocated\n";
    for (const PoolMetrics& p : m.pools) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-20s %5llu  %-15s  %-11s %12.3f %10.3f\n", p.name.c_str(),
                    static_cast<unsigned long long>(p.gpu_count), p.gpu.c_str(), p.policy.c_str(), p.utilization_mean,
                    p.allocated_fraction_mean);
      out += line;
    }
    out += "\n";
  }
  const double rate = m.wall_s > 0 ? static_cast<double>(m.events) / m.wall_s / 1e6 : 0;
  out += "simulated   " + format_duration(seconds_to_time(m.horizon_s)) + " in " + std::to_string(m.events) +
         " events, " + format_fixed(m.wall_s, 3) + " s wall (" + format_fixed(rate, 1) + " M events/s)\n";
  if (!output_dir.empty()) out += "outputs     " + output_dir + "/\n";
  return out;
}

}  // namespace sharesim
