// Generators: empirical rates, phases, means and class frequencies against their laws, with
// fixed seeds and tolerances of four standard errors (derived in each test).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sim/core/checked_conversion.h"
#include "tests/unit/workloads/workload_test_helpers.h"
#include "workloads/diurnal_generator.h"

namespace sharesim::testing {
namespace {

nlohmann::json generator(nlohmann::json arrival, std::uint64_t count) {
  return {{"name", "g"},
          {"kind", "training"},
          {"count", count},
          {"arrival", std::move(arrival)},
          {"duration", {{"dist", "constant"}, {"mean_s", 10}}}};
}

std::vector<double> arrival_seconds(BuiltWorkload& w) {
  std::vector<double> t;
  for (const JobSpec& job : w.drain()) t.push_back(time_to_seconds(job.arrival));
  return t;
}

TEST(DiurnalGenerator, MeanRateAndShareOfArrivalsNearThePeak) {
  const double rate = 0.1, amplitude = 0.8, period = 1000;
  const std::size_t n = 20000;
  BuiltWorkload w(nlohmann::json{{"generators",
                                  {generator({{"process", "diurnal"},
                                              {"rate_per_s", rate},
                                              {"amplitude", amplitude},
                                              {"period", "1000s"},
                                              {"peak", "250s"}},
                                             n)}}});
  const std::vector<double> t = arrival_seconds(w);
  ASSERT_EQ(t.size(), n);
  // Rate over whole periods: N(T) is Poisson given T, so the relative SE is 1/sqrt(N).
  const double whole = std::floor(t.back() / period) * period;
  std::size_t in_whole = 0, near_peak = 0;
  for (double x : t) {
    if (x >= whole) break;
    ++in_whole;
    const double phase = std::fmod(x - 250 + 10 * period, period);  // distance from the peak
    if (phase < period / 4 || phase > 3 * period / 4) ++near_peak;
  }
  const double measured = static_cast<double>(in_whole) / whole;
  EXPECT_NEAR(measured, rate, 4 * rate / std::sqrt(static_cast<double>(in_whole)));
  // Share within a quarter period of the peak: 1/2 + amplitude / pi (integral of the rate).
  const double p = 0.5 + amplitude / std::numbers::pi;
  const double share = static_cast<double>(near_peak) / static_cast<double>(in_whole);
  EXPECT_NEAR(share, p, 4 * std::sqrt(p * (1 - p) / static_cast<double>(in_whole)));
}

TEST(DiurnalGenerator, ExtremeRatesAndPeriodsNeverStallTheThinning) {
  // A rate whose mean gap overflows a double: the first candidate lies at infinity, where the
  // rate's cosine is NaN and no candidate was ever kept (the thinning looped forever). Such
  // an arrival is past the end of time and never comes.
  DiurnalArrivals tiny(1e-310, 0.5, 86400, 0, 0);
  RandomStream rng(1, "t");
  EXPECT_GT(tiny.next_s(rng), static_cast<double>(kMaxTimeSeconds));
  BuiltWorkload never(nlohmann::json{
      {"generators", {generator({{"process", "diurnal"}, {"rate_per_s", 1e-310}, {"amplitude", 0.5}}, 3)}}});
  EXPECT_TRUE(never.drain().empty());
  // A period of 1 ns, far below what a double resolves of the phase: arrivals still come, at
  // about the mean rate (each candidate is kept with probability about 1 / (1 + amplitude)).
  BuiltWorkload fast(nlohmann::json{
      {"generators",
       {generator({{"process", "diurnal"}, {"rate_per_s", 1}, {"amplitude", 1}, {"period", "1ns"}}, 2000)}}});
  const std::vector<double> t = arrival_seconds(fast);
  ASSERT_EQ(t.size(), 2000u);
  EXPECT_NEAR(2000 / t.back(), 1.0, 4 / std::sqrt(2000.0));
}

TEST(MmppGenerator, MeanRateIsTheTimeWeightedRateAndCountsAreOverdispersed) {
  const std::size_t n = 200000;
  BuiltWorkload w(nlohmann::json{
      {"generators",
       {generator(
           {{"process", "mmpp"},
            {"states", {{{"rate_per_s", 1.0}, {"mean_stay", "100s"}}, {{"rate_per_s", 0.0}, {"mean_stay", "300s"}}}}},
           n)}}});
  const std::vector<double> t = arrival_seconds(w);
  ASSERT_EQ(t.size(), n);
  // On-off MMPP: on rate l = 1, leave-on a = 1/100, leave-off b = 1/300. Mean rate
  // l b / (a + b) = 0.25; index of dispersion of counts 1 + 2 l a / (a + b)^2 = 113.5
  // (Fischer & Meier-Hellstern 1993), so the relative SE of N is sqrt(113.5 / N).
  const double mean_rate = 0.25, idc = 1 + 2 * 1.0 * 0.01 / std::pow(0.01 + 1.0 / 300, 2);
  EXPECT_NEAR(static_cast<double>(n) / t.back(), mean_rate, 4 * mean_rate * std::sqrt(idc / static_cast<double>(n)));
  // Counts in 1000 s windows: a Poisson process would give variance/mean = 1.
  std::vector<double> counts(static_cast<std::size_t>(t.back() / 1000), 0);
  for (double x : t) {
    if (const auto k = static_cast<std::size_t>(x / 1000); k < counts.size()) ++counts[k];
  }
  double mean = 0, var = 0;
  for (double c : counts) mean += c;
  mean /= static_cast<double>(counts.size());
  for (double c : counts) var += (c - mean) * (c - mean);
  var /= static_cast<double>(counts.size() - 1);
  EXPECT_GT(var / mean, 10.0);
}

TEST(ParetoDuration, MeanAndScale) {
  const std::size_t n = 100000;
  nlohmann::json g = generator({{"process", "poisson"}, {"rate_per_s", 1.0}}, n);
  g["duration"] = {{"dist", "pareto"}, {"mean_s", 100.0}, {"alpha", 3.0}};
  BuiltWorkload w(nlohmann::json{{"generators", {g}}});
  double sum = 0, smallest = 1e300;
  const std::vector<JobSpec> jobs = w.drain();
  for (const JobSpec& job : jobs) {
    sum += time_to_seconds(job.work);
    smallest = std::min(smallest, time_to_seconds(job.work));
  }
  // x_m = 100 * 2/3; variance x_m^2 a / ((a-1)^2 (a-2)) = 3333.3, SE = sqrt(var / n).
  const double scale = 100.0 * 2 / 3;
  EXPECT_NEAR(sum / static_cast<double>(n), 100.0, 4 * std::sqrt(scale * scale * 3 / 4 / static_cast<double>(n)));
  EXPECT_GE(smallest, scale - 1e-9);
  EXPECT_LT(smallest, scale * 1.01);  // the minimum of 1e5 draws sits just above x_m
}

TEST(JobMix, ClassFrequenciesFollowTheWeightsAndArrivalsMatchThePlainGenerator) {
  const std::size_t n = 40000;
  nlohmann::json mixed = generator({{"process", "poisson"}, {"rate_per_s", 0.5}}, n);
  mixed["mix"] = {
      {{"weight", 3}, {"request", {{"gpus", 1}}}},
      {{"weight", 1}, {"request", {{"gpus", 4}}}, {"pods", 2}, {"duration", {{"dist", "constant"}, {"mean_s", 99}}}}};
  BuiltWorkload w(nlohmann::json{{"generators", {mixed}}});
  const std::vector<JobSpec> jobs = w.drain();
  std::size_t small = 0;
  for (const JobSpec& job : jobs) {
    if (w.shape(job).gpu_units == 1) {
      ++small;
      EXPECT_EQ(job.pods, 1u);
      EXPECT_EQ(job.work, 10 * kSecond);
    } else {
      ASSERT_EQ(w.shape(job).gpu_units, 4);
      EXPECT_EQ(job.pods, 2u);
      EXPECT_EQ(job.work, 99 * kSecond);
    }
  }
  EXPECT_NEAR(static_cast<double>(small) / n, 0.75, 4 * std::sqrt(0.75 * 0.25 / n));
  // The class draw has its own stream: arrival times equal those of the same generator without a mix.
  BuiltWorkload plain(nlohmann::json{{"generators", {generator({{"process", "poisson"}, {"rate_per_s", 0.5}}, n)}}});
  const std::vector<JobSpec> plain_jobs = plain.drain();
  ASSERT_EQ(plain_jobs.size(), jobs.size());
  for (std::size_t i = 0; i < n; i += 997) EXPECT_EQ(plain_jobs[i].arrival, jobs[i].arrival);
}

TEST(BootstrapGenerator, ResamplesTheTraceJobMixUniformly) {
  const std::size_t n = 30000;
  nlohmann::json g = generator({{"process", "poisson"}, {"rate_per_s", 2.0}}, n);
  g.erase("duration");
  g["resample"] = {{"format", "helios"}, {"path", "helios_small.csv"}};
  BuiltWorkload w(nlohmann::json{{"generators", {g}}});
  ASSERT_EQ(w.origins.size(), 1u);  // the trace's own origin is not added
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), n);
  std::map<SimTime, std::size_t> by_work;
  for (const JobSpec& job : jobs) {
    ++by_work[job.work];
    if (job.work == 30 * kSecond) {  // trace job 2: 2 pods of 8 GPUs, 32 cores each
      EXPECT_EQ(job.pods, 2u);
      EXPECT_EQ(w.shape(job).gpu_units, 8);
      EXPECT_EQ(w.shape(job).cpu_milli, 32000);
    }
  }
  ASSERT_EQ(by_work.size(), 3u);
  for (const SimTime work : {3600 * kSecond, 30 * kSecond, 600 * kSecond}) {
    EXPECT_NEAR(static_cast<double>(by_work[work]) / n, 1.0 / 3, 4 * std::sqrt(2.0 / 9 / n));
  }
  EXPECT_NEAR(n / time_to_seconds(jobs.back().arrival), 2.0, 4 * 2.0 / std::sqrt(n));
}

