#include "kernels/host/contention_fit.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "kernels/host/sm_scaling_fit.h"

namespace sharesim::calib {
namespace {

TEST(WaterFill, EqualSharesOfOneSaturatedResource) {
  const std::vector<double> r = water_fill({{1, 0}, {1, 0}});
  EXPECT_DOUBLE_EQ(r[0], 0.5);
  EXPECT_DOUBLE_EQ(r[1], 0.5);
  EXPECT_DOUBLE_EQ(water_fill({{1, 0}})[0], 1.0);
}

TEST(WaterFill, KernelsOnDifferentResourcesDoNotSlowEachOther) {
  const std::vector<double> r = water_fill({{1, 0}, {0, 1}});
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
}

TEST(WaterFill, SharedBottleneckStopsEveryoneUsingIt) {
  // fma uses all SMs, triad 30% of them and all of DRAM: SMs saturate at r = 1/1.3.
  const std::vector<double> r = water_fill({{1, 0}, {0.3, 1}});
  EXPECT_NEAR(r[0], 1 / 1.3, 1e-12);
  EXPECT_NEAR(r[1], 1 / 1.3, 1e-12);
  // Max-min: a small kernel is capped by its own speed, the others share what is left.
  const std::vector<double> s = water_fill({{0.1, 0}, {1, 0}, {1, 0}});
  EXPECT_NEAR(s[0], 1 / 2.1, 1e-12);
  EXPECT_NEAR(s[1], 1 / 2.1, 1e-12);
}

// Synthetic co-run data made with known factors per mode; the fit must find them.
TEST(ContentionFit, RecoversKnownInterferenceFactors) {
  const std::map<std::string, Demand> demands = {
      {"fma", {1, 0}}, {"triad", {0.3, 1}}, {"l2", {1, 0}}, {"smem", {1, 0}}, {"launch", {0.05, 0}}};
  const std::map<std::string, double> alone = {
      {"fma", 6e13}, {"triad", 2.9e12}, {"l2", 8e12}, {"smem", 3e13}, {"launch", 2e5}};
  const std::map<std::string, double> factor = {{"processes", 0.93}, {"mps", 0.85}, {"streams", 0.88}};
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(1.0, 0.01);
  std::vector<CorunCase> cases;
  const std::vector<std::vector<std::string>> sets = {{"fma", "triad"},  {"fma", "l2"},     {"triad", "l2"},
                                                      {"smem", "triad"}, {"fma", "launch"}, {"fma", "triad", "l2"}};
  for (const auto& [mode, f] : factor) {
    for (const auto& [name, x] : alone) cases.push_back({mode, {name}, {x}});
    for (const auto& set : sets) {
      std::vector<Demand> d;
      for (const auto& k : set) d.push_back(demands.at(k));
      std::vector<double> share = water_fill(d);
      if (mode == "processes") share.assign(set.size(), 1.0 / static_cast<double>(set.size()));
      CorunCase c{mode, set, {}};
      for (std::size_t i = 0; i < set.size(); ++i) c.throughput.push_back(alone.at(set[i]) * f * share[i] * noise(rng));
      cases.push_back(c);
    }
  }
  const ContentionFit fit = fit_contention(cases, demands);
  ASSERT_EQ(fit.modes.size(), 3u);
  EXPECT_EQ(fit.modes[0].mode, "processes");
  EXPECT_EQ(fit.modes[1].mode, "mps");
  for (const ModeFit& m : fit.modes) {
    SCOPED_TRACE(m.mode);
    EXPECT_NEAR(m.factor, factor.at(m.mode), 0.01);
    EXPECT_LT(m.rms_relative_error, 0.03);
    for (const auto& [stressor, f] : m.per_stressor) EXPECT_NEAR(f, factor.at(m.mode), 0.02) << stressor;
    // 1% noise on each throughput: the ratios scatter by about 1% of ~0.5, and the factor, fitted
    // over 13 points, is known to a fraction of that.
    ASSERT_TRUE(m.factor_uncertainty.has_value());
    EXPECT_GT(m.factor_uncertainty->residual_sd, 0.001);
    EXPECT_LT(m.factor_uncertainty->residual_sd, 0.02);
    EXPECT_LT(m.factor_uncertainty->standard_error, m.factor_uncertainty->residual_sd);
    EXPECT_EQ(m.per_stressor_uncertainty.count("fma"), 1u);
  }
  EXPECT_EQ(fit.predictions.size(), 3u * 13u);
}

TEST(ContentionFit, FactorPerVictimStressorWhenTheyDiffer) {
  // fma loses nothing, triad loses 30% beyond its share, in streams.
  const std::map<std::string, Demand> demands = {{"fma", {1, 0}}, {"triad", {0.3, 1}}};
  std::vector<CorunCase> cases = {{"streams", {"fma"}, {100}}, {"streams", {"triad"}, {50}}};
  const double share = 1 / 1.3;
  cases.push_back({"streams", {"fma", "triad"}, {100 * share, 50 * 0.7 * share}});
  cases.push_back({"streams", {"triad", "fma"}, {50 * 0.7 * share, 100 * share}});
  const ContentionFit fit = fit_contention(cases, demands);
  ASSERT_EQ(fit.modes.size(), 1u);
  EXPECT_NEAR(fit.modes[0].per_stressor.at("fma"), 1.0, 1e-9);
  EXPECT_NEAR(fit.modes[0].per_stressor.at("triad"), 0.7, 1e-9);
  EXPECT_GT(fit.modes[0].rms_relative_error, 0.1);  // one factor cannot fit both
  // Each victim's factor fits its own points exactly; the mode's one factor leaves a scatter.
  EXPECT_NEAR(fit.modes[0].per_stressor_uncertainty.at("triad").residual_sd, 0.0, 1e-9);
  EXPECT_NEAR(fit.modes[0].per_stressor_uncertainty.at("fma").standard_error, 0.0, 1e-9);
  EXPECT_GT(fit.modes[0].factor_uncertainty->standard_error, 0.05);
}

TEST(ContentionFit, MissingAloneOrDemandIsAnError) {
  const std::map<std::string, Demand> demands = {{"fma", {1, 0}}};
  EXPECT_THROW(fit_contention({{"mps", {"fma", "fma"}, {1, 1}}}, demands), std::invalid_argument);
  EXPECT_THROW(fit_contention({{"mps", {"fma"}, {2}}, {"mps", {"fma", "smem"}, {1, 1}}}, demands),
               std::invalid_argument);
  EXPECT_THROW(fit_contention({{"mps", {"fma"}, {2}}}, demands), std::invalid_argument);  // no co-run case
}

TEST(SmScalingFit, RecoversTheParallelFraction) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(1.0, 0.005);
  std::vector<ScalingPoint> points;
  const std::map<std::string, double> p = {{"fma", 0.99}, {"l2", 0.4}};
  const std::vector<int> counts = {16, 19, 22, 26, 32, 44, 60, 64, 66, 132};
  for (const auto& [name, fraction] : p) {
    for (const int k : counts) {
      const double speed = 1 / ((1 - fraction) + fraction * 132.0 / k);
      points.push_back({name, k, k, 1e12 * speed * noise(rng)});
    }
  }
  // A DRAM-bound kernel saturates the memory system with 40 of 132 SMs.
  for (const int k : counts) points.push_back({"triad", k, k, 3e12 * std::min(1.0, k / 40.0)});
  const std::vector<ScalingCurve> curves = fit_sm_scaling(points);
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[0].stressor, "fma");
  EXPECT_EQ(curves[1].stressor, "l2");
  EXPECT_NEAR(curves[0].parallel_fraction, 0.99, 0.01);
  EXPECT_NEAR(curves[1].parallel_fraction, 0.4, 0.02);
  EXPECT_EQ(curves[0].reference_sms, 132);
  EXPECT_LT(curves[0].rms_relative_error, 0.02);
  // triad reaches 90% of its full speed at 44 SMs, fma only at all 132.
  EXPECT_NEAR(curves[2].sm_fraction_for_90_percent, 44.0 / 132, 1e-12);
  EXPECT_DOUBLE_EQ(curves[0].sm_fraction_for_90_percent, 1.0);
  EXPECT_GT(curves[2].rms_relative_error, 0.05);  // Amdahl does not describe saturation well
  // 0.5% noise: fma's p is known to better than 0.01; triad's saturation, which Amdahl does not
  // describe, leaves its p less certain.
  ASSERT_TRUE(curves[0].parallel_fraction_standard_error && curves[2].parallel_fraction_standard_error);
  EXPECT_LT(*curves[0].parallel_fraction_standard_error, 0.01);
  EXPECT_GT(*curves[2].parallel_fraction_standard_error, *curves[0].parallel_fraction_standard_error);
  EXPECT_FALSE(
      fit_sm_scaling({{"fma", 16, 16, 1.0}, {"fma", 132, 132, 8.0}})[0].parallel_fraction_standard_error.has_value());
  EXPECT_THROW(fit_sm_scaling({{"fma", 16, 16, 1.0}}), std::invalid_argument);
  EXPECT_THROW(fit_sm_scaling({{"fma", 16, 16, 0.0}, {"fma", 32, 32, 1.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace sharesim::calib
