// sharesim import k8s (importers/k8s/): the seed situations of issue 17 as manifests, imported,
// run, and compared with what Kubernetes does; and located errors for bad manifests.
#include "importers/k8s/k8s_import.h"

#include <gtest/gtest.h>

#include <fstream>

#include "apps/import_command.h"
#include "importers/k8s/quantity.h"
#include "importers/k8s/yaml_documents.h"
#include "run_helpers.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

std::string data(const std::string& name) { return std::string(SHARESIM_SOURCE_DIR) + "/tests/data/k8s/" + name; }

// The inputs of `sharesim import k8s`: nodes, device plugin config, mig-parted config, manifests.
K8sImportInputs inputs_of(const std::string& nodes, const std::string& plugin = "", const std::string& mig = "",
                          const std::vector<std::string>& workloads = {}) {
  K8sImportInputs inputs;
  inputs.nodes = nodes;
  inputs.device_plugin_config = plugin;
  inputs.mig_config = mig;
  inputs.workloads = workloads;
  return inputs;
}

nlohmann::ordered_json import_inputs(K8sImportInputs inputs) {
  inputs.name = "imported";
  return import_k8s(inputs, GpuCatalog::builtin()).scenario;
}

std::unique_ptr<ScenarioRun> run_imported(const nlohmann::ordered_json& scenario, const std::string& until) {
  return testing::run_text(scenario.dump(), {{"until", "\"" + until + "\""}});
}

std::string import_error(const K8sImportInputs& inputs) {
  try {
    import_inputs(inputs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(K8sImport, KubernetesQuantities) {
  using Json = nlohmann::ordered_json;
  EXPECT_EQ(cpu_milli_of(Json("63500m")).count, 63500);
  EXPECT_EQ(cpu_milli_of(Json("0.1")).count, 100);
  EXPECT_EQ(cpu_milli_of(Json(4)).count, 4000);
  EXPECT_EQ(memory_mib_of(Json("32Gi")).count, 32768);
  EXPECT_EQ(memory_mib_of(Json("515786112Ki")).count, 503698);  // 503697.375, rounded up
  EXPECT_EQ(memory_mib_of(Json("1G")).count, 954);              // 1e9 bytes, rounded up to whole MiB
  EXPECT_EQ(cpu_milli_of(Json("four")).count, std::nullopt);
  EXPECT_FALSE(cpu_milli_of(Json("four")).too_large);
  // "Ei" is a suffix (2^60), not an exponent; "E" alone is 10^18, "E3" an exponent.
  EXPECT_EQ(memory_mib_of(Json("1Ei")).count, std::int64_t{1} << 40);
  EXPECT_EQ(memory_mib_of(Json("1Pi")).count, std::int64_t{1} << 30);
  EXPECT_EQ(cpu_milli_of(Json("2E")).count, std::nullopt);  // 2e21 millicores
  EXPECT_EQ(cpu_milli_of(Json("2E3")).count, 2000000);
  EXPECT_EQ(cpu_milli_of(Json("+.5")).count, 500);
  // A valid quantity past what a count holds is too large, not "not a quantity".
  for (const Json& big : {Json("1Ei"), Json(1e30), Json("1e30"), Json("1e999999999999"), Json(std::string(400, '9'))}) {
    EXPECT_EQ(cpu_milli_of(big).count, std::nullopt) << big;
    EXPECT_TRUE(cpu_milli_of(big).too_large) << big;
  }
  EXPECT_EQ(quantity_problem(cpu_milli_of(Json(1e30)), Json(1e30), "a Kubernetes quantity", "millicores"),
            "expected at most 9007199254740992 millicores (2^53), found 1e+30, too large");
  EXPECT_EQ(quantity_problem(cpu_milli_of(Json("x")), Json("x"), "a Kubernetes quantity", "millicores"),
            "expected a Kubernetes quantity, found \"x\"");
}

TEST(K8sImport, DeploymentOfFiveTwoGpuReplicasOnTwoFourGpuNodes) {
  const auto scenario = import_inputs(
      inputs_of(data("two-nodes.json"), "", "", std::vector<std::string>{data("deployment-five-2gpu.yaml")}));
  // The two nodes differ only in the labels the cluster sets (hostname, GFD timestamp): one pool.
  const auto& pools = scenario["cluster"]["node_pools"];
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0]["nodes"], 2);
  EXPECT_EQ(pools[0]["gpu"], "A100-80GB");
  EXPECT_EQ(pools[0]["gpus_per_node"], 4);
  EXPECT_EQ(pools[0]["cpu_milli"], 63500);
  EXPECT_EQ(pools[0]["labels"], nlohmann::ordered_json({{"topology.kubernetes.io/zone", "zone-a"}}));
  const auto& job = scenario["workload"]["jobs"][0];
  EXPECT_EQ(job["replicas"], 5);
  EXPECT_EQ(job["duration"], "2h");
  EXPECT_EQ(job["request"]["limits"]["nvidia.com/gpu"], 2);
  EXPECT_EQ(job["request"]["cpu_milli"], 8000);
  EXPECT_EQ(job["request"]["memory_mib"], 32768);

  const auto run = run_imported(scenario, "10m");
  const auto& jobs = run->runtime().jobs();
  ASSERT_EQ(jobs.size(), 5u);
  int running = 0;
  for (const JobRecord& record : jobs) running += record.state == JobState::Running;
  EXPECT_EQ(running, 4);
  EXPECT_EQ(jobs[4].state, JobState::Pending);
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(jobs[4].spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
}

TEST(K8sImport, TimeSlicingConfigMapReplicasFourRenamedFailsGreaterThanOne) {
  const auto scenario = import_inputs(inputs_of(data("timeslice-node.yaml"), data("timeslice-configmap.yaml"), "",
                                                std::vector<std::string>{data("shared-pods.yaml")}));
  const auto& sharing = scenario["cluster"]["node_pools"][0]["sharing"];
  EXPECT_EQ(sharing, nlohmann::ordered_json::parse(
                         R"({"policy": "timeslice", "replicas": 4, "rename_by_default": true,
                             "fail_requests_greater_than_one": true})"));
  // The label that chose the config stays a node label (pods may select on it).
  EXPECT_EQ(scenario["cluster"]["node_pools"][0]["labels"]["nvidia.com/device-plugin.config"], "a100-ts4");
  EXPECT_EQ(scenario["workload"]["jobs"][0]["request"]["profile"], "a3c-train");

  const auto run = run_imported(scenario, "10m");
  const Cluster& cluster = run->cluster();
  ASSERT_EQ(cluster.nodes().size(), 1u);
  const Node& node = cluster.nodes()[0];
  const int shared = cluster.resource_names().find("nvidia.com/gpu.shared");
  ASSERT_GE(shared, 0);
  EXPECT_EQ(node.resource_capacity[static_cast<std::size_t>(shared)], 16);
  EXPECT_EQ(node.labels.at("nvidia.com/gpu.replicas"), "4");
  EXPECT_EQ(node.labels.at("nvidia.com/gpu.sharing-strategy"), "time-slicing");
  // Renamed replicas keep the plain product name (GFD adds -SHARED only to nvidia.com/gpu).
  EXPECT_EQ(node.labels.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");
  const auto& jobs = run->runtime().jobs();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].state, JobState::Running);
  EXPECT_EQ(jobs[1].state, JobState::Failed);  // asked for 2 replicas: refused at admission
}

TEST(K8sImport, MigPartedAllBalancedNodeWithMixedStrategy) {
  const auto scenario =
      import_inputs(inputs_of(data("mig-node.yaml"), data("mig-plugin-config.yaml"), data("mig-parted.yaml")));
  EXPECT_FALSE(scenario.contains("workload"));
  const auto& sharing = scenario["cluster"]["node_pools"][0]["sharing"];
  EXPECT_EQ(sharing["policy"], "mig");
  EXPECT_EQ(sharing["strategy"], "mixed");
  EXPECT_EQ(sharing["layout"], nlohmann::ordered_json::parse(R"(["1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb"])"));
  // A cluster-only scenario: describe-nodes builds its cluster, a run refuses it.
  const Scenario loaded = testing::scenario_from_text(scenario.dump());
  const ScenarioCluster built = build_scenario_cluster(loaded, GpuCatalog::builtin());
  const Node& node = built.cluster->nodes()[0];
  EXPECT_EQ(node.labels.at("nvidia.com/mig.strategy"), "mixed");
  EXPECT_EQ(node.labels.at("nvidia.com/mig-1g.10gb.count"), "16");  // 2 per GPU x 8 GPUs
  EXPECT_EQ(node.labels.at("nvidia.com/mig-3g.40gb.count"), "8");
  EXPECT_EQ(node.labels.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");
  EXPECT_NE(describe_nodes_text(*built.cluster).find("  nvidia.com/mig-2g.20gb:  8\n"), std::string::npos)
      << describe_nodes_text(*built.cluster);
  EXPECT_THROW(ScenarioRun(loaded, GpuCatalog::builtin()), InputError);
}

TEST(K8sImport, MigLabelNamesAKnownLayoutWithoutMigPartedFile) {
  const auto scenario = import_inputs(inputs_of(data("mig-node.yaml"), data("mig-plugin-config.yaml")));
  EXPECT_EQ(scenario["cluster"]["node_pools"][0]["sharing"]["layout"], "all-balanced");
}

TEST(K8sImport, ProductSelectorTaintAndLabelSelector) {
  const auto scenario = import_inputs(
      inputs_of(data("mixed-cluster.yaml"), "", "", std::vector<std::string>{data("selector-taint-pods.yaml")}));
  const auto& pools = scenario["cluster"]["node_pools"];
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[1]["gpu"], "H100-80GB");
  EXPECT_EQ(pools[1]["taints"][0]["key"], "dedicated");
  EXPECT_EQ(pools[2]["name"], "cpu");
  EXPECT_EQ(pools[2]["gpus_per_node"], 0);
  const auto& jobs = scenario["workload"]["jobs"];
  EXPECT_EQ(jobs[0]["request"]["gpu_product"], "H100-80GB");  // the GFD name, mapped to the catalog id
  EXPECT_EQ(jobs[0]["request"]["tolerations"][0]["value"], "research");
  EXPECT_EQ(jobs[2]["arrival"], "1s");
  EXPECT_EQ(jobs[3]["request"]["node_selector"]["team"], "shared");

  const auto run = run_imported(scenario, "10m");
  const auto& records = run->runtime().jobs();
  ASSERT_EQ(records.size(), 4u);
  const auto node_of = [&](const JobRecord& record) {
    return run->cluster().node(run->runtime().pods()[record.first_pod].node).name;
  };
  EXPECT_EQ(records[0].state, JobState::Running);
  EXPECT_EQ(node_of(records[0]), "h100-80gb-0");
  EXPECT_EQ(records[1].state, JobState::Running);
  EXPECT_EQ(node_of(records[1]), "a100-80gb-0");
  // The runtime's jobs are in arrival order: shared-team (0s) before intolerant (1s).
  EXPECT_EQ(records[2].state, JobState::Running);
  const std::string node = node_of(records[2]);
  EXPECT_TRUE(node == "a100-80gb-0" || node == "cpu-0") << node;  // the team=shared nodes
  EXPECT_EQ(records[3].state, JobState::Pending);                 // the H100 left is tainted
  EXPECT_EQ(run->runtime().scheduler().explain_unschedulable(records[3].spec),
            "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: research}, "
            "2 Insufficient nvidia.com/gpu.");
}

TEST(K8sImport, GfdProductNamesAreAcceptedWhereCatalogIdsAre) {
  const auto run = testing::run_text(R"({"name": "t", "until": "1m",
    "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "NVIDIA-A100-SXM4-80GB", "gpus_per_node": 2,
                                "cpu_milli": 8000, "memory_mib": 8192}]},
    "workload": {"jobs": [{"name": "j", "duration": "1h",
                           "request": {"gpus": 1, "gpu_product": "NVIDIA-A100-SXM4-80GB"}}]}})");
  EXPECT_EQ(run->scenario().node_pools[0].gpu, "A100-80GB");
  EXPECT_EQ(run->runtime().jobs()[0].state, JobState::Running);
}

