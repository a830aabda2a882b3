#pragma once
// The span a run's summary figures cover, resolved after the run (docs/outputs.md
// "Measurement window"): the active span by default, from the first arrival to the last
// completion (or to the end of the run while jobs are still pending or running), so that a
// trace whose arrivals fill the last weeks of a long `until` is not averaged over idle months.
// A scenario's `metrics_window` replaces either bound.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/runtime/cluster_runtime.h"
#include "sim/metrics/metrics_spec.h"

namespace sharesim {

struct MetricsWindow {
  SimTime start = 0;
  SimTime end = 0;
  std::string basis = "active span";  // "active span" or "configured"
  std::uint64_t warmup_jobs = 0;

  // A start past the end (a configured bound beyond the active span's other bound) is an
  // empty window: no span, no job, and its bounds kept as resolved for summary.json, so that a
  // reader sees why it is empty.
  SimTime span() const { return std::max<SimTime>(0, end - start); }
  double span_s() const { return time_to_seconds(span()); }
  // Job figures count the jobs that arrive inside the window (both ends included), after the
  // warm-up jobs; `index` is the job's place in arrival order.
  bool holds_job(std::size_t index, SimTime arrival) const {
    return index >= warmup_jobs && arrival >= start && arrival <= end;
  }
};

// The window of a finished run that ended at `horizon`.
MetricsWindow resolve_metrics_window(const ClusterRuntime& runtime, SimTime horizon, const MetricsWindowSpec& spec);

// summary.json's "metrics_window": {"basis", "start_s", "end_s", "warmup_jobs"}.
nlohmann::ordered_json metrics_window_json(const MetricsWindow& window);

}  // namespace sharesim
