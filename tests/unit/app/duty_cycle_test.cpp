// The duty-cycle model of time-divided sharing (policies/time_sharing/duty_cycle.h,
// docs/models.md "Duty cycles"), alone and through the policies and a scenario.
#include "policies/time_sharing/duty_cycle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "policies/calibration/calibration_profile.h"
#include "run_helpers.h"

namespace sharesim {
namespace {

using namespace sharesim::testing;

// Brute force over every set S of queued contexts: weight w(|S|) prod u prod (1 - u), with
// w(k) = k! / (mu(1) ... mu(k)), mu(1) = 1, mu(k >= 2) = e; speed_i = Z(without i) / Z.
double normaliser(const std::vector<double>& u, double e) {
  const std::size_t n = u.size();
  double z = 0;
  for (std::size_t set = 0; set < (std::size_t{1} << n); ++set) {
    double weight = 1;
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const bool queued = (set >> i & 1u) != 0;
      weight *= queued ? u[i] : 1 - u[i];
      k += queued ? 1 : 0;
    }
    for (std::size_t m = 1; m <= k; ++m) weight *= static_cast<double>(m) / (m >= 2 ? e : 1.0);
    z += weight;
  }
  return z;
}

std::vector<double> speeds(const std::vector<double>& duty, double e) {
  std::vector<double> out(duty.size());
  duty_cycle_speeds(duty, e, out);
  return out;
}

TEST(DutyCycle, AlwaysBusyContextsGetTheRoundRobinShareExactly) {
  const double e = 2081600.0 / (2081600.0 + 184600.0);
  for (std::size_t n = 1; n <= 8; ++n) {
    const std::vector<double> out = speeds(std::vector<double>(n, 1.0), e);
    for (const double s : out) EXPECT_EQ(s, n == 1 ? 1.0 : e / static_cast<double>(n));
  }
}

TEST(DutyCycle, MatchesTheProductFormByEnumeration) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> duty(0.02, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 6);
    std::vector<double> u(n);
    for (double& v : u) v = duty(rng);
    const double e = 0.8 + 0.2 * static_cast<double>(trial % 5) / 4.0;
    const std::vector<double> out = speeds(u, e);
    const double z = normaliser(u, e);
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> others = u;
      others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
      EXPECT_NEAR(out[i], normaliser(others, e) / z, 1e-12) << "trial " << trial << " context " << i;
    }
  }
}

TEST(DutyCycle, TwoLightContextsBarelySlowEachOther) {
  // Two jobs busy 30% of the time: only overlapping busy periods compete.
  const double e = 0.93;
  const double z = 0.7 * 0.7 + 2 * 0.3 * 0.7 + 2 * 0.3 * 0.3 / e;
  const std::vector<double> out = speeds({0.3, 0.3}, e);
  EXPECT_NEAR(out[0], 1 / z, 1e-12);
  EXPECT_NEAR(out[1], 1 / z, 1e-12);
  EXPECT_GT(out[0], 0.9);
}

TEST(DutyCycle, BusierPartnersSlowAContextMore) {
  double previous = 1.0;
  for (const double partner : {0.1, 0.3, 0.5, 0.7, 0.9, 1.0}) {
    const double own = speeds({0.5, partner}, 0.95)[0];
    EXPECT_LT(own, previous);
    previous = own;
  }
}

TEST(DutyCycle, IdleContextsTakeNoTurnsAndALoneContextRunsAtFullSpeed) {
  const std::vector<double> out = speeds({0.0, 0.4, 0.0}, 0.9);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_EQ(out[1], 1.0);
  EXPECT_EQ(out[2], 0.0);
}

TEST(DutyCycle, ManyContextsStayFiniteAndBounded) {
  // 600 contexts: w(k) = k! / e^(k-1) overflows a double long before k = 600.
  std::vector<double> u(600);
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = 0.001 + 0.998 * static_cast<double>(i) / 599.0;
  const std::vector<double> out = speeds(u, 0.9);
  for (const double s : out) {
    EXPECT_TRUE(std::isfinite(s));
    EXPECT_GT(s, 0.0);
    EXPECT_LE(s, 1.0);
  }
  // With many always-busy-ish contexts the share approaches e / n.
  const std::vector<double> busy = speeds(std::vector<double>(600, 0.999), 0.9);
  EXPECT_NEAR(busy[0], 0.9 / 600, 0.9 / 600 * 0.01);
}

