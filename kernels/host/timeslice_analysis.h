// Analysis of the time-slice probe (docs/calibration.md, "Time-slice probe"). Each of N
// processes spins on %globaltimer and logs the intervals in which it did not run (a gap between
// two consecutive reads longer than the threshold). From those logs: the slice a context runs
// for, the switch gap during which none of our contexts runs, and the extra time a buffer walk
// takes right after its context was switched back in (cache refill).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/host/robust_stats.h"

namespace sharesim::calib {

struct Interval {
  std::int64_t begin = 0;  // ns, %globaltimer
  std::int64_t end = 0;
};

// One process's log: the span it observed and the gaps in it, in globaltimer ns.
struct ContextLog {
  Interval window;
  std::vector<Interval> gaps;
};

// One probe run: N processes started together.
struct ProbeRun {
  int processes = 0;
  std::vector<ContextLog> contexts;
};

struct ProbeRunResult {
  int processes = 0;
  RobustSummary slice_ns;            // uninterrupted run of one context between two switch-outs
  RobustSummary switch_ns;           // hole between one context's run and the next context's run
  RobustSummary off_ns;              // one context's time switched out
  std::int64_t hiccup_limit_ns = 0;  // gaps shorter than this were not switch-outs
};

// Analyses one run. Only the span all contexts observed counts; runs cut by its edges are dropped.
// Gaps shorter than a quarter of the 90th percentile of a run's gap lengths are "hiccups" (a
// context paused briefly without being switched out) and are merged into the surrounding slice.
// Throws std::invalid_argument (with the reason) when the logs hold no complete slice or no switch.
ProbeRunResult analyze_probe_run(const ProbeRun& run);

struct TimesliceFit {
  RobustSummary slice_ns;   // pooled over all runs
  RobustSummary switch_ns;  // pooled over all runs
  std::vector<ProbeRunResult> runs;
};

TimesliceFit fit_timeslice(const std::vector<ProbeRun>& runs);

// One buffer walk of the cache-refill probe.
struct Walk {
  Interval span;
  bool after_switch = false;  // the context was switched out just before this walk began
};

struct CacheRefillResult {
  RobustSummary steady_ns;        // walks not preceded by a switch-out
  RobustSummary after_switch_ns;  // walks right after a switch-out
  double penalty_ns = 0;          // after_switch median - steady median, at least 0
  std::size_t interrupted = 0;    // walks dropped because a switch-out happened inside them
};

// `interrupt_limit_ns`: a walk longer than the steady median plus this was itself switched out
// and is dropped (half a measured slice is a safe choice). Throws std::invalid_argument when
// there are no steady or no after-switch walks.
CacheRefillResult analyze_cache_refill(const std::vector<Walk>& walks, double interrupt_limit_ns);

}  // namespace sharesim::calib
