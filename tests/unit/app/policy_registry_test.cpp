// Sharing-policy configs are checked against the registry when the cluster is built.
#include "policies/policy_registry.h"

#include <gtest/gtest.h>

#include "run_helpers.h"
#include "sim/scenario/default_sharing.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

InputError sharing_error(const std::string& sharing) {
  const std::string scenario = R"({"name": "t", "cluster": {"node_pools": [
      {"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 1000, "memory_mib": 1000,
       "sharing": )" + sharing +
                               R"(}]}, "workload": {"jobs": [{"name": "j", "duration": "1s"}]}})";
  try {
    testing::run_text(scenario);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for " << sharing;
  return InputError("", "", "");
}

TEST(PolicyRegistry, MisspeltPolicySuggestsTheKnownOne) {
  const InputError e = sharing_error(R"({"policy": "exclusiv"})");
  EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/policy");
  EXPECT_EQ(e.problem(), "unknown sharing policy \"exclusiv\"; did you mean \"exclusive\"?");
}

TEST(PolicyRegistry, EveryBuiltInPolicyIsRegistered) {
  std::vector<std::string> builtin;
  for (const PolicyEntry& entry : builtin_policy_entries()) builtin.push_back(entry.name);
  EXPECT_EQ(builtin, (std::vector<std::string>{"exclusive", "timeslice", "mps", "mig", "vgpu", "fractional"}));
  const InputError e = sharing_error(R"({"policy": "migg"})");
  EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/policy");
  EXPECT_EQ(e.problem(), "unknown sharing policy \"migg\"; did you mean \"mig\"?");
}

TEST(PolicyRegistry, UnknownSettingNamesTheAllowedOnes) {
  const InputError e = sharing_error(R"({"policy": "exclusive", "replicas": 4})");
  EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/replicas");
  EXPECT_EQ(e.problem(), "unknown key \"replicas\" for sharing policy \"exclusive\"; allowed: \"policy\"");
}

// A pool that names no sharing gets the schema's default, which must be a registered policy
// that hands out whole GPUs (the scenario checker counts such a pool's GPUs per node).
TEST(PolicyRegistry, TheDefaultSharingIsAWholeGpuPolicy) {
  const PolicyEntry* policy = find_sharing_policy(default_pool_sharing().at("policy").get<std::string>());
  ASSERT_NE(policy, nullptr);
  EXPECT_TRUE(policy->whole_gpus);
}

}  // namespace
}  // namespace sharesim