// log Z for groups of identical contexts (duty, count), computed without a subtraction: the
// queued count's distribution as a convolution of binomials in log space, then
// log sum_k P(k) w(k). An independent route to the same product form for many contexts.
// `at_most_one`, when given, receives the chance that at most one context is queued.
double log_normaliser_of_groups(const std::vector<std::pair<double, std::size_t>>& groups, double e,
                                double* at_most_one = nullptr) {
  const double none = -std::numeric_limits<double>::infinity();
  const auto log_add = [none](double x, double y) {
    if (x == none) return y;
    if (y == none) return x;
    const double top = std::max(x, y);
    return top + std::log(std::exp(x - top) + std::exp(y - top));
  };
  std::vector<double> log_p{0.0};  // log P(k queued) over the groups so far
  for (const auto& [u, m] : groups) {
    std::vector<double> binomial(m + 1, none);
    for (std::size_t k = 0; k <= m; ++k) {
      if (u >= 1.0) {
        binomial[k] = k == m ? 0.0 : none;
        continue;
      }
      const auto kd = static_cast<double>(k), md = static_cast<double>(m);
      binomial[k] = std::lgamma(md + 1) - std::lgamma(kd + 1) - std::lgamma(md - kd + 1) + kd * std::log(u) +
                    (md - kd) * std::log1p(-u);
    }
    std::vector<double> next(log_p.size() + m, none);
    for (std::size_t i = 0; i < log_p.size(); ++i) {
      for (std::size_t j = 0; j <= m; ++j) next[i + j] = log_add(next[i + j], log_p[i] + binomial[j]);
    }
    log_p = std::move(next);
  }
  double log_z = none, log_w = 0;
  for (std::size_t k = 0; k < log_p.size(); ++k) {
    if (k >= 1) log_w += std::log(static_cast<double>(k)) - (k >= 2 ? std::log(e) : 0.0);
    log_z = log_add(log_z, log_p[k] + log_w);
  }
  if (at_most_one != nullptr) *at_most_one = std::exp(log_p[0] - log_z) + std::exp(log_p[1] - log_z);
  return log_z;
}

TEST(DutyCycle, ManyContextsMatchTheProductFormComputedWithoutSubtraction) {
  // Dividing the queued-count polynomial by one context from its low end alone lost every
  // digit of its high coefficients: 64 contexts of duty 0.3 ran at speed 1 instead of 0.05,
  // and 80 HAMi pods busy 30% of the time finished as if alone.
  using Groups = std::vector<std::pair<double, std::size_t>>;
  const double e = 1024000.0 / 1069570.0;  // A100-80GB's slice and switch gap
  for (const Groups& groups : {Groups{{0.3, 64}}, Groups{{0.3, 80}}, Groups{{0.1, 80}}, Groups{{0.05, 200}},
                               Groups{{0.3, 600}}, Groups{{0.7, 90}}, Groups{{0.3, 40}, {0.1, 30}, {0.9, 5}, {0.6, 20}},
                               Groups{{1.0, 2}, {0.3, 50}}, Groups{{0.999, 3}, {0.02, 300}}}) {
    std::vector<double> duty;
    for (const auto& [u, m] : groups) duty.insert(duty.end(), m, u);
    const std::vector<double> out = speeds(duty, e);
    double at_most_one = 0;
    const double log_z = log_normaliser_of_groups(groups, e, &at_most_one);
    EXPECT_NEAR(duty_cycle_turn_taking(duty, e), 1.0 - at_most_one, 1e-12);
    std::size_t first = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      Groups without = groups;
      --without[g].second;
      const double expected = std::exp(log_normaliser_of_groups(without, e) - log_z);
      EXPECT_NEAR(out[first], expected, expected * 1e-9)
          << groups.size() << " groups, first duty " << groups[0].first << ", group " << g;
      first += groups[g].second;
    }
  }
}

TEST(DutyCycle, TurnTakingIsTheChanceTwoOrMoreAreQueued) {
  const double e = 0.9;
  const double z = normaliser({0.4, 0.6}, e);
  EXPECT_NEAR(duty_cycle_turn_taking(std::vector<double>{0.4, 0.6}, e), 2 * 0.4 * 0.6 / e / z, 1e-12);
  EXPECT_EQ(duty_cycle_turn_taking(std::vector<double>{1.0, 1.0, 0.2}, e), 1.0);
  EXPECT_EQ(duty_cycle_turn_taking(std::vector<double>{0.5}, e), 0.0);
}

