// A policy defined outside policies/ plugs in with one registration line and runs in a scenario:
// the scenario names it, compare knows it, and its settings are checked by its own factory.
#include <gtest/gtest.h>

#include "apps/compare_run.h"
#include "apps/sharing_variant.h"
#include "apps/summary_table.h"
#include "policies/policy_registry.h"
#include "run_helpers.h"
#include "tests/policies/fixed_rate_policy.h"

namespace sharesim {
namespace {

// The one line that registers the test policy in this test executable.
const bool kFixedRateRegistered = register_sharing_policy(testing::fixed_rate_policy_entry());

std::string two_jobs_on(const std::string& sharing) {
  return testing::shared_scenario(
      1, 1, sharing, testing::jobs_workload({{"a", 0, 100, R"({"gpus": 1})"}, {"b", 0, 100, R"({"gpus": 1})"}}));
}

TEST(TestPolicy, RunsInAScenarioAtItsFixedRate) {
  ASSERT_TRUE(kFixedRateRegistered);
  // Two 100 s jobs share the one GPU's two slots; each runs at rate 0.25, so both end at 400 s.
  const auto run = testing::run_text(two_jobs_on(R"({"policy": "fixed-rate", "rate": 0.25})"));
  ASSERT_EQ(run->runtime().jobs().size(), 2u);
  for (const JobRecord& job : run->runtime().jobs()) {
    EXPECT_EQ(job.start, 0);
    EXPECT_EQ(job.end, 400 * kSecond);
  }
  EXPECT_EQ(run->cluster().pools().front().policy, "fixed-rate");
  EXPECT_EQ(run->cluster().gpu(0).sharing->traits().policy_name, "fixed-rate");
}

TEST(TestPolicy, OneSlotQueuesTheSecondJob) {
  // Its own setting: with one slot the second job waits for the first (200 s at rate 0.5).
  const auto run = testing::run_text(two_jobs_on(R"({"policy": "fixed-rate", "slots": 1})"));
  ASSERT_EQ(run->runtime().jobs().size(), 2u);
  EXPECT_EQ(run->runtime().jobs()[0].end, 200 * kSecond);
  EXPECT_EQ(run->runtime().jobs()[1].start, 200 * kSecond);
  EXPECT_EQ(run->runtime().jobs()[1].end, 400 * kSecond);
}

TEST(TestPolicy, ItsFactoryChecksItsConfig) {
  try {
    testing::run_text(two_jobs_on(R"({"policy": "fixed-rate", "rate": 0})"));
    FAIL() << "expected an InputError for rate 0";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/rate");
    EXPECT_EQ(e.problem(), "expected a number from 0.01 to 1, found 0");
  }
}

TEST(TestPolicy, CompareUsesItsDefaultButTheDemoDoesNotListIt) {
  const Scenario scenario = testing::scenario_from_text(two_jobs_on(R"({"policy": "exclusive"})"));
  const SharingVariant variant = sharing_variant(scenario, "fixed-rate");
  ASSERT_EQ(variant.sharing.size(), 1u);
  EXPECT_EQ(variant.sharing[0], (nlohmann::ordered_json{{"policy", "fixed-rate"}, {"rate", 0.25}}));
  EXPECT_EQ(default_compare_policies(), "exclusive,timeslice,mps,mig,vgpu,fractional");
  const std::vector<std::string> names = sharing_policy_names();
  EXPECT_EQ(names.back(), "fixed-rate");
}

TEST(TestPolicy, TheSummaryShowsSharingFiguresForIt) {
  const auto shared = testing::run_text(two_jobs_on(R"({"policy": "fixed-rate"})"));
  EXPECT_NE(format_summary_table(*shared, "out").find("sharing     SM utilization"), std::string::npos);
  const auto whole = testing::run_text(two_jobs_on(R"({"policy": "exclusive"})"));
  EXPECT_EQ(format_summary_table(*whole, "out").find("sharing     SM utilization"), std::string::npos);
}

}  // namespace
}  // namespace sharesim
