#include "apps/summary_table.h"

#include <algorithm>
#include <cstdio>

#include "sim/scenario/error_text.h"

namespace sharesim {
namespace {

std::string stats_row(const char* label, const SampleSummary& s) {
  std::string row = label;
  row.resize(12, ' ');
  if (s.count == 0) return row + "(none)\n";
  return row + "mean " + format_fixed(s.mean, 2) + "   p50 " + format_fixed(s.p50, 2) + "   p95 " +
         format_fixed(s.p95, 2) + "   p99 " + format_fixed(s.p99, 2) + "\n";
}

}  // namespace

std::string format_summary_table(const ScenarioRun& run, const std::string& output_dir) {
  const RunMetrics& m = run.metrics();
  const Scenario& s = run.scenario();
  std::string out;
  out += "scenario    " + s.name + "   seed " + std::to_string(s.seed) + "   until " +
         (s.until == kTimeNever ? std::string("all work done") : format_duration(s.until)) + "\n";
  out += "jobs        submitted " + std::to_string(m.submitted) + "   completed " + std::to_string(m.completed) +
         "   running " + std::to_string(m.running_at_end) + "   pending " + std::to_string(m.pending_at_end) +
         "   failed " + std::to_string(m.failed) + "\n";
  out += stats_row("wait (s)", m.wait_s);
  out += stats_row("JCT (s)", m.jct_s);
  out += "GPUs        " + std::to_string(m.gpu_count) + "   utilization " + format_fixed(m.utilization_mean, 3) +
         "   allocated " + format_fixed(m.allocated_fraction_mean, 3) + "   GPU-hours " +
         format_fixed(m.gpu_hours_allocated, 1) + "\n";
  if (m.failed > 0) {
    out += "kills       OOM " + std::to_string(m.killed_oom) + "   fault " + std::to_string(m.killed_fault) +
           "   admission error " + std::to_string(m.killed_admission) + "   of which by another pod's " +
           std::to_string(m.killed_by_other) + "\n";
  }
  // Sharing figures matter only where some GPU is shared (an exclusive GPU runs at slowdown 1).
  const bool shared =
      std::any_of(m.pools.begin(), m.pools.end(), [](const PoolMetrics& p) { return p.policy != "exclusive"; });
  if (shared) {
    out += "sharing     SM utilization " + format_fixed(m.sm_utilization_mean, 3) + "   slowdown p50 " +
           format_fixed(m.slowdown.p50, 2) + "   p95 " + format_fixed(m.slowdown.p95, 2) + "   context switches " +
           format_fixed(m.context_switches, 0) + "\n";
  }
  if (m.origins.size() > 1) {
    out += "\n  origin                kind        jobs     done   wait p50   wait p95    JCT p50    JCT p95\n";
    for (const OriginMetrics& o : m.origins) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-20s  %-9s %6llu %8llu %10.1f %10.1f %10.1f %10.1f\n", o.name.c_str(),
                    o.kind.c_str(), static_cast<unsigned long long>(o.submitted),
                    static_cast<unsigned long long>(o.completed), o.wait_s.p50, o.wait_s.p95, o.jct_s.p50, o.jct_s.p95);
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
