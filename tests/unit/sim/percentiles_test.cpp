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

TEST(QuantilePoints, MatchASortedReferenceAtEveryPoint) {
  RandomStream rng(12);
  for (std::size_t size : {1u, 2u, 3u, 7u, 100u, 101u, 102u, 5000u}) {
    for (std::size_t points : {2u, 3u, 11u, 101u}) {
      std::vector<double> values(size);
      // Ties (a mass at 0 and repeated values) as well as distinct ones.
      for (double& v : values) v = rng.uniform01() < 0.3 ? 0.0 : std::round(rng.exponential(10.0) * 4) / 4;
      const std::vector<double> original = values;
      const std::vector<double> q = quantile_points(values, points);
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
  EXPECT_TRUE(quantile_points(none, 101).empty());
}

TEST(Summarize, EmptySampleIsAllZero) {
  std::vector<double> none;
  const SampleSummary s = summarize(none);
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.p99, 0.0);
}

}  // namespace
}  // namespace sharesim
