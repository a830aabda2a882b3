// Per-pool sharing variants (apps/sharing_variant.h): a variant that names pools changes only
// those, the whole-cluster form still changes every GPU pool, and mistakes are located.
#include "apps/sharing_variant.h"

#include <gtest/gtest.h>

#include "apps/compare_run.h"
#include "run_helpers.h"

namespace sharesim {
namespace {

// Two GPU pools (train: exclusive, inference: timeslice) and a CPU pool.
std::string two_pool_scenario(const std::string& variants) {
  return R"({"name": "t", "seed": 3, "until": "2h",
    "cluster": {"node_pools": [
      {"name": "train", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "inference", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000,
       "memory_mib": 262144, "sharing": {"policy": "timeslice", "replicas": 2}},
      {"name": "cpu", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 0, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"generators": [{"kind": "training", "count": 20,
      "arrival": {"process": "poisson", "rate_per_s": 0.01},
      "duration": {"dist": "exponential", "mean_s": 300}, "request": {"gpus": 1}}]},
    "compare": {"variants": )" +
         variants + "}}";
}

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SharingVariant, PerPoolVariantChangesOnlyTheNamedPool) {
  const Scenario scenario = testing::scenario_from_text(
      two_pool_scenario(R"({"inf-mig": {"pools": {"inference": {"policy": "mig", "strategy": "single",
                                                                  "layout": "all-1g.10gb"}}}})"));
  const SharingVariant variant = sharing_variant(scenario, "inf-mig");
  EXPECT_TRUE(variant.per_pool);
  EXPECT_EQ(variant.policy, "mig");
  const Scenario applied = apply_sharing_variant(scenario, variant);
  EXPECT_EQ(applied.node_pools[0].sharing.value("policy", "exclusive"), "exclusive");  // train keeps its own
  EXPECT_EQ(applied.node_pools[1].sharing["policy"], "mig");
  EXPECT_EQ(applied.node_pools[1].sharing["layout"], "all-1g.10gb");
  EXPECT_EQ(applied.document["cluster"]["node_pools"][1]["sharing"]["policy"], "mig");
  EXPECT_FALSE(applied.document["cluster"]["node_pools"][0].contains("sharing"));
  EXPECT_EQ(variant.sharing_summary().dump(),
            R"({"inference":{"policy":"mig","strategy":"single","layout":"all-1g.10gb"}})");
}

TEST(SharingVariant, PerPoolVariantTakesBuiltInNamesPerPool) {
  const Scenario scenario =
      testing::scenario_from_text(two_pool_scenario(R"({"mixed": {"pools": {"train": "mps", "inference": "mig"}}})"));
  const SharingVariant variant = sharing_variant(scenario, "mixed");
  EXPECT_EQ(variant.policy, "mps+mig");
  const Scenario applied = apply_sharing_variant(scenario, variant);
  EXPECT_EQ(applied.node_pools[0].sharing["policy"], "mps");
  EXPECT_EQ(applied.node_pools[0].sharing["replicas"], 4);
  EXPECT_EQ(applied.node_pools[1].sharing["layout"], "all-2g.20gb");
  EXPECT_TRUE(variant.sharing[2].is_null());  // the CPU pool
}

TEST(SharingVariant, WholeClusterFormStillChangesEveryGpuPool) {
  const Scenario scenario =
      testing::scenario_from_text(two_pool_scenario(R"({"ts8": {"policy": "timeslice", "replicas": 8}})"));
  const SharingVariant variant = sharing_variant(scenario, "ts8");
  EXPECT_FALSE(variant.per_pool);
  const Scenario applied = apply_sharing_variant(scenario, variant);
  EXPECT_EQ(applied.node_pools[0].sharing["replicas"], 8);
  EXPECT_EQ(applied.node_pools[1].sharing["replicas"], 8);
  EXPECT_EQ(variant.sharing_summary().dump(), R"({"policy":"timeslice","replicas":8})");
}

TEST(SharingVariant, UnknownPoolIsLocatedWithASuggestion) {
  const Scenario scenario = testing::scenario_from_text(two_pool_scenario(R"({"x": {"pools": {"inferense": "mig"}}})"));
  EXPECT_EQ(message_of([&] { sharing_variant(scenario, "x"); }),
            "<test>: /compare/variants/x/pools/inferense: no node pool with GPUs is named \"inferense\" in <test>; "
            "did you mean \"inference\"?");
  const Scenario cpu = testing::scenario_from_text(two_pool_scenario(R"({"x": {"pools": {"cpu": "mig"}}})"));
  EXPECT_NE(
      message_of([&] { sharing_variant(cpu, "x"); }).find("/compare/variants/x/pools/cpu: no node pool with GPUs"),
      std::string::npos);
  const Scenario extra =
      testing::scenario_from_text(two_pool_scenario(R"({"x": {"pools": {"train": "mps"}, "policy": "mps"}})"));
  EXPECT_EQ(message_of([&] { sharing_variant(extra, "x"); }),
            "<test>: /compare/variants/x/policy: a per-pool variant has only \"pools\"; found also \"policy\"");
}

TEST(SharingVariant, CompareRunsPerPoolVariantsAndLocatesTheirErrors) {
  const Scenario scenario = testing::scenario_from_text(
      two_pool_scenario(R"({"inf-mps": {"pools": {"inference": {"policy": "mps", "replicas": 2}}},
                           "bad": {"pools": {"inference": {"policy": "mps", "replicaz": 2}}}})"));
  CompareRun compare(scenario, GpuCatalog::builtin(), {"exclusive", "inf-mps"});
  compare.run();
  const auto& results = compare.results();
  ASSERT_EQ(results.size(), 2u);
  const auto& pools = results[1].run->scenario().node_pools;
  EXPECT_EQ(pools[0].sharing.value("policy", "exclusive"), "exclusive");
  EXPECT_EQ(pools[1].sharing["policy"], "mps");
  // compare.csv names the pools the variant sets, as flat text (no JSON in cells).
  EXPECT_NE(compare.csv().find("inf-mps,mps,inference: policy=mps replicas=2,"), std::string::npos) << compare.csv();
  const std::string error = message_of([&] { CompareRun(scenario, GpuCatalog::builtin(), {"bad"}); });
  EXPECT_EQ(error.rfind("<test>: /compare/variants/bad/pools/inference/replicaz: ", 0), 0u) << error;
}

}  // namespace
}  // namespace sharesim
