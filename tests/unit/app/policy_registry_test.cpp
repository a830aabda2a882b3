// Sharing-policy configs are checked against the registry when the cluster is built.
#include "policies/policy_registry.h"

#include <gtest/gtest.h>

#include "run_helpers.h"
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
  EXPECT_EQ(sharing_policy_names(),
            (std::vector<std::string>{"exclusive", "timeslice", "mps", "vgpu", "mig", "fractional"}));
  const InputError e = sharing_error(R"({"policy": "migg"})");
  EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/policy");
  EXPECT_EQ(e.problem(), "unknown sharing policy \"migg\"; did you mean \"mig\"?");
}

TEST(PolicyRegistry, UnknownSettingNamesTheAllowedOnes) {
  const InputError e = sharing_error(R"({"policy": "exclusive", "replicas": 4})");
  EXPECT_EQ(e.where(), "/cluster/node_pools/0/sharing/replicas");
  EXPECT_EQ(e.problem(), "unknown key \"replicas\" for sharing policy \"exclusive\"; allowed: \"policy\"");
}

}  // namespace
}  // namespace sharesim