TEST(Generators, KeyCombinationsAreChecked) {
  nlohmann::json g = generator({{"process", "poisson"}, {"rate_per_s", 1.0}}, 10);
  g.erase("duration");
  EXPECT_EQ(input_error_of([&] {
              BuiltWorkload(nlohmann::json{{"generators", {g}}});
            }),
            "scenario.json: /workload/generators/0: missing required key \"duration\" (needed unless \"resample\")");
  g["resample"] = {{"format", "helios"}, {"path", "helios_small.csv"}};
  g["request"] = {{"gpus", 2}};
  EXPECT_EQ(input_error_of([&] {
              BuiltWorkload(nlohmann::json{{"generators", {g}}});
            }),
            "scenario.json: /workload/generators/0/request: \"request\" cannot be combined with \"resample\", whose "
            "trace gives each job");
}

TEST(Generators, SameSeedSameJobsOtherSeedOtherJobs) {
  const nlohmann::json g = generator(
      {{"process", "mmpp"},
       {"states", {{{"rate_per_s", 1.0}, {"mean_stay", "10s"}}, {{"rate_per_s", 0.1}, {"mean_stay", "10s"}}}}},
      100);
  BuiltWorkload a(nlohmann::json{{"generators", {g}}}, 7), b(nlohmann::json{{"generators", {g}}}, 7),
      c(nlohmann::json{{"generators", {g}}}, 8);
  const auto ja = a.drain(), jb = b.drain(), jc = c.drain();
  ASSERT_EQ(ja.size(), 100u);
  bool all_same = true, any_differs = false;
  for (std::size_t i = 0; i < ja.size(); ++i) {
    all_same = all_same && ja[i].arrival == jb[i].arrival;
    any_differs = any_differs || ja[i].arrival != jc[i].arrival;
  }
  EXPECT_TRUE(all_same);
  EXPECT_TRUE(any_differs);
}

}  // namespace
}  // namespace sharesim::testing