TEST(K8sImport, TimeSlicedProductLabelGetsSharedSuffixWithoutRename) {
  const Scenario scenario = testing::scenario_from_text(R"({"name": "t",
    "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "T4", "gpus_per_node": 1, "cpu_milli": 8000,
                                "memory_mib": 8192, "sharing": {"policy": "timeslice", "replicas": 4}}]}})");
  const ScenarioCluster built = build_scenario_cluster(scenario, GpuCatalog::builtin());
  EXPECT_EQ(built.cluster->nodes()[0].labels.at("nvidia.com/gpu.product"), "Tesla-T4-SHARED");
  EXPECT_EQ(built.cluster->nodes()[0].labels.at("nvidia.com/gpu.replicas"), "4");
}

// YAML that parses but cannot become JSON: located errors, never an exception of yaml-cpp's
// or a crash (the first was found by fuzz_k8s_workload; tests/fuzz/corpus/k8s_workload/).
TEST(K8sImport, YamlThatIsNotJsonIsALocatedError) {
  const auto problem = [](const std::string& text) {
    try {
      parse_manifest_text(text, "m.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(problem("kind: Pod\nstatus: {? {a: 1} : 2}\n"),
            "m.yaml: line 2, column 12: expected a plain key (a string), found a map or list as a key");
  EXPECT_EQ(problem("kind: Pod\nreplicas: 1e400\n"), "m.yaml: line 2, column 11: expected a number a double can hold, "
                                                       "found 1e400");
  std::string deep = "a: ";
  for (int i = 0; i < 300; ++i) deep += "[";
  for (int i = 0; i < 300; ++i) deep += "]";
  EXPECT_NE(problem(deep + "\n").find("m.yaml: line 1, column "), std::string::npos) << problem(deep);
  // Aliases of aliases: 10 levels of 10 copies would be 1e10 values.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 10; ++i) {
    const std::string previous = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) bomb += previous + (k < 9 ? ", " : "]\n");
  }
  EXPECT_NE(problem(bomb).find("expected at most 1000000 values in one document"), std::string::npos) << problem(bomb);
  // yaml-cpp 0.7's LoadAll never returns on a "," where a node should start (fuzz_k8s_*):
  // each document is parsed alone, and text it stops at is an error.
  EXPECT_EQ(problem(",a\n"), "m.yaml: line 1: YAML syntax error: expected a document, found text that does not start one");
  EXPECT_EQ(problem("kind: Pod\n---\n,2vroplica, opape opape\n"),
            "m.yaml: line 2: YAML syntax error: expected a document, found text that does not start one");
  EXPECT_EQ(problem("kind: Pod\nmetadata: {name: \"a\xAF" "b\"}\n"),
            "m.yaml: line 2, column 20: expected UTF-8 text, found a byte that is not UTF-8");
  EXPECT_EQ(parse_manifest_text("---\n# only a comment\n---\nkind: A\n...\n---\nkind: B\n", "m.yaml").at(1).index, 4u);
  // A Kubernetes object of the wrong shape: the field and what it should hold.
  EXPECT_EQ(problem("kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: [1]}]}\n"),
            "m.yaml: document 1, /spec/containers/0/resources: expected an object, found a list");
  EXPECT_EQ(problem("kind: Pod\nmetadata: {name: p}\nspec: {containers: c}\n"),
            "m.yaml: document 1, /spec/containers: expected a list, found \"c\"");
  EXPECT_EQ(problem("kind: 3\n"), "m.yaml: document 1, /kind: expected a string, found 3");
  // Inside label maps any key is the user's: a label named "spec" is not a spec.
  EXPECT_EQ(problem("kind: Pod\nmetadata: {name: p, labels: {spec: x}}\n"), "accepted");
  // The core schema's scalars still type as before.
  const auto documents = parse_manifest_text("a: 1\nb: 1.5\nc: .5\nd: 1.\ne: -2e3\nf: true\ng: ~\nh: 1.2.3\ni: '7'\n",
                                             "m.yaml");
  EXPECT_EQ(documents.at(0).value.dump(), R"({"a":1,"b":1.5,"c":0.5,"d":1.0,"e":-2000.0,"f":true,"g":null,"h":"1.2.3","i":"7"})");
}