TEST(DutyCycle, ConcurrentSpeedsAreTheBusyRatesWhenAlwaysBusy) {
  const std::vector<double> duty{1.0, 1.0, 0.0}, solo{1.0, 1.0, 0.0}, busy{0.5, 0.7, 0.0};
  std::vector<double> speed(3);
  concurrent_duty_speeds(duty, solo, busy, speed);
  EXPECT_EQ(speed[0], 0.5);
  EXPECT_EQ(speed[1], 0.7);
  EXPECT_EQ(speed[2], 0.0);
}

TEST(DutyCycle, ConcurrentPairSolvesTheOverlapFixedPoint) {
  // Pair: the GPU-phase rate is the time average 1 / stretch_i = (1 - q_j) + q_j r_i, with the
  // partner's busy share q_j = u_j s_j / ((1 - u_j) + u_j s_j).
  const std::vector<double> duty{0.3, 0.8}, solo{1.0, 1.0}, busy{0.5, 0.6};
  std::vector<double> speed(2);
  concurrent_duty_speeds(duty, solo, busy, speed);
  const double s0 = 1 / speed[0], s1 = 1 / speed[1];  // cycle times
  const double stretch0 = (s0 - 0.7) / 0.3, stretch1 = (s1 - 0.2) / 0.8;
  const double q0 = 0.3 * stretch0 / s0, q1 = 0.8 * stretch1 / s1;
  EXPECT_NEAR(1 / stretch0, (1 - q1) + q1 * 0.5, 1e-9);
  EXPECT_NEAR(1 / stretch1, (1 - q0) + q0 * 0.6, 1e-9);
  // The lighter job loses less; both lose less than if always busy.
  EXPECT_GT(speed[0], 0.5);
  EXPECT_GT(speed[1], 0.6);
}

