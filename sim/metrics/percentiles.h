#pragma once
// Summary statistics of a sample: mean and percentiles by linear interpolation between
// closest ranks (Hyndman & Fan 1996, definition 7; numpy's default).
#include <span>
#include <vector>

namespace sharesim {

struct SampleSummary {
  std::size_t count = 0;
  double mean = 0;
  double p50 = 0;
  double p95 = 0;
  double p99 = 0;
  double max = 0;
};

// Reorders `values` (selects the ranks it needs). An empty sample gives all zeros and count 0.
SampleSummary summarize(std::span<double> values);

// The summary and the sample's quantiles at fractions 0, 1/(points-1), ..., 1 by the same
// definition (the points of its CDF, for plots: docs/outputs.md "request_latency.csv"), from
// one selection of every rank the two need. Reorders `values`. `quantiles` is empty for an
// empty sample or `points` < 2.
struct SampleDistribution {
  SampleSummary summary;
  std::vector<double> quantiles;
};
SampleDistribution summarize_with_quantiles(std::span<double> values, std::size_t points);

}  // namespace sharesim