TEST(K8sImport, ErrorsNameFileDocumentAndPath) {
  const std::string nodes = data("two-nodes.json");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", std::vector<std::string>{data("bad-yaml.yaml")})),
            data("bad-yaml.yaml") + ": line 6, column 1: YAML syntax error: end of sequence flow not found");
  const std::string unknown =
      import_error(inputs_of(nodes, "", "", std::vector<std::string>{data("unknown-kind.yaml")}));
  EXPECT_EQ(unknown.rfind(data("unknown-kind.yaml") + ": document 2, /kind: expected one of \"Pod\", ", 0), 0u)
      << unknown;
  EXPECT_NE(unknown.find("found \"Service\""), std::string::npos) << unknown;
  const std::string product = import_error(inputs_of(data("unknown-product-node.yaml")));
  EXPECT_EQ(product.rfind(data("unknown-product-node.yaml") +
                              ": document 1, /metadata/labels/nvidia.com~1gpu.product: unknown GPU product "
                              "\"NVIDIA-Quantum-9000\"; the catalog knows \"NVIDIA-A100-SXM4-40GB\" (A100-40GB), ",
                          0),
            0u)
      << product;
  // A node label naming a config the ConfigMap lacks.
  const std::string config = import_error(inputs_of(data("mig-node.yaml"), data("timeslice-configmap.yaml")));
  EXPECT_EQ(config, data("mig-node.yaml") +
                        ": document 1, /metadata/labels/nvidia.com~1device-plugin.config: no device plugin config "
                        "named \"mixed\" in " +
                        data("timeslice-configmap.yaml") + " (it has \"default\", \"a100-ts4\")");
}

