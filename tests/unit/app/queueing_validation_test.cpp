// Analytic validation: exclusive GPUs with Poisson arrivals and exponential work are the
// M/M/c queue, whose mean wait is known in closed form (Erlang C; e.g. Kleinrock,
// "Queueing Systems", vol. 1, 1975, sec. 3.5; Harchol-Balter, "Performance Modeling and
// Design of Computer Systems", 2013, ch. 14):
//   a = lambda / mu, rho = a / c,
//   C(c, a) = [a^c / c! / (1 - rho)] / [sum_{k<c} a^k / k! + a^c / c! / (1 - rho)],
//   E[Wq] = C(c, a) / (c mu - lambda).
// The tolerance follows from the sample: R independent replications (seeds), each the mean
// wait of n jobs; the replication means are i.i.d., so their spread gives the standard
// error, and the test allows 4 standard errors (a 6e-5 false-alarm chance for a normal
// estimate). It also checks the test is sharp: the standard error must be a small fraction
// of the value, so a model 10% off would fail.
#include <gtest/gtest.h>

#include <cmath>

#include "run_helpers.h"

namespace sharesim {
namespace {

double erlang_c_mean_wait(int c, double lambda, double mu) {
  const double a = lambda / mu;
  const double rho = a / c;
  double term = 1;  // a^k / k!
  double sum = 0;
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double last = term / (1 - rho);  // a^c / c! / (1 - rho)
  const double wait_probability = last / (sum + last);
  return wait_probability / (c * mu - lambda);
}

using testing::Estimate;

Estimate replicated_mean_wait(int nodes, int gpus_per_node, double rate, double mean_service, int jobs,
                              int replications) {
  const std::string workload = R"({"generators": [{"kind": "training", "count": )" + std::to_string(jobs) +
                               R"(, "arrival": {"process": "poisson", "rate_per_s": )" + std::to_string(rate) +
                               R"(}, "duration": {"dist": "exponential", "mean_s": )" + std::to_string(mean_service) +
                               R"(}, "request": {"gpus": 1}}]})";
  const std::string scenario = testing::cluster_scenario(nodes, gpus_per_node, workload);
  return testing::replicate(scenario, replications, [jobs](const ScenarioRun& run) {
    EXPECT_EQ(run.metrics().completed, static_cast<std::uint64_t>(jobs));
    return run.metrics().wait_s.mean;
  });
}

TEST(QueueingValidation, SingleExclusiveGpuIsMM1) {
  // lambda = 0.5/s, mean service 1 s: rho = 0.5, E[Wq] = rho / (mu - lambda) = 1 s.
  const double theory = erlang_c_mean_wait(1, 0.5, 1.0);
  ASSERT_NEAR(theory, 1.0, 1e-12);
  const Estimate estimate = replicated_mean_wait(1, 1, 0.5, 1.0, 20000, 20);
  EXPECT_LT(estimate.standard_error, 0.025 * theory);
  RecordProperty("simulated_mean_wait_s", std::to_string(estimate.mean));
  RecordProperty("standard_error_s", std::to_string(estimate.standard_error));
  RecordProperty("theory_mean_wait_s", std::to_string(theory));
  EXPECT_NEAR(estimate.mean, theory, 4 * estimate.standard_error)
      << "simulated " << estimate.mean << " +- " << estimate.standard_error;
}

TEST(QueueingValidation, EightExclusiveGpusAreMMc) {
  // Two nodes of four GPUs: c = 8, rho = 0.8 with mean service 100 s.
  const double mu = 1.0 / 100, lambda = 0.8 * 8 * mu;
  const double theory = erlang_c_mean_wait(8, lambda, mu);
  const Estimate estimate = replicated_mean_wait(2, 4, lambda, 100, 40000, 20);
  EXPECT_LT(estimate.standard_error, 0.025 * theory);
  RecordProperty("simulated_mean_wait_s", std::to_string(estimate.mean));
  RecordProperty("standard_error_s", std::to_string(estimate.standard_error));
  RecordProperty("theory_mean_wait_s", std::to_string(theory));
  EXPECT_NEAR(estimate.mean, theory, 4 * estimate.standard_error)
      << "simulated " << estimate.mean << " +- " << estimate.standard_error << ", Erlang C " << theory;
}

TEST(QueueingValidation, ErlangCFormulaMatchesKnownValue) {
  // c = 2, a = 1 (rho = 0.5): C = 1/3, E[Wq] = (1/3) / (2 - 1) with mu = 1.
  EXPECT_NEAR(erlang_c_mean_wait(2, 1.0, 1.0), 1.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace sharesim