TEST(DutyCycle, ConcurrentCapSlowsTheGpuPhasesAndOnlyTheRestIsPressure) {
  // Capped at 0.6 alone, 0.5 while both are busy: a busy partner stretches the GPU phases by
  // 0.6 / 0.5, so 1 / stretch_i = (1 - q_j) 0.6 + q_j 0.5 (pair); host phases at full speed.
  const std::vector<double> duty{0.5, 0.5}, solo{0.6, 0.6}, busy{0.5, 0.5};
  std::vector<double> speed(2);
  concurrent_duty_speeds(duty, solo, busy, speed);
  const double stretch = (1 / speed[0] - 0.5) / 0.5;
  const double q = 0.5 * stretch * speed[0];
  EXPECT_NEAR(1 / stretch, (1 - q) * 0.6 + q * 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(speed[0], speed[1]);
  EXPECT_LT(speed[0], 1 / (0.5 + 0.5 / 0.6));  // alone: GPU phases at the cap's 0.6
  EXPECT_GT(speed[0], 1 / (0.5 + 0.5 / 0.5));  // the partner always busy
  // Alone, the cap slows only the GPU phases.
  std::vector<double> one(1);
  concurrent_duty_speeds(std::vector<double>{0.5}, std::vector<double>{0.5}, std::vector<double>{0.5}, one);
  EXPECT_DOUBLE_EQ(one[0], 1 / (0.5 + 0.5 / 0.5));
  // No pressure beyond the caps (busy = solo): paired as alone.
  concurrent_duty_speeds(duty, busy, busy, speed);
  EXPECT_DOUBLE_EQ(speed[0], 1 / (0.5 + 0.5 / 0.5));
}

TEST(DutyCycle, ConcurrentTripleAveragesOverWhichPartnersAreBusy) {
  // Three contexts: with k of the 2 partners busy the stretch is 1 + (k / 2)(1 / r - 1); the
  // GPU-phase rate averages 1 / stretch over every set of busy partners (independent phases).
  const std::vector<double> duty{0.2, 0.5, 0.9}, solo{1.0, 1.0, 1.0}, busy{0.3, 0.35, 0.4};
  std::vector<double> speed(3);
  concurrent_duty_speeds(duty, solo, busy, speed);
  std::vector<double> stretch(3), share(3);
  for (std::size_t i = 0; i < 3; ++i) {
    const double cycle = 1 / speed[i];
    stretch[i] = (cycle - (1 - duty[i])) / duty[i];
    share[i] = duty[i] * stretch[i] / cycle;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t j = (i + 1) % 3, k = (i + 2) % 3;
    double rate = 0;
    for (int bj = 0; bj <= 1; ++bj) {
      for (int bk = 0; bk <= 1; ++bk) {
        const double p = (bj ? share[j] : 1 - share[j]) * (bk ? share[k] : 1 - share[k]);
        rate += p / (1 + static_cast<double>(bj + bk) / 2.0 * (1 / busy[i] - 1));
      }
    }
    EXPECT_NEAR(1 / stretch[i], rate, 1e-9) << "context " << i;
    EXPECT_GT(speed[i], busy[i]);
  }
  // The busiest partner set slows the lightest job least: it is busy when they often are not.
  EXPECT_GT(speed[0], speed[2]);
}

// The MPS thread percentage caps the SMs a client uses while it has GPU work; its host phases
// need no SMs and run at full speed. A client that needs every SM (sm 1) capped at 50% runs its
// GPU phases at 0.5, so with duty 0.5 its speed is 1 / ((1 - u) + u / 0.5) = 2/3 (docs/models.md
// "Duty cycles", MPS). Two such clients split the SMs between their caps and use 2 x 0.5 x 0.5 of
// the bandwidth: neither presses on the other, so paired they run as alone. The cap used to count
// as a partner's pressure: 120.7 s paired (faster than the cap allows), 200 s alone (the cap
// applied to the host phases too).
TEST(DutyCycle, MpsThreadCapSlowsOnlyTheGpuPhasesAloneAndPaired) {
  const std::string sharing = R"({"policy": "mps", "replicas": 2})";
  const std::string request = R"({"gpus": 1, "demand": {"sm": 1, "bw": 0.5, "duty": 0.5}})";
  const auto alone = run_text(shared_scenario(1, 1, sharing, jobs_workload({{"a", 0, 100, request}})));
  const auto paired =
      run_text(shared_scenario(1, 1, sharing, jobs_workload({{"a", 0, 100, request}, {"b", 0, 100, request}})));
  EXPECT_NEAR(run_time_s(job_named(alone->runtime(), "a-0")), 150.0, 1e-6);
  EXPECT_NEAR(run_time_s(job_named(paired->runtime(), "a-0")), 150.0, 1e-6);
  EXPECT_NEAR(run_time_s(job_named(paired->runtime(), "b-0")), 150.0, 1e-6);
}

// Through a scenario: two training jobs that keep an A100 busy 30% of the time, time-sliced.
TEST(DutyCycle, TimeSlicedJobsWithLowUtilizationRunNearTheirSoloSpeed) {
  const std::string request = R"({"gpus": 1, "demand": {"gpu_util_pct": 30, "mem_mib": 1024}})";
  const auto run = run_text(shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 2})",
                                            jobs_workload({{"a", 0, 3600, request}, {"b", 0, 3600, request}})));
  const double slowdown = run_time_s(job_named(run->runtime(), "a-0")) / 3600.0;
  const auto& profile = builtin_calibration_profile("A100-80GB");
  const double e = profile.default_slice_ns.value /
                   (profile.default_slice_ns.value + profile.switch_cost_ns.value + profile.cache_refill_ns.value);
  const double z = 0.7 * 0.7 + 2 * 0.3 * 0.7 + 2 * 0.3 * 0.3 / e;
  EXPECT_NEAR(slowdown, z, 1e-6);
  EXPECT_LT(slowdown, 1.15);  // was 2 / e before duty cycles
}

TEST(DutyCycle, MeasuredFieldsMapOntoTheDemand) {
  const auto run = run_text(shared_scenario(
      1, 1, R"({"policy": "exclusive"})",
      jobs_workload(
          {{"a", 0, 60,
            R"({"gpus": 1, "demand": {"gpu_util_pct": 50, "mem_util_pct": 20, "sm_active": 0.4, "mem_mib": 10}})"}})));
  const PhaseDemand& demand = run->runtime().shapes().shapes[run->runtime().jobs()[0].spec.shape].demand;
  EXPECT_DOUBLE_EQ(demand.duty, 0.5);
  EXPECT_DOUBLE_EQ(demand.sm, 0.8);
  EXPECT_DOUBLE_EQ(demand.bw, 0.4);
  EXPECT_EQ(demand.mem_mib, 10);
}