TEST(K8sImport, PriorityClassesAndPreemptionFromManifests) {
  const auto scenario =
      import_inputs(inputs_of(data("two-nodes.json"), "", "", std::vector<std::string>{data("preemption-pods.yaml")}));
  const auto& scheduler = scenario["scheduler"];
  EXPECT_EQ(scheduler["queue"], "priority");
  EXPECT_EQ(scheduler["preemption"], true);  // kube-scheduler's DefaultPreemption is on by default
  EXPECT_EQ(scheduler["priority_classes"], nlohmann::ordered_json::parse(R"({"low": {"value": 100},
      "high": {"value": 1000}, "polite": {"value": 500, "preemption_policy": "Never"}})"));
  EXPECT_EQ(scenario["workload"]["jobs"][1]["priority_class"], "high");

  const auto run = run_imported(scenario, "10m");
  const auto& jobs = run->runtime().jobs();
  ASSERT_EQ(jobs.size(), 5u);  // low-trainer-0, -1, urgent, low-latecomer, polite (arrival order)
  const auto name = [&](const JobRecord& job) { return run->runtime().job_name(job); };
  EXPECT_EQ(name(jobs[0]), "low-trainer-0");
  EXPECT_EQ(jobs[0].kill_cause, KillCause::Preempted);  // both nodes cost the same: the first
  EXPECT_EQ(jobs[1].state, JobState::Running);
  EXPECT_EQ(name(jobs[2]), "urgent-0");
  EXPECT_EQ(jobs[2].state, JobState::Running);
  EXPECT_EQ(run->cluster().node(run->runtime().pods()[jobs[2].first_pod].node).name, "a100-80gb-0");
  EXPECT_EQ(run->runtime().explain_pending(jobs[3].spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No "
            "preemption victims found for incoming pod.");
  EXPECT_EQ(run->runtime().explain_pending(jobs[4].spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

TEST(K8sImport, KubeSchedulerConfigurationWithTwoWeightedScorePlugins) {
  K8sImportInputs inputs =
      inputs_of(data("two-nodes.json"), "", "", std::vector<std::string>{data("spread-pods.yaml")});
  inputs.scheduler_config = data("scheduler-config-weighted.yaml");
  const auto scenario = import_inputs(inputs);
  EXPECT_FALSE(scenario["scheduler"].contains("placement"));
  EXPECT_EQ(scenario["scheduler"]["score_plugins"], nlohmann::ordered_json::parse(R"([
      {"name": "NodeResourcesFit", "weight": 5, "strategy": "MostAllocated",
       "resources": [{"name": "nvidia.com/gpu", "weight": 10}, {"name": "cpu", "weight": 1}]},
      {"name": "NodeResourcesBalancedAllocation", "weight": 1}])"));
  EXPECT_EQ(scenario["scheduler"]["preemption"], true);
  // GPU bin packing outweighs balance: the second pod joins the first.
  const auto run = run_imported(scenario, "10m");
  EXPECT_EQ(testing::nodes_of(*run), (std::vector<std::string>{"a100-80gb-0", "a100-80gb-0"}));
}

TEST(K8sImport, SchedulerConfigDefaultsAndDisabledPreemption) {
  const std::string path = ::testing::TempDir() + "/scheduler-config-defaults.yaml";
  std::ofstream(path) << R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - plugins:
      score:
        disabled: [{name: NodeResourcesBalancedAllocation}]
        enabled: [{name: FGDScore, weight: 3}]
      postFilter:
        disabled: [{name: DefaultPreemption}]
)";
  K8sImportInputs inputs = inputs_of(data("two-nodes.json"));
  inputs.scheduler_config = path;
  const auto scenario = import_inputs(inputs);
  EXPECT_EQ(scenario["scheduler"]["score_plugins"], nlohmann::ordered_json::parse(R"([
      {"name": "NodeResourcesFit", "weight": 1, "strategy": "LeastAllocated"},
      {"name": "FGDScore", "weight": 3}])"));
  EXPECT_EQ(scenario["scheduler"]["preemption"], false);
}

TEST(K8sImport, BadSchedulerConfigIsLocated) {
  K8sImportInputs inputs = inputs_of(data("two-nodes.json"));
  inputs.scheduler_config = data("bad-scheduler-config.yaml");
  const std::string error = import_error(inputs);
  EXPECT_EQ(error.rfind(data("bad-scheduler-config.yaml") +
                            ": document 1, /profiles/0/plugins/score/enabled/1/name: unknown plugin "
                            "\"NodeResourcesMostAllocated\"; sharesim scores with \"NodeResourcesFit\", ",
                        0),
            0u)
      << error;
}

// A manifest written to a temporary file; its path.
std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "k8s_import_test_" + name;
  std::ofstream(path) << text;
  return path;
}

// One Node's YAML: labels as a flow mapping's entries, its allocatable, and the spec's lines.
std::string node_yaml(const std::string& name, const std::string& allocatable, const std::string& spec = "",
                      const std::string& count = "4") {
  return "kind: Node\nmetadata: {name: " + name +
         ", labels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB, nvidia.com/gpu.count: \"" + count + "\"}}\n" +
         (spec.empty() ? "" : "spec: " + spec + "\n") + "status: {allocatable: {cpu: \"64\", memory: 256Gi" +
         (allocatable.empty() ? "" : ", " + allocatable) + "}}\n";
}

// A Pod's YAML with one container whose resources are given.
std::string pod_yaml(const std::string& name, const std::string& resources, const std::string& spec = "") {
  return "kind: Pod\nmetadata: {name: " + name + "}\nspec:\n" + spec +
         "  containers:\n  - name: c\n    resources: " + resources + "\n";
}

TEST(K8sImport, QuantitySuffixEiIsReadAndTooLargeQuantitiesAreLocated) {
  using Json = nlohmann::ordered_json;
  // 1Ei of memory is 2^40 MiB: a count the scenario holds (it crashed on "Ei" before).
  const std::string node = temp_file("ei-node.yaml",
                                     "kind: Node\nmetadata: {name: big}\n"
                                     "status: {allocatable: {cpu: \"64\", memory: 1Ei}}\n");
  const std::string pod = temp_file("ei-pod.yaml", pod_yaml("p", "{requests: {memory: 1Ei}}"));
  const auto scenario = import_inputs(inputs_of(node, "", "", {pod}));
  EXPECT_EQ(scenario["cluster"]["node_pools"][0]["memory_mib"], Json(std::int64_t{1} << 40));
  EXPECT_EQ(scenario["workload"]["jobs"][0]["request"]["memory_mib"], Json(std::int64_t{1} << 40));
  // 1Ei CPUs, or 1e30, is a quantity, too large to count in millicores.
  const std::string cpu = temp_file("ei-cpu.yaml", pod_yaml("p", "{requests: {cpu: 1Ei}}"));
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {cpu})),
            cpu +
                ": document 1, /spec/containers/0/resources/requests/cpu: expected at most 9007199254740992 "
                "millicores (2^53), found \"1Ei\", too large");
  const std::string huge = temp_file("huge-cpu.yaml", pod_yaml("p", "{requests: {cpu: 1e30}}"));
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {huge})),
            huge +
                ": document 1, /spec/containers/0/resources/requests/cpu: expected at most 9007199254740992 "
                "millicores (2^53), found 1e+30, too large");
  const std::string node_cpu = temp_file("ei-node-cpu.yaml",
                                         "kind: Node\nmetadata: {name: big}\n"
                                         "status: {allocatable: {cpu: 1Ei, memory: 1Gi}}\n");
  EXPECT_EQ(import_error(inputs_of(node_cpu)), node_cpu +
                                                   ": document 1, /status/allocatable/cpu: expected at most "
                                                   "9007199254740992 millicores (2^53), found \"1Ei\", too large");
  // Containers whose sum passes 2^53 millicores: refused, not overflowed.
  std::string many = "kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n";
  for (int i = 0; i < 3; ++i)
    many += "  - {name: c" + std::to_string(i) + ", resources: {requests: {cpu: \"4e12\"}}}\n";
  const std::string sum = temp_file("sum-cpu.yaml", many);
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {sum})),
            sum +
                ": document 1, /spec/containers: expected the containers' requests to add up to at most "
                "9007199254740992 (2^53) millicores, MiB or devices, found more");
}

