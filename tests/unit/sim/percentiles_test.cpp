#include "sim/metrics/percentiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/core/random_stream.h"

namespace sharesim {
namespace {

// Hyndman & Fan definition 7 on a fully sorted copy: the reference summarize() must match.
double reference_percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  const double h = fraction * static_cast<double>(values.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(h));
  const double next = lower + 1 < values.size() ? values[lower + 1] : values[lower];
  return values[lower] + (h - static_cast<double>(lower)) * (next - values[lower]);
}

TEST(Summarize, MatchesASortedReferenceWithAndWithoutAMassAtTheMinimum) {
  RandomStream rng(11);
  for (std::size_t size : {1u, 2u, 3u, 10u, 101u, 5000u}) {
    for (double zero_share : {0.0, 0.3, 0.5, 0.96, 0.995, 1.0}) {
      std::vector<double> values(size);
      for (double& v : values) v = rng.uniform01() < zero_share ? 0.0 : rng.exponential(10.0);
      const std::vector<double> original = values;
      const SampleSummary s = summarize(values);
      EXPECT_EQ(s.count, size);
      double sum = 0;
      for (double v : original) sum += v;
      EXPECT_DOUBLE_EQ(s.mean, sum / static_cast<double>(size));
      EXPECT_EQ(s.max, *std::max_element(original.begin(), original.end()));
      EXPECT_DOUBLE_EQ(s.p50, reference_percentile(original, 0.50)) << size << " " << zero_share;
      EXPECT_DOUBLE_EQ(s.p95, reference_percentile(original, 0.95)) << size << " " << zero_share;
      EXPECT_DOUBLE_EQ(s.p99, reference_percentile(original, 0.99)) << size << " " << zero_share;
    }
  }
}

TEST(SummarizeWithQuantiles, MatchASortedReferenceAtEveryPoint) {
  RandomStream rng(12);
  for (std::size_t size : {1u, 2u, 3u, 7u, 100u, 101u, 102u, 5000u}) {
    for (std::size_t points : {2u, 3u, 11u, 101u}) {
      std::vector<double> values(size);
      // Ties (a mass at 0 and repeated values) as well as distinct ones.
      for (double& v : values) v = rng.uniform01() < 0.3 ? 0.0 : std::round(rng.exponential(10.0) * 4) / 4;
      const std::vector<double> original = values;
      const std::vector<double> q = summarize_with_quantiles(values, points).quantiles;
      ASSERT_EQ(q.size(), points);
      for (std::size_t i = 0; i < points; ++i) {
        const double fraction = static_cast<double>(i) / static_cast<double>(points - 1);
        EXPECT_DOUBLE_EQ(q[i], reference_percentile(original, fraction)) << size << " " << points << " " << i;
      }
      EXPECT_EQ(q.front(), *std::min_element(original.begin(), original.end()));
      EXPECT_EQ(q.back(), *std::max_element(original.begin(), original.end()));
    }
  }
  std::vector<double> none;
  EXPECT_TRUE(summarize_with_quantiles(none, 101).quantiles.empty());
  std::vector<double> one = {3.0};
  EXPECT_TRUE(summarize_with_quantiles(one, 1).quantiles.empty());
}

// One selection serves both: the summary is the one summarize() gives on its own (bit for
// bit), and with 101 points the points at 0.5, 0.95 and 0.99 are the summary's percentiles.
TEST(SummarizeWithQuantiles, TheSummaryIsSummarizesAndSharesItsPercentilesWithThePoints) {
  RandomStream rng(13);
  for (std::size_t size : {1u, 2u, 5u, 99u, 1000u, 4097u}) {
    std::vector<double> values(size);
    for (double& v : values) v = rng.uniform01() < 0.5 ? 0.0 : rng.exponential(3.0);
    std::vector<double> copy = values;
    const SampleSummary alone = summarize(copy);
    const SampleDistribution both = summarize_with_quantiles(values, 101);
    EXPECT_EQ(both.summary.count, alone.count);
    EXPECT_EQ(both.summary.mean, alone.mean);
    EXPECT_EQ(both.summary.p50, alone.p50);
    EXPECT_EQ(both.summary.p95, alone.p95);
    EXPECT_EQ(both.summary.p99, alone.p99);
    EXPECT_EQ(both.summary.max, alone.max);
    ASSERT_EQ(both.quantiles.size(), 101u);
    EXPECT_EQ(both.quantiles[50], alone.p50) << size;
    EXPECT_EQ(both.quantiles[95], alone.p95) << size;
    EXPECT_EQ(both.quantiles[99], alone.p99) << size;
    EXPECT_EQ(both.quantiles[100], alone.max) << size;
  }
}

TEST(Summarize, EmptySampleIsAllZero) {
  std::vector<double> none;
  const SampleSummary s = summarize(none);
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.p99, 0.0);
}

}  // namespace
}  // namespace sharesim