TEST(DutyCycle, AMeasurementAndTheModelFieldItSetsAreRejectedTogether) {
  const std::string error = error_of(
      shared_scenario(1, 1, R"({"policy": "exclusive"})",
                      jobs_workload({{"a", 0, 60, R"({"gpus": 1, "demand": {"gpu_util_pct": 50, "duty": 0.5}})"}})));
  EXPECT_NE(error.find("/workload/jobs/0/request/demand/gpu_util_pct"), std::string::npos) << error;
  EXPECT_NE(error.find("found both"), std::string::npos) << error;
}

TEST(DutyCycle, UtilizationCountsOnlyTheBusyShare) {
  // One job busy 25% of the time, alone: the GPU's SMs are busy a quarter of the time.
  const auto run = run_text(
      shared_scenario(1, 1, R"({"policy": "exclusive"})",
                      jobs_workload({{"a", 0, 1000, R"({"gpus": 1, "demand": {"gpu_util_pct": 25, "sm": 1.0}})"}})));
  EXPECT_NEAR(run->gpu_usage()[0].sm_busy_ns / 1000e9, 0.25, 1e-9);
}

// Slice mode runs the host and GPU phases as events (sim/runtime/slice_level.h); over many
// phases each job's speed must match the fluid closed form within 2%.
TEST(DutyCycle, SliceModeAgreesWithTheFluidClosedForm) {
  const auto scenario = [](const std::string& fidelity) {
    const auto request = [](int pct) {
      return R"({"gpus": 1, "demand": {"gpu_util_pct": )" + std::to_string(pct) + R"(, "mem_mib": 100}})";
    };
    return shared_scenario(
        1, 1, R"({"policy": "timeslice", "replicas": 3, "fidelity": ")" + fidelity + R"("})",
        jobs_workload({{"a", 0, 1500, request(30)}, {"b", 0, 1500, request(50)}, {"c", 0, 1500, request(80)}}));
  };
  const auto fluid = run_text(scenario("fluid"));
  const auto slice = run_text(scenario("slice"));
  double fluid_total = 0, slice_total = 0;
  for (const std::string job : {"a", "b", "c"}) {
    const double fluid_time = run_time_s(job_named(fluid->runtime(), job + "-0"));
    const double slice_time = run_time_s(job_named(slice->runtime(), job + "-0"));
    EXPECT_NEAR(slice_time / fluid_time, 1.0, 0.02) << job;
    fluid_total += 1500 / fluid_time;
    slice_total += 1500 / slice_time;
  }
  EXPECT_NEAR(slice_total / fluid_total, 1.0, 0.02);
  // Slice mode really ran slices, and switched about as often as the fluid mode counts.
  EXPECT_GT(slice->metrics().context_switches, 1000.0);
  EXPECT_NEAR(slice->metrics().context_switches / fluid->metrics().context_switches, 1.0, 0.1);
}

// A cluster where one pool runs slice-level and another fluid: each GPU counts its own context
// switches (the fluid one used to report 0 once any pool ran slice-level).
TEST(DutyCycle, FluidGpusCountSwitchesBesideASliceLevelPool) {
  const std::string pool = R"({"name": "NAME", "nodes": 1, "gpu": "GPU", "gpus_per_node": 1, "cpu_milli": 64000,
      "memory_mib": 262144, "sharing": {"policy": "timeslice", "replicas": 2, "fidelity": "FIDELITY"}})";
  const auto make_pool = [&](const std::string& name, const std::string& gpu, const std::string& fidelity) {
    std::string text = pool;
    text.replace(text.find("NAME"), 4, name);
    text.replace(text.find("GPU"), 3, gpu);
    text.replace(text.find("FIDELITY"), 8, fidelity);
    return text;
  };
  const std::string a100 = R"({"gpus": 1, "gpu_product": "A100-80GB"})";
  const std::string h100 = R"({"gpus": 1, "gpu_product": "H100-80GB"})";
  const auto run = run_text(
      R"({"name": "t", "seed": 1, "cluster": {"node_pools": [)" + make_pool("fluid", "A100-80GB", "fluid") + "," +
      make_pool("sliced", "H100-80GB", "slice") + R"(]}, "workload": )" +
      jobs_workload({{"a1", 0, 600, a100}, {"a2", 0, 600, a100}, {"h1", 0, 600, h100}, {"h2", 0, 600, h100}}) + "}");
  const auto& usage = run->gpu_usage();
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_GT(usage[0].context_switches, 1e5);  // fluid A100: about 600 s / (slice + gap)
  EXPECT_GT(usage[1].context_switches, 1e5);  // slice-level H100: counted one by one
}

}  // namespace
}  // namespace sharesim