TEST(K8sImport, GpuCountIsWhatAllocatableAdvertises) {
  // Labelled 8 GPUs, 4 advertised (a GPU the plugin withdrew): Kubernetes schedules on 4.
  const std::string fewer = temp_file("alloc-fewer.yaml", node_yaml("n", "nvidia.com/gpu: \"4\"", "", "8"));
  EXPECT_EQ(import_inputs(inputs_of(fewer))["cluster"]["node_pools"][0]["gpus_per_node"], 4);
  // More advertised than labelled: time-slicing the import was not told of.
  const std::string more = temp_file("alloc-more.yaml", node_yaml("n", "nvidia.com/gpu: \"16\""));
  EXPECT_EQ(import_error(inputs_of(more)),
            more +
                ": document 1, /status/allocatable/nvidia.com~1gpu: expected at most 4 (the 4 GPUs of its "
                "nvidia.com/gpu.count label), found \"16\"; a node that advertises more devices than GPUs shares "
                "them: give its device plugin config (--device-plugin-config)");
  // Time-slicing with 4 replicas under the name nvidia.com/gpu: 12 devices are 3 GPUs, 13 none.
  const std::string plugin = temp_file("alloc-plugin.yaml",
                                       "version: v1\nsharing:\n  timeSlicing:\n    resources:\n"
                                       "    - {name: nvidia.com/gpu, replicas: 4}\n");
  const std::string shared = temp_file("alloc-shared.yaml", node_yaml("n", "nvidia.com/gpu: \"12\""));
  EXPECT_EQ(import_inputs(inputs_of(shared, plugin))["cluster"]["node_pools"][0]["gpus_per_node"], 3);
  const std::string odd = temp_file("alloc-odd.yaml", node_yaml("n", "nvidia.com/gpu: \"13\""));
  EXPECT_EQ(import_error(inputs_of(odd, plugin)),
            odd +
                ": document 1, /status/allocatable/nvidia.com~1gpu: expected a multiple of 4 (each GPU advertised "
                "times the 4 replicas of its device plugin config), found \"13\"");
  // The renamed resource (nvidia.com/gpu.shared) is the one compared (timeslice-node.yaml: 16 = 4 x 4).
  EXPECT_EQ(import_inputs(inputs_of(data("timeslice-node.yaml"),
                                    data("timeslice-configmap.yaml")))["cluster"]["node_pools"][0]["gpus_per_node"],
            4);
}

TEST(K8sImport, CordonedNodesAreLeftOutWithANote) {
  const std::string nodes =
      temp_file("cordoned.yaml", node_yaml("a", "nvidia.com/gpu: \"4\"") + "---\n" +
                                     node_yaml("b", "nvidia.com/gpu: \"4\"", "{unschedulable: true}"));
  K8sImportInputs inputs = inputs_of(nodes);
  inputs.name = "imported";
  const K8sImport imported = import_k8s(inputs, GpuCatalog::builtin());
  EXPECT_EQ(imported.scenario["cluster"]["node_pools"][0]["nodes"], 1);
  ASSERT_EQ(imported.notes.size(), 1u);
  EXPECT_EQ(imported.notes[0], nodes +
                                   ": document 2, /spec/unschedulable: Node \"b\" is cordoned, so Kubernetes "
                                   "places no new pods on it: left out");
  const std::string all = temp_file("all-cordoned.yaml", node_yaml("b", "", "{unschedulable: true}"));
  EXPECT_EQ(import_error(inputs_of(all)),
            all + ": expected a Node that takes pods, found only cordoned ones (spec.unschedulable)");
}

TEST(K8sImport, NodesWithTheSameNameAreRefused) {
  const std::string list = temp_file("same-name-list.json",
                                     R"({"kind": "List", "items": [
        {"kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi"}}},
        {"kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi"}}}]})");
  EXPECT_EQ(import_error(inputs_of(list)), list +
                                               ": document 1, /items/1/metadata/name: expected each Node once, found "
                                               "\"a\" again (also document 1, /items/0)");
  const std::string unnamed =
      temp_file("unnamed-node.yaml", "kind: Node\nstatus: {allocatable: {cpu: \"8\", memory: 8Gi}}\n");
  EXPECT_EQ(import_error(inputs_of(unnamed)),
            unnamed + ": document 1, /metadata/name: expected the Node's name, found nothing");
}

TEST(K8sImport, ManifestsKubernetesRejectsAreRefused) {
  const std::string nodes = data("two-nodes.json");
  const auto error_of = [&](const std::string& name, const std::string& text) {
    return import_error(inputs_of(nodes, "", "", {temp_file(name, text)}));
  };
  const std::string at = ": document 1, /spec/containers/0/resources/";
  // Extended resources: a request equal to the limit, and a limit (Kubernetes docs, "Resource
  // Management for Pods and Containers", Extended resources).
  EXPECT_EQ(error_of("gpu-unequal.yaml", pod_yaml("p", "{requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}")),
            ::testing::TempDir() + "k8s_import_test_gpu-unequal.yaml" + at +
                "requests/nvidia.com~1gpu: expected the same count as the limit (2): Kubernetes requires an extended "
                "resource's request to equal its limit, found 1");
  EXPECT_EQ(error_of("gpu-request-only.yaml", pod_yaml("p", "{requests: {nvidia.com/gpu: 1}}")),
            ::testing::TempDir() + "k8s_import_test_gpu-request-only.yaml" + at +
                "requests/nvidia.com~1gpu: expected the extended resource's limit as well (Kubernetes requires one; "
                "the request defaults to it), found a request only");
  EXPECT_EQ(error_of("cpu-over.yaml", pod_yaml("p", "{requests: {cpu: \"4\"}, limits: {cpu: \"2\"}}")),
            ::testing::TempDir() + "k8s_import_test_cpu-over.yaml" + at +
                "requests/cpu: expected at most the limit (\"2\"), as Kubernetes requires, found \"4\"");
  // Equal request and limit, and a cpu request under its limit, are fine.
  EXPECT_EQ(error_of("gpu-equal.yaml", pod_yaml("p",
                                                "{requests: {nvidia.com/gpu: 2, cpu: 1}, "
                                                "limits: {nvidia.com/gpu: \"2\", cpu: 2}}")),
            "no error");
  // YAML mappings have unique keys.
  EXPECT_EQ(error_of("dup-key.yaml", pod_yaml("p", "{limits: {nvidia.com/gpu: 1, nvidia.com/gpu: 4}}")),
            ::testing::TempDir() + "k8s_import_test_dup-key.yaml" +
                ": line 6, column 45: expected each key once in a mapping (YAML requires unique keys), found "
                "\"nvidia.com/gpu\" again");
  // A name, or generateName to make one.
  EXPECT_EQ(error_of("no-name.yaml", "kind: Pod\nspec: {containers: [{name: c}]}\n"),
            ::testing::TempDir() + "k8s_import_test_no-name.yaml" +
                ": document 1, /metadata/name: expected the Pod's name (metadata.name, or metadata.generateName), "
                "found nothing");
  EXPECT_EQ(error_of("no-class-name.yaml", "kind: PriorityClass\nvalue: 5\n"),
            ::testing::TempDir() + "k8s_import_test_no-class-name.yaml" +
                ": document 1, /metadata/name: expected the PriorityClass's name (metadata.name, or "
                "metadata.generateName), found nothing");
  const auto generated = import_inputs(inputs_of(nodes, "", "",
                                                 {temp_file("generate-name.yaml",
                                                            "kind: Pod\nmetadata: {generateName: train-}\n"
                                                            "spec: {containers: [{name: c}]}\n")}));
  EXPECT_EQ(generated["workload"]["jobs"][0]["name"], "train");
  // A pod's priority is an int32.
  EXPECT_EQ(error_of("priority.yaml", pod_yaml("p", "{}", "  priority: 3000000000\n")),
            ::testing::TempDir() + "k8s_import_test_priority.yaml" +
                ": document 1, /spec/priority: expected an integer priority (32-bit: -2147483648 to 2147483647), "
                "found 3000000000");
}

