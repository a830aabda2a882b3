// The scenario schema's workload keys for the generators and importers: what it accepts and
// the one-line errors for what it does not (the loader validates with the published schema).
#include <gtest/gtest.h>

#include "sim/scenario/scenario.h"
#include "tests/unit/workloads/workload_test_helpers.h"

namespace sharesim::testing {
namespace {

std::string scenario_with(const nlohmann::json& workload) {
  nlohmann::json doc{{"name", "s"},
                     {"cluster",
                      {{"node_pools",
                        {{{"name", "p"},
                          {"nodes", 2},
                          {"gpu", "V100-32GB"},
                          {"gpus_per_node", 8},
                          {"cpu_milli", 64000},
                          {"memory_mib", 262144}}}}}},
                     {"workload", workload}};
  return doc.dump();
}

std::string loader_error(const nlohmann::json& workload) {
  return input_error_of([&] { load_scenario_text(scenario_with(workload), "s.json", GpuCatalog::builtin()); });
}

nlohmann::json one_generator(nlohmann::json arrival) {
  return {{"generators",
           {{{"kind", "batch"},
             {"count", 5},
             {"arrival", std::move(arrival)},
             {"duration", {{"dist", "pareto"}, {"mean_s", 60}, {"alpha", 1.5}}}}}}};
}

TEST(WorkloadSchema, AcceptsEveryNewKey) {
  EXPECT_EQ(loader_error(one_generator(
                {{"process", "diurnal"}, {"rate_per_s", 0.1}, {"amplitude", 0.5}, {"period", "1d"}, {"peak", "14h"}})),
            "");
  EXPECT_EQ(loader_error(one_generator(
                {{"process", "mmpp"},
                 {"states", {{{"rate_per_s", 1}, {"mean_stay", "1m"}}, {{"rate_per_s", 0}, {"mean_stay", "1h"}}}}})),
            "");
  nlohmann::json mixed = one_generator({{"process", "poisson"}, {"rate_per_s", 1}});
  mixed["generators"][0]["mix"] = {{{"weight", 2}, {"request", {{"gpus", 2}}}, {"pods", 2}},
                                   {{"weight", 1}, {"duration", {{"dist", "constant"}, {"mean_s", 5}}}}};
  EXPECT_EQ(loader_error(mixed), "");
  EXPECT_EQ(loader_error({{"trace",
                           {{"format", "gavel"},
                            {"path", kTraceDir + "/gavel_small.trace"},
                            {"throughputs", kTraceDir + "/gavel_throughputs.json"},
                            {"worker_type", "v100"},
                            {"skip_bad_rows", true},
                            {"sort", true},
                            {"name", "msr"},
                            {"kind", "batch"},
                            {"gpu_product", "V100-32GB"}}}}),
            "");
  EXPECT_EQ(loader_error({{"generators",
                           {{{"kind", "training"},
                             {"count", 5},
                             {"arrival", {{"process", "poisson"}, {"rate_per_s", 1}}},
                             {"resample", {{"format", "helios"}, {"path", kTraceDir + "/helios_small.csv"}}}}}}}),
            "");
}

TEST(WorkloadSchema, RejectsWithOneLine) {
  EXPECT_EQ(loader_error(one_generator({{"process", "diurnal"}, {"rate_per_s", 0.1}})),
            "s.json: /workload/generators/0/arrival: missing required key \"amplitude\"");
  EXPECT_EQ(loader_error(one_generator({{"process", "diurnal"}, {"rate_per_s", 0.1}, {"amplitude", 1.5}})),
            "s.json: /workload/generators/0/arrival/amplitude: expected a number from 0 to 1, found 1.5");
  EXPECT_NE(loader_error(
                one_generator(
                    {{"process", "mmpp"},
                     {"rate_per_s", 1},
                     {"states", {{{"rate_per_s", 1}, {"mean_stay", "1m"}}, {{"rate_per_s", 0}, {"mean_stay", "1h"}}}}}))
                .find("/workload/generators/0/arrival/rate_per_s: unknown key \"rate_per_s\""),
            std::string::npos);
  EXPECT_NE(loader_error(one_generator({{"process", "mmpp"}, {"states", {{{"rate_per_s", 1}, {"mean_stay", "1m"}}}}}))
                .find("/workload/generators/0/arrival/states"),
            std::string::npos);
  nlohmann::json pareto = one_generator({{"process", "poisson"}, {"rate_per_s", 1}});
  pareto["generators"][0]["duration"]["alpha"] = 1;
  EXPECT_EQ(loader_error(pareto), "s.json: /workload/generators/0/duration/alpha: expected a number > 1, found 1");
  EXPECT_EQ(loader_error({{"trace", {{"format", "gavel"}, {"path", kTraceDir + "/gavel_small.trace"}}}}),
            "s.json: /workload/trace: missing required key \"throughputs\"");
  EXPECT_NE(loader_error({{"trace", {{"format", "alibaba"}, {"path", kTraceDir + "/gavel_small.trace"}}}})
                .find("/workload/trace/format: expected one of \"native\", \"openb\""),
            std::string::npos);
}

// Tolerations Kubernetes' API validation refuses (ValidateTolerations in
// pkg/apis/core/validation/validation.go) are located errors, not tolerations that match
// something else: an empty key with operator Equal, and a value with operator Exists.
TEST(Tolerations, ThoseKubernetesRejectsAreLocatedErrors) {
  const auto error = [](const nlohmann::json& tolerations) {
    return input_error_of([&] {
      BuiltWorkload w(nlohmann::json{
          {"jobs", {{{"name", "j"}, {"duration", "10s"}, {"request", {{"gpus", 1}, {"tolerations", tolerations}}}}}}});
    });
  };
  const std::string at = "scenario.json: /workload/jobs/0/request/tolerations/";
  EXPECT_EQ(error(nlohmann::json::parse(R"([{"key": "a", "value": "x"}, {"operator": "Equal", "value": "research"}])")),
            at + "1/operator: expected \"Exists\" when \"key\" is empty (Kubernetes: operator must be Exists when "
                 "key is empty, which means \"match all values and all keys\"), found \"Equal\"");
  EXPECT_EQ(error(nlohmann::json::parse(R"([{"value": "research"}])")),
            at + "0: expected \"operator\": \"Exists\" when \"key\" is empty (Kubernetes: operator must be "
                 "Exists when key is empty, which means \"match all values and all keys\"), found no \"operator\" "
                 "(Equal by default)");
  EXPECT_EQ(
      error(nlohmann::json::parse(R"([{"key": "a", "operator": "Exists", "value": "x"}])")),
      at +
          "0/value: expected no \"value\" with \"operator\": \"Exists\" (Kubernetes: value must be empty when operator "
          "is Exists), found \"x\"");
  // What Kubernetes accepts: Exists without a key (every taint), with an empty value too.
  EXPECT_EQ(error(nlohmann::json::parse(
                R"([{"operator": "Exists"}, {"key": "", "operator": "Exists", "value": ""}, {"key": "a"},
                    {"key": "a", "operator": "Exists", "effect": "NoSchedule"}])")),
            "");
}

}  // namespace
}  // namespace sharesim::testing
