#include "kernels/host/timeslice_analysis.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sharesim::calib {

namespace {

struct TaggedRun {
  Interval span;
  std::size_t context = 0;
};

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double rank = q * static_cast<double>(values.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(rank));
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (rank - static_cast<double>(low)) * (values[high] - values[low]);
}

}  // namespace

ProbeRunResult analyze_probe_run(const ProbeRun& run) {
  const std::string which = "probe run with " + std::to_string(run.processes) + " processes: ";
  if (run.contexts.size() < 2) throw std::invalid_argument(which + "needs logs of at least 2 contexts");

  // The span every context observed.
  Interval common{INT64_MIN, INT64_MAX};
  for (const ContextLog& log : run.contexts) {
    common.begin = std::max(common.begin, log.window.begin);
    common.end = std::min(common.end, log.window.end);
  }
  if (common.end <= common.begin) throw std::invalid_argument(which + "the contexts' windows do not overlap");

  std::vector<double> gap_lengths;
  for (const ContextLog& log : run.contexts) {
    for (const Interval& gap : log.gaps) gap_lengths.push_back(static_cast<double>(gap.end - gap.begin));
  }
  if (gap_lengths.empty()) throw std::invalid_argument(which + "no context was ever switched out");
  ProbeRunResult result;
  result.processes = run.processes;
  result.hiccup_limit_ns = static_cast<std::int64_t>(0.25 * percentile(gap_lengths, 0.9));

  std::vector<double> slices;
  std::vector<double> offs;
  std::vector<TaggedRun> runs;
  for (std::size_t c = 0; c < run.contexts.size(); ++c) {
    std::vector<Interval> gaps;
    for (const Interval& gap : run.contexts[c].gaps) {
      if (gap.end - gap.begin >= result.hiccup_limit_ns) gaps.push_back(gap);
    }
    std::sort(gaps.begin(), gaps.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    for (std::size_t g = 0; g < gaps.size(); ++g) {
      const Interval& gap = gaps[g];
      if (gap.begin >= common.begin && gap.end <= common.end) offs.push_back(static_cast<double>(gap.end - gap.begin));
      if (g + 1 < gaps.size()) {
        const Interval slice{gap.end, gaps[g + 1].begin};
        if (slice.begin >= common.begin && slice.end <= common.end && slice.end > slice.begin) {
          slices.push_back(static_cast<double>(slice.end - slice.begin));
          runs.push_back({slice, c});
        }
      }
    }
  }
  if (slices.empty()) throw std::invalid_argument(which + "no complete slice inside the common window");

  // A switch: one context's slice ends, the next slice (in time) belongs to another context.
  std::sort(runs.begin(), runs.end(), [](const TaggedRun& a, const TaggedRun& b) {
    return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.context < b.context;
  });
  std::vector<double> switches;
  for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
    if (runs[i].context == runs[i + 1].context) continue;
    switches.push_back(static_cast<double>(std::max<std::int64_t>(0, runs[i + 1].span.begin - runs[i].span.end)));
  }
  if (switches.empty()) throw std::invalid_argument(which + "no switch between two complete slices");
  result.slice_ns = robust_summary(slices);
  result.switch_ns = robust_summary(switches);
  result.off_ns = robust_summary(offs.empty() ? slices : offs);
  return result;
}

TimesliceFit fit_timeslice(const std::vector<ProbeRun>& runs) {
  if (runs.empty()) throw std::invalid_argument("no time-slice probe runs");
  TimesliceFit fit;
  std::vector<double> slices;
  std::vector<double> switches;
  for (const ProbeRun& run : runs) {
    fit.runs.push_back(analyze_probe_run(run));
    // Pool the per-run medians rather than all samples, so that runs with many contexts (and
    // so many samples) do not outweigh the others.
    slices.push_back(fit.runs.back().slice_ns.median);
    switches.push_back(fit.runs.back().switch_ns.median);
  }
  fit.slice_ns = robust_summary(slices);
  fit.switch_ns = robust_summary(switches);
  return fit;
}

CacheRefillResult analyze_cache_refill(const std::vector<Walk>& walks, double interrupt_limit_ns) {
  std::vector<double> steady;
  for (const Walk& walk : walks) {
    if (!walk.after_switch) steady.push_back(static_cast<double>(walk.span.end - walk.span.begin));
  }
  if (steady.empty()) throw std::invalid_argument("cache refill: no walk without a switch-out before it");
  const double steady_median = median(steady);
  const double limit = steady_median + interrupt_limit_ns;

  CacheRefillResult result;
  std::vector<double> kept_steady;
  std::vector<double> after;
  for (const Walk& walk : walks) {
    const auto length = static_cast<double>(walk.span.end - walk.span.begin);
    if (length > limit) {
      ++result.interrupted;
      continue;
    }
    (walk.after_switch ? after : kept_steady).push_back(length);
  }
  if (kept_steady.empty()) throw std::invalid_argument("cache refill: every steady walk was interrupted");
  if (after.empty()) throw std::invalid_argument("cache refill: no uninterrupted walk right after a switch-out");
  result.steady_ns = robust_summary(kept_steady);
  result.after_switch_ns = robust_summary(after);
  result.penalty_ns = std::max(0.0, result.after_switch_ns.median - result.steady_ns.median);
  return result;
}

}  // namespace sharesim::calib