// The error of `sharesim import k8s`, which also builds the scenario as `validate` does.
std::string checked_import_error(const K8sImportInputs& inputs) {
  try {
    import_k8s_checked(inputs, GpuCatalog::builtin());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(K8sImport, ErrorsFoundInTheScenarioNameTheManifestObject) {
  // The scenario loader refuses HAMi memory without a device count; the error names the
  // Deployment of document 2, not the scenario file that is never written.
  const std::string pods = temp_file("scenario-error.yaml", pod_yaml("fine", "{limits: {nvidia.com/gpu: 1}}") +
                                                                "---\nkind: Deployment\nmetadata: {name: web}\n"
                                                                "spec:\n  template:\n    spec:\n      containers:\n"
                                                                "      - {name: c, resources: {limits: "
                                                                "{nvidia.com/gpumem: 4000}}}\n");
  const std::string error = checked_import_error(inputs_of(data("two-nodes.json"), "", "", {pods}));
  EXPECT_EQ(error.rfind(pods + ": document 2 (Deployment web), imported as /workload/jobs/1/request/limits: expected "
                               "one device resource in \"limits\"",
                        0),
            0u)
      << error;
  // List items name their place in the document; node pools name their first Node.
  const std::string list = temp_file("scenario-error-list.json", R"({"kind": "List", "items": [
      {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": [{"name": "c"}]}},
      {"kind": "Pod", "metadata": {"name": "b"}, "spec": {"containers": [
        {"name": "c", "resources": {"limits": {"nvidia.com/gpumem": 1}}}]}}]})");
  const std::string item = checked_import_error(inputs_of(data("two-nodes.json"), "", "", {list}));
  EXPECT_EQ(item.rfind(list + ": document 1, /items/1 (Pod b), imported as /workload/jobs/1/request/limits: ", 0), 0u)
      << item;
  const std::string mig = temp_file("bad-layout.yaml",
                                    "kind: Node\nmetadata:\n  name: m\n  labels:\n"
                                    "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n"
                                    "    nvidia.com/gpu.count: \"8\"\n"
                                    "    nvidia.com/mig.config: all-9g.99gb\n"
                                    "status: {allocatable: {cpu: \"128\", memory: 1Ti}}\n");
  const std::string layout = checked_import_error(inputs_of(mig, data("mig-plugin-config.yaml")));
  EXPECT_EQ(layout.rfind(mig + ": document 1 (Node m), imported as /cluster/node_pools/0/sharing/layout: unknown MIG "
                               "layout \"all-9g.99gb\"",
                         0),
            0u)
      << layout;
  // Found by the loader inside import_k8s: a demand annotation out of range.
  const std::string demand = temp_file("scenario-error-demand.yaml",
                                       "kind: Pod\nmetadata: {name: d, annotations: {sharesim.io/sm: \"5\"}}\n"
                                       "spec: {containers: [{name: c}]}\n");
  const std::string loader = import_error(inputs_of(data("two-nodes.json"), "", "", {demand}));
  EXPECT_EQ(loader.rfind(demand + ": document 1 (Pod d), imported as /workload/jobs/0/request/demand/sm: ", 0), 0u)
      << loader;
  // Not from one object (an override): the scenario, said not to be written.
  K8sImportInputs set = inputs_of(data("two-nodes.json"));
  set.name = "imported";
  set.overrides.push_back(parse_override("scheduler.queue=bogus"));
  EXPECT_EQ(checked_import_error(set).rfind("imported.json (imported, not written): /scheduler/queue: ", 0), 0u)
      << checked_import_error(set);
}

TEST(K8sImport, DocumentThatIsNotAMappingIsLocated) {
  const std::string list = temp_file("list-doc.yaml", "- a\n- b\n");
  const std::string scalar = temp_file("scalar-doc.yaml", "hello\n");
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {list})),
            list + ": document 1, /: expected a mapping (a Kubernetes object), found a list");
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {scalar})),
            scalar + ": document 1, /: expected a mapping (a Kubernetes object), found \"hello\"");
  EXPECT_EQ(import_error(inputs_of(list)), list + ": document 1, /: expected a mapping (a Node), found a list");
}

TEST(K8sImport, YamlMergeKeysAreExpanded) {
  const auto value = [](const std::string& text) { return parse_manifest_text(text, "m.yaml").at(0).value.dump(); };
  // The mapping's own keys win, then the merged mappings' in order (https://yaml.org/type/merge.html).
  EXPECT_EQ(value("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 3\n"),
            R"({"a":{"x":1,"y":1},"b":{"y":2,"z":2},"c":{"x":3,"y":1,"z":2}})");
  EXPECT_EQ(value("kind: Pod\nmetadata: {name: m}\nspec:\n  containers:\n  - name: c\n    resources:\n"
                  "      limits: &l {nvidia.com/gpu: 1}\n      requests:\n        <<: *l\n        cpu: 2\n"),
            R"({"kind":"Pod","metadata":{"name":"m"},"spec":{"containers":[{"name":"c","resources":{"limits":)"
            R"({"nvidia.com/gpu":1},"requests":{"cpu":2,"nvidia.com/gpu":1}}}]}})");
  // A quoted "<<" is an ordinary key.
  EXPECT_EQ(value("\"<<\": 1\n"), R"({"<<":1})");
  const auto problem = [](const std::string& text) {
    try {
      parse_manifest_text(text, "m.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(problem("a:\n  <<: 5\n"),
            "m.yaml: line 2, column 7: expected a mapping or a list of mappings to merge (\"<<\"), found a scalar");
}

// The error of importing two-nodes.json with a KubeSchedulerConfiguration whose lines after
// apiVersion and kind are `body`.
std::string scheduler_config_error(const std::string& name, const std::string& body) {
  K8sImportInputs inputs = inputs_of(data("two-nodes.json"));
  inputs.scheduler_config = temp_file(name,
                                      "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                      "kind: KubeSchedulerConfiguration\n" +
                                          body);
  return import_error(inputs);
}

TEST(K8sImport, SchedulerConfigUnknownKeysAreRefused) {
  const std::string file = ::testing::TempDir() + "k8s_import_test_";
  // kube-scheduler decodes v1 strictly: a misspelt "profiles" is an error, not the default profile.
  EXPECT_EQ(scheduler_config_error("sc-profils.yaml", "profils: []\n"),
            file +
                "sc-profils.yaml: document 1, /profils: expected one of \"apiVersion\", \"kind\", \"parallelism\", "
                "\"leaderElection\", \"clientConnection\", \"enableProfiling\", \"enableContentionProfiling\", "
                "\"percentageOfNodesToScore\", \"podInitialBackoffSeconds\", \"podMaxBackoffSeconds\", "
                "\"delayCacheUntilActive\", \"profiles\", \"extenders\", found unknown key \"profils\"; did you "
                "mean \"profiles\"?");
  // A misspelt extension point would lose the disable.
  const std::string scor =
      scheduler_config_error("sc-scor.yaml", "profiles: [{plugins: {scor: {disabled: [{name: \"*\"}]}}}]\n");
  EXPECT_NE(scor.find("sc-scor.yaml: document 1, /profiles/0/plugins/scor: expected one of \"preEnqueue\", "),
            std::string::npos)
      << scor;
  EXPECT_NE(scor.find("found unknown key \"scor\"; did you mean \"score\"?"), std::string::npos) << scor;
  // Every level read: the profile, a plugin set, a plugin, pluginConfig and the Fit args.
  for (const auto& [body, pointer] : std::vector<std::pair<std::string, std::string>>{
           {"profiles: [{plugin: {}}]\n", "/profiles/0/plugin"},
           {"profiles: [{plugins: {score: {enable: []}}}]\n", "/profiles/0/plugins/score/enable"},
           {"profiles: [{plugins: {score: {enabled: [{name: FGDScore, wieght: 3}]}}}]\n",
            "/profiles/0/plugins/score/enabled/0/wieght"},
           {"profiles: [{pluginConfig: [{name: NodeResourcesFit, arg: {}}]}]\n", "/profiles/0/pluginConfig/0/arg"},
           {"profiles: [{pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {typ: MostAllocated}}}]}]\n",
            "/profiles/0/pluginConfig/0/args/scoringStrategy/typ"},
           {"profiles: [{pluginConfig: [{name: NodeResourcesBalancedAllocation, args: {resource: []}}]}]\n",
            "/profiles/0/pluginConfig/0/args/resource"}}) {
    const std::string error = scheduler_config_error("sc-unknown.yaml", body);
    EXPECT_EQ(error.rfind(file + "sc-unknown.yaml: document 1, " + pointer + ": expected one of ", 0), 0u) << error;
  }
  // Fields of KubeSchedulerConfiguration that change nothing sharesim models are accepted, and
  // args may name their kind.
  EXPECT_EQ(scheduler_config_error("sc-accepted.yaml",
                                   "parallelism: 16\nleaderElection: {leaderElect: true}\n"
                                   "profiles: [{schedulerName: default-scheduler, pluginConfig: [{name: "
                                   "NodeResourcesFit, args: {kind: NodeResourcesFitArgs, scoringStrategy: {type: "
                                   "MostAllocated}}}]}]\n"),
            "no error");
  EXPECT_EQ(scheduler_config_error("sc-extenders.yaml", "extenders: [{urlPrefix: \"http://x\"}]\n"),
            file +
                "sc-extenders.yaml: document 1, /extenders: scheduler extenders are not modelled; expected none, "
                "found a list");
}

TEST(K8sImport, SchedulerConfigDuplicatesAreRefused) {
  const std::string file = ::testing::TempDir() + "k8s_import_test_";
  // Two pluginConfig entries for one plugin: the later won silently (LeastAllocated).
  EXPECT_EQ(scheduler_config_error("sc-dup-config.yaml",
                                   "profiles: [{pluginConfig: [\n"
                                   "  {name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated}}},\n"
                                   "  {name: NodeResourcesFit, args: {scoringStrategy: {type: LeastAllocated}}}]}]\n"),
            file +
                "sc-dup-config.yaml: document 1, /profiles/0/pluginConfig/1/name: expected one pluginConfig entry per "
                "plugin (kube-scheduler refuses a duplicate), found \"NodeResourcesFit\" again (also document 1, "
                "/profiles/0/pluginConfig/0)");
  // A plugin enabled twice: weight 7 won silently over 3.
  EXPECT_EQ(scheduler_config_error("sc-dup-enabled.yaml",
                                   "profiles: [{plugins: {score: {enabled: [{name: NodeResourcesFit, weight: 3}, "
                                   "{name: NodeResourcesFit, weight: 7}]}}}]\n"),
            file +
                "sc-dup-enabled.yaml: document 1, /profiles/0/plugins/score/enabled/1/name: expected each plugin once "
                "in \"enabled\", found \"NodeResourcesFit\" again (also document 1, "
                "/profiles/0/plugins/score/enabled/0)");
  // Disabling a plugin twice loses nothing, as kube-scheduler accepts it.
  EXPECT_EQ(scheduler_config_error("sc-dup-disabled.yaml",
                                   "profiles: [{plugins: {score: {disabled: [{name: ImageLocality}, "
                                   "{name: ImageLocality}]}}}]\n"),
            "no error");
  // A scoring resource twice: named in the scheduler config, not the scenario never written.
  EXPECT_EQ(scheduler_config_error("sc-dup-resource.yaml",
                                   "profiles: [{pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: "
                                   "{type: MostAllocated, resources: [{name: cpu}, {name: cpu}]}}}]}]\n"),
            file +
                "sc-dup-resource.yaml: document 1, /profiles/0/pluginConfig/0/args/scoringStrategy/resources/1/name: "
                "expected each resource once, found \"cpu\" again (also document 1, "
                "/profiles/0/pluginConfig/0/args/scoringStrategy/resources/0)");
}

TEST(K8sImport, DevicePluginConfigUnknownTopLevelKeysAreRefused) {
  const std::string nodes = data("two-nodes.json");
  // A misspelt "sharing" imported the GPUs unshared (exclusive), silently.
  const std::string typo = temp_file("dp-sharng.yaml", "version: v1\nsharng:\n  timeSlicing: {}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, typo)),
            typo +
                ": document 1, /sharng: expected one of \"version\", \"flags\", \"resources\", \"sharing\", "
                "\"imex\", found unknown key \"sharng\"; did you mean \"sharing\"?");
  // Inside a ConfigMap's data entry, the place is the entry's.
  const std::string map =
      temp_file("dp-sharng-map.yaml", "kind: ConfigMap\ndata:\n  a: |-\n    version: v1\n    flgs: {}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, map)),
            map +
                ": document 1, /data/a/flgs: expected one of \"version\", \"flags\", \"resources\", "
                "\"sharing\", \"imex\", found unknown key \"flgs\"; did you mean \"flags\"?");
  // Renaming the advertised resources is not modelled; IMEX channels change no scheduling.
  const std::string renamed =
      temp_file("dp-resources.yaml", "version: v1\nresources:\n  gpus: [{pattern: \"*A100*\", name: a100}]\n");
  EXPECT_EQ(import_error(inputs_of(nodes, renamed)),
            renamed +
                ": document 1, /resources: renaming the advertised resources is not modelled: sharesim's GPUs "
                "are advertised under the plugin's default names; expected no \"resources\" (or {}), found an "
                "object");
  const std::string imex = temp_file("dp-imex.yaml", "version: v1\nimex: {channelIDs: [0]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, imex)), "no error");
}

TEST(K8sImport, UnknownSharesimAnnotationsAreRefused) {
  const std::string nodes = data("two-nodes.json");
  // A misspelt annotation ran the default 1h, silently.
  const std::string typo = temp_file("ann-typo.yaml",
                                     "kind: Pod\nmetadata: {name: p, annotations: {sharesim.io/durration: \"2h\"}}\n"
                                     "spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {typo})),
            typo +
                ": document 1, /metadata/annotations/sharesim.io~1durration: expected one of "
                "\"sharesim.io/duration\", \"sharesim.io/arrival\", \"sharesim.io/kind\", \"sharesim.io/profile\", "
                "\"sharesim.io/sm\", \"sharesim.io/bw\", \"sharesim.io/mem-mib\", found unknown annotation "
                "\"sharesim.io/durration\"; did you mean \"sharesim.io/duration\"?");
  // A pod template's annotation is located in the template (it was named /metadata/annotations).
  const std::string in_template = temp_file("ann-template.yaml",
                                            "kind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n"
                                            "    metadata: {annotations: {sharesim.io/kind: serving}}\n"
                                            "    spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {in_template})),
            in_template +
                ": document 1, /spec/template/metadata/annotations/sharesim.io~1kind: expected "
                "\"training\" or \"batch\", found \"serving\"");
  // Other tools' annotations are theirs; annotations that are not a mapping are refused.
  const std::string other = temp_file("ann-other.yaml",
                                      "kind: Pod\nmetadata: {name: p, annotations: {example.com/x: \"1\"}}\n"
                                      "spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {other})), "no error");
  const std::string scalar = temp_file("ann-scalar.yaml",
                                       "kind: Pod\nmetadata: {name: p, annotations: \"sharesim.io/duration=2h\"}\n"
                                       "spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {scalar})),
            scalar + ": document 1, /metadata/annotations: expected an object, found \"sharesim.io/duration=2h\"");
}

TEST(K8sImport, DurationsPastSimulatedTimeSaySo) {
  const std::string nodes = data("two-nodes.json");
  // "expected a duration" for a well-formed duration: it is too long.
  const std::string pod =
      temp_file("ann-long.yaml",
                "kind: Pod\nmetadata: {name: p, annotations: {sharesim.io/duration: \"1000000d\"}}\n"
                "spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {pod})),
            pod +
                ": document 1, /metadata/annotations/sharesim.io~1duration: expected a duration of at most about "
                "292 years (simulated time is 2^63 ns), found \"1000000d\", too long");
  // A malformed one still says what a duration is.
  const std::string bad = temp_file("ann-bad.yaml",
                                    "kind: Pod\nmetadata: {name: p, annotations: {sharesim.io/arrival: \"soon\"}}\n"
                                    "spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {bad})),
            bad +
                ": document 1, /metadata/annotations/sharesim.io~1arrival: expected a duration (\"90s\", \"2h\"), "
                "found \"soon\"");
  // A Job's pods run one after another: 2e9 rounds of 2000d overflowed the nanoseconds.
  const std::string job = temp_file("job-long.yaml",
                                    "kind: Job\nmetadata: {name: j}\nspec:\n  completions: 2000000000\n"
                                    "  template:\n    metadata: {annotations: {sharesim.io/duration: 2000d}}\n"
                                    "    spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {job})),
            job +
                ": document 1, /spec/template/metadata/annotations/sharesim.io~1duration: each pod of the Job runs "
                "2000000000 pods of 2000d one after another (ceil(completions / parallelism)): expected that to "
                "take at most about 292 years (simulated time is 2^63 ns), found more");
}

TEST(K8sImport, PriorityClassesWithTheSameNameAreRefused) {
  // Two PriorityClass "high" (10, then 20): 20 won silently. The second names the first, in
  // another file too (PriorityClasses are read from every workload file).
  const std::string classes = temp_file("pc-dup.yaml",
                                        "kind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n---\n"
                                        "kind: PriorityClass\nmetadata: {name: high}\nvalue: 20\n");
  const std::string pod = temp_file("pc-pod.yaml", pod_yaml("p", "{}", "  priorityClassName: high\n"));
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {classes, pod})),
            classes + ": document 2, /metadata/name: expected each PriorityClass once, found \"high\" again (also " +
                classes + ": document 1, /)");
  const std::string one = temp_file("pc-one.yaml", "kind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n");
  const std::string list = temp_file("pc-list.json", R"({"kind": "List", "items": [
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 20}]})");
  EXPECT_EQ(import_error(inputs_of(data("two-nodes.json"), "", "", {one, list, pod})),
            list +
                ": document 1, /items/0/metadata/name: expected each PriorityClass once, found \"high\" again "
                "(also " +
                one + ": document 1, /)");
}

TEST(K8sImport, MessagesStateTheRuleThatWasBroken) {
  const std::string nodes = data("two-nodes.json");
  // An empty containers list said "expected a list of containers, found a list".
  const std::string empty = temp_file("no-containers.yaml", "kind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {empty})),
            empty + ": document 1, /spec/containers: expected at least one container, found an empty list");
  // replicas past int32 reached the memory budget ("1e+11 jobs, 1e+11 pods"); the API refuses it.
  const std::string many = temp_file("replicas-big.yaml",
                                     "kind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 99999999999\n"
                                     "  template:\n    spec: {containers: [{name: c}]}\n");
  EXPECT_EQ(import_error(inputs_of(nodes, "", "", {many})),
            many +
                ": document 1, /spec/replicas: expected an integer from 0 to 2147483647 (an int32 in the "
                "Kubernetes API), found 99999999999");
  // A node's cpu or memory of 0 said "expected a CPU quantity": it is one, and must be > 0.
  const std::string no_cpu =
      temp_file("cpu-zero.yaml", "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"0\", memory: 1Gi}}\n");
  EXPECT_EQ(import_error(inputs_of(no_cpu)), no_cpu +
                                                 ": document 1, /status/allocatable/cpu: expected a CPU quantity "
                                                 "> 0 (\"64\", \"63500m\"), found \"0\"");
  const std::string no_memory = temp_file(
      "memory-zero.yaml", "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"1\", memory: 0}}\n");
  EXPECT_EQ(import_error(inputs_of(no_memory)),
            no_memory +
                ": document 1, /status/allocatable/memory: expected a memory quantity > 0 (\"512Gi\", "
                "\"1056318284Ki\"), found 0");
  // A GPU count label of 100 said "expected the node's GPU count" with no bound.
  const std::string hundred = temp_file("count-100.yaml", node_yaml("n", "", "", "100"));
  EXPECT_EQ(import_error(inputs_of(hundred)),
            hundred +
                ": document 1, /metadata/labels/nvidia.com~1gpu.count: expected the node's GPU count (GPU "
                "feature discovery sets it), a whole number from 0 to 16 (sharesim's nodes hold at most 16 "
                "GPUs), found \"100\"");
}

}  // namespace
}  // namespace sharesim
