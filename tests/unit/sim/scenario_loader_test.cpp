// Scenario loading: one test per class of bad input (asserting the exact file, place and
// problem a user would read), a full valid scenario with its defaults, and --set overrides.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/memory_budget.h"
#include "sim/scenario/scenario.h"

namespace sharesim {
namespace {

using nlohmann::ordered_json;

constexpr const char* kOrigin = "test.json";

// A two-model catalog in the catalog file format, so these tests do not depend on the
// numbers in scenarios/hardware/gpus.json.
const GpuCatalog& test_catalog() {
  static const GpuCatalog catalog = [] {
    ordered_json gpus = ordered_json::array();
    for (const char* id : {"A100-80GB", "H100-80GB"}) {
      ordered_json entry = {{"id", id},
                            {"product", std::string("NVIDIA-") + id},
                            {"architecture", "test"},
                            {"compute_capability", "8.0"},
                            {"sm_count", 108},
                            {"memory_mib", 81920},
                            {"dram_bandwidth_gbps", 2039},
                            {"fp32_tflops", 19.5},
                            {"fp16_tensor_tflops", 312},
                            {"compute_preemption", true},
                            {"compute_policy_timeslice", true},
                            {"mps_max_clients", 48},
                            {"mig_supported", false},
                            {"mig_max_instances", 0}};
      ordered_json sources = ordered_json::object();
      for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!it.value().is_string()) sources[it.key()] = "test fixture";
      }
      entry["source"] = sources;
      gpus.push_back(entry);
    }
    return GpuCatalog::parse(ordered_json{{"gpus", gpus}}.dump(), "<test catalog>");
  }();
  return catalog;
}

// A valid scenario; tests break one thing in it.
ordered_json valid_document() {
  return ordered_json::parse(R"({
    "name": "two-nodes-exclusive",
    "seed": 7,
    "until": "30d",
    "cluster": {"node_pools": [
      {"name": "a100", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 8,
       "cpu_milli": 64000, "memory_mib": 262144, "sharing": {"policy": "exclusive"}}]},
    "scheduler": {"queue": "fifo", "placement": "first-fit"},
    "workload": {"generators": [
      {"kind": "training", "count": 1000,
       "arrival": {"process": "poisson", "rate_per_s": 0.01},
       "duration": {"dist": "exponential", "mean_s": 600},
       "request": {"gpus": 1}}]},
    "output": {"dir": "results/runs/two-nodes"}
  })");
}

Scenario load(const ordered_json& document, const std::vector<Override>& overrides = {}) {
  return load_scenario_text(document.dump(2), kOrigin, test_catalog(), overrides);
}

// Loads text that must be rejected and returns the error.
InputError rejection_of_text(const std::string& text, const std::vector<Override>& overrides = {}) {
  try {
    load_scenario_text(text, kOrigin, test_catalog(), overrides);
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return InputError("", "", "");
}

InputError rejection_of(const std::function<void(ordered_json&)>& damage) {
  ordered_json document = valid_document();
  damage(document);
  return rejection_of_text(document.dump(2));
}

void expect_error(const InputError& error, const std::string& file, const std::string& where,
                  const std::string& problem) {
  EXPECT_EQ(error.file(), file);
  EXPECT_EQ(error.where(), where);
  EXPECT_EQ(error.problem(), problem);
}

// ---- one test per error class -----------------------------------------------------------

TEST(ScenarioErrors, UnreadableFileNamesTheOsReason) {
  try {
    load_scenario_file("/nonexistent/scenario.json", test_catalog());
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    expect_error(error, "/nonexistent/scenario.json", "", "cannot read file: No such file or directory");
  }
}

TEST(ScenarioErrors, MalformedJsonGivesLineAndColumn) {
  const std::string text = "{\n  \"name\": \"x\",\n  \"seed\": 7,\n}\n";
  expect_error(rejection_of_text(text), kOrigin, "4:1",
               "syntax error while parsing object key - unexpected '}'; expected string literal");
  expect_error(rejection_of_text("{\"name\": [1 2]}"), kOrigin, "1:13",
               "syntax error while parsing array - unexpected number literal; expected ']'");
  expect_error(rejection_of_text(""), kOrigin, "1:1",
               "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
}

TEST(ScenarioErrors, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes in UTF-8 but one column in an editor.
  expect_error(rejection_of_text("{\"name\": \"é\" x}"), kOrigin, "1:14",
               "syntax error while parsing object - invalid literal; last read: '\"é\" x'; expected '}'");
}

TEST(ScenarioErrors, DuplicateKeyIsAnErrorNotLastOneWins) {
  const std::string text = R"({"name": "x", "cluster": {"node_pools": [{"name": "a", "nodes": 1, "nodes": 2}]}})";
  expect_error(rejection_of_text(text), kOrigin, "/cluster/node_pools/0/nodes",
               "duplicate key \"nodes\" (each key may appear once in an object)");
}

TEST(ScenarioErrors, MissingRequiredKeyPointsAtItsObject) {
  const InputError error = rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0].erase("gpu"); });
  expect_error(error, kOrigin, "/cluster/node_pools/0", "missing required key \"gpu\"");
  expect_error(rejection_of([](ordered_json& d) { d.erase("name"); }), kOrigin, "(top level)", "missing required key \"name\"");
}

TEST(ScenarioErrors, WrongTypeSaysWhatWasExpected) {
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["priority"] = "4"; }), kOrigin,
               "/workload/generators/0/priority", "expected an integer from -2147483648 to 2147483647, found \"4\"");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["gpus_per_node"] = "4"; }), kOrigin,
               "/cluster/node_pools/0/gpus_per_node", "expected an integer from 0 to 16, found \"4\"");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["nodes"] = 1.5; }), kOrigin,
               "/cluster/node_pools/0/nodes", "expected an integer >= 1, found 1.5");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"] = ordered_json::array(); }), kOrigin, "/cluster",
               "expected an object, found an empty array");
}

TEST(ScenarioErrors, EnumListsTheChoices) {
  expect_error(rejection_of([](ordered_json& d) { d["scheduler"]["queue"] = "lifo"; }), kOrigin, "/scheduler/queue",
               "expected one of \"fifo\", \"priority\", found \"lifo\"");
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["arrival"]["process"] = "uniform"; }),
               kOrigin, "/workload/generators/0/arrival/process",
               "expected one of \"poisson\", \"diurnal\", \"mmpp\", found \"uniform\"");
}

TEST(ScenarioErrors, ValuesOutOfRange) {
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["arrival"]["rate_per_s"] = -1; }),
               kOrigin, "/workload/generators/0/arrival/rate_per_s", "expected a number > 0, found -1");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["nodes"] = 0; }), kOrigin,
               "/cluster/node_pools/0/nodes", "expected an integer >= 1, found 0");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["gpus_per_node"] = 17; }), kOrigin,
               "/cluster/node_pools/0/gpus_per_node", "expected an integer from 0 to 16, found 17");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"] = ordered_json::array(); }), kOrigin,
               "/cluster/node_pools", "expected at least 1 item, found an empty array");
}

TEST(ScenarioErrors, UnknownKeySuggestsTheClosestName) {
  const InputError error = rejection_of([](ordered_json& d) {
    ordered_json& pool = d["cluster"]["node_pools"][0];
    pool["cpu_mili"] = pool["cpu_milli"];
    pool.erase("cpu_milli");
  });
  // The misspelling is reported, not the key it was meant to be.
  expect_error(error, kOrigin, "/cluster/node_pools/0/cpu_mili",
               "unknown key \"cpu_mili\"; did you mean \"cpu_milli\"?");
}

TEST(ScenarioErrors, UnknownKeyWithoutCloseMatchListsTheAllowedKeys) {
  expect_error(rejection_of([](ordered_json& d) { d["scheduler"]["colour"] = "blue"; }), kOrigin, "/scheduler/colour",
               "unknown key \"colour\"; allowed keys here: \"queue\", \"placement\", \"score_plugins\", \"preemption\", "
               "\"priority_classes\"");
}

// A priority is a 32-bit integer, as a PriorityClass value: beyond that it wrapped when stored,
// and a job meant to be the least important (-3e9) preempted a priority-5 job.
TEST(ScenarioErrors, APriorityBeyondThirtyTwoBitsIsRefused) {
  const InputError high = rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["priority"] = 3000000000; });
  EXPECT_EQ(high.where(), "/workload/generators/0/priority");
  EXPECT_NE(high.problem().find("2147483647"), std::string::npos) << high.problem();
  const InputError low = rejection_of([](ordered_json& d) {
    d["workload"]["jobs"] = ordered_json::array({{{"name", "scavenger"}, {"duration", "10s"}, {"priority", -3000000000LL}}});
  });
  EXPECT_EQ(low.where(), "/workload/jobs/0/priority");
  EXPECT_NE(low.problem().find("-2147483648"), std::string::npos) << low.problem();
  const InputError mix = rejection_of([](ordered_json& d) {
    d["workload"]["generators"][0]["mix"] = ordered_json::array({{{"weight", 1}, {"priority", 2147483648LL}}});
  });
  EXPECT_EQ(mix.where(), "/workload/generators/0/mix/0/priority");
  // The ends of the range are accepted.
  ordered_json document = valid_document();
  document["workload"]["generators"][0]["priority"] = -2147483648LL;
  EXPECT_NO_THROW(load(document));
  document["workload"]["generators"][0]["priority"] = 2147483647;
  EXPECT_NO_THROW(load(document));
}

TEST(ScenarioErrors, DistributionParametersDependOnTheDistribution) {
  expect_error(rejection_of([](ordered_json& d) {
                 d["workload"]["generators"][0]["duration"] = {{"dist", "lognormal"}, {"mean_s", 60}};
               }),
               kOrigin, "/workload/generators/0/duration", "missing required key \"cv\"");
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["duration"]["cv"] = 2; }), kOrigin,
               "/workload/generators/0/duration/cv", "unknown key \"cv\"; allowed keys here: \"dist\", \"mean_s\"");
  expect_error(rejection_of([](ordered_json& d) {
                 d["workload"]["generators"][0]["duration"] = {{"dist", "empirical"}};
               }),
               kOrigin, "/workload/generators/0/duration", "missing required key \"file\"");
}

TEST(ScenarioErrors, BadDurationText) {
  expect_error(rejection_of([](ordered_json& d) { d["until"] = "30 days"; }), kOrigin, "/until",
               "expected a duration: a number and a unit (ns, us, ms, s, m, h, d or w), e.g. \"90s\" or \"7d\", found "
               "\"30 days\"");
  expect_error(
      rejection_of([](ordered_json& d) { d["until"] = 30; }), kOrigin, "/until",
      "expected a duration: a number and a unit (ns, us, ms, s, m, h, d or w), e.g. \"90s\" or \"7d\", found 30");
}

TEST(ScenarioErrors, DurationPastTheEndOfTime) {
  expect_error(rejection_of([](ordered_json& d) { d["until"] = "200000w"; }), kOrigin, "/until",
               "duration \"200000w\" is too long: simulated time ends after about 292 years (2^63 ns)");
}

TEST(ScenarioErrors, ALatencyObjectiveOfZeroIsRefused) {
  // 0 read as "no objective": services.csv and the verdict left the SLO out without a word.
  const auto with_service = [](ordered_json& d, const ordered_json& requests) {
    d["workload"] = ordered_json::parse(R"({"jobs": [{"name": "svc", "kind": "inference", "lifetime": "1h",
                                            "request": {"gpus": 1}}]})");
    d["workload"]["jobs"][0]["requests"] = requests;
  };
  expect_error(
      rejection_of([&](ordered_json& d) {
        with_service(
            d,
            ordered_json::parse(
                R"({"arrival": {"process": "poisson", "rate_per_s": 1}, "work": {"dist": "constant", "mean_s": 0.01}, "slo": "0s"})"));
      }),
      kOrigin, "/workload/jobs/0/requests/slo",
      "expected a latency objective > 0 (leave slo out for none), found \"0s\"");
  EXPECT_NO_THROW(load([&] {
    ordered_json d = valid_document();
    with_service(
        d,
        ordered_json::parse(
            R"({"arrival": {"process": "poisson", "rate_per_s": 1}, "work": {"dist": "constant", "mean_s": 0.01}, "slo": "1ms"})"));
    return d;
  }()));
}

TEST(ScenarioErrors, UnknownGpuModelSuggestsACatalogId) {
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["gpu"] = "A100-80G"; }), kOrigin,
               "/cluster/node_pools/0/gpu",
               "unknown GPU model \"A100-80G\"; did you mean \"A100-80GB\"? (see `sharesim gpus`)");
  expect_error(rejection_of([](ordered_json& d) { d["cluster"]["node_pools"][0]["gpu"] = "TPU-v5"; }), kOrigin,
               "/cluster/node_pools/0/gpu", "unknown GPU model \"TPU-v5\" (see `sharesim gpus`)");
}

TEST(ScenarioErrors, DuplicatePoolName) {
  const InputError error = rejection_of([](ordered_json& d) {
    ordered_json& pools = d["cluster"]["node_pools"];
    pools.push_back(pools[0]);
  });
  expect_error(error, kOrigin, "/cluster/node_pools/1/name",
               "duplicate node pool name \"a100\" (also /cluster/node_pools/0)");
}

TEST(ScenarioErrors, PodLargerThanEveryNode) {
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["request"]["gpus"] = 9; }), kOrigin,
               "/workload/generators/0/request/gpus", "a pod asks for 9 GPUs but the largest node has 8");
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["request"]["cpu_milli"] = 64001; }),
               kOrigin, "/workload/generators/0/request/cpu_milli",
               "a pod asks for 64001 cpu_milli but the largest node has 64000");
}

TEST(ScenarioErrors, GangLargerThanTheCluster) {
  // 2 nodes x 8 GPUs hold four 4-GPU pods at once, not five.
  const InputError error = rejection_of([](ordered_json& d) {
    d["workload"]["generators"][0]["request"]["gpus"] = 4;
    d["workload"]["generators"][0]["pods"] = 5;
  });
  expect_error(error, kOrigin, "/workload/generators/0/pods",
               "a job's 5 pods must run together, but the whole cluster can hold at most 4 of them at once");
}

TEST(ScenarioErrors, ScenarioOrGeneratorNameWithAControlCharacter) {
  // Jobs are named after their generator, and the CSV outputs and the report's plots hold one
  // row or label a line.
  for (const char* name : {"a\nb", "a\rb", "a\tb", "a\x1f", "a\x7f"}) {
    const InputError error = rejection_of([&](ordered_json& d) { d["workload"]["generators"][0]["name"] = name; });
    expect_error(
        error, kOrigin, "/workload/generators/0/name",
        "expected a name without control characters (line breaks, tabs, ...), found " + ordered_json(name).dump());
  }
  expect_error(rejection_of([](ordered_json& d) { d["name"] = "two\nlines"; }), kOrigin, "/name",
               "expected a name without control characters (line breaks, tabs, ...), found \"two\\nlines\"");
  ordered_json document = valid_document();
  document["workload"]["generators"][0]["name"] = "Philly mix_1 \u00e9";  // free text otherwise
  document["name"] = "It's \"mine\", 2";
  EXPECT_NO_THROW(load(document));
}

TEST(ScenarioErrors, GpuProductMustBeInTheCatalogAndInAPool) {
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["request"]["gpu_product"] = "H100"; }),
               kOrigin, "/workload/generators/0/request/gpu_product",
               "unknown GPU model \"H100\"; did you mean \"H100-80GB\"? (see `sharesim gpus`)");
  expect_error(
      rejection_of([](ordered_json& d) { d["workload"]["generators"][0]["request"]["gpu_product"] = "H100-80GB"; }),
      kOrigin, "/workload/generators/0/request/gpu_product",
      "no node pool has GPU model \"H100-80GB\" (the pools have \"A100-80GB\")");
}

TEST(ScenarioErrors, WorkloadMustHaveSomeWork) {
  expect_error(rejection_of([](ordered_json& d) { d["workload"] = ordered_json::object(); }), kOrigin, "/workload",
               "the workload is empty: give at least one of \"generators\", \"jobs\" or \"trace\"");
  expect_error(rejection_of([](ordered_json& d) { d["workload"]["generators"][0].erase("count"); }), kOrigin,
               "/workload/generators/0", "a generator needs \"count\", \"until\" or both, to know when to stop");
}

TEST(ScenarioErrors, FirstErrorInTheFileWins) {
  // The workload comes before the cluster in this file, so its error is the one reported,
  // although the cluster is checked first.
  const std::string text = R"({
    "name": "order",
    "workload": {"generators": [{"kind": "batch", "arrival": {"process": "poisson", "rate_per_s": 1},
                                 "duration": {"dist": "constant", "mean_s": 1}}]},
    "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80G", "gpus_per_node": 1,
                                "cpu_milli": 1, "memory_mib": 1}]}
  })";
  expect_error(rejection_of_text(text), kOrigin, "/workload/generators/0",
               "a generator needs \"count\", \"until\" or both, to know when to stop");
}

TEST(ScenarioErrors, BadOverridePath) {
  const std::string text = valid_document().dump();
  expect_error(rejection_of_text(text, {{"workload.generators.3.count", "5"}}), "--set", "workload.generators.3.count",
               "index 3 is past the end of /workload/generators, which has 1 element");
  expect_error(rejection_of_text(text, {{"seed.value", "5"}}), "--set", "seed.value",
               "cannot set \"value\" inside /seed, which is a number, not an object");
  expect_error(rejection_of_text(text, {{"/cluster/node_pools/first/nodes", "5"}}), "--set",
               "/cluster/node_pools/first/nodes",
               "expected an array index (0 or digits without a leading zero), found \"first\"; /cluster/node_pools "
               "is an array");
  // RFC 6901: no leading zeros. "00" read as index 0 and "01" was "past the end".
  for (const char* path :
       {"workload.generators.00.count", "/workload/generators/00/count", "workload.generators.01.count"}) {
    const std::string index = std::string(path).find("01") != std::string::npos ? "01" : "00";
    expect_error(rejection_of_text(text, {{path, "3"}}), "--set", path,
                 "expected an array index (0 or digits without a leading zero), found \"" + index +
                     "\"; /workload/generators is an array");
  }
  expect_error(rejection_of_text(text, {{"workload.jobs.0.name", "web"}}), "--set", "workload.jobs.0.name",
               "/workload/jobs does not exist, so it has no element 0; set the whole array instead, e.g. --set "
               "'workload.jobs=[...]'");
  expect_error(rejection_of_text(text, {{"name", "caf\xe9"}}), "--set", "name",
               "expected UTF-8 text, found other bytes");
  try {
    parse_override("seed");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    expect_error(error, "--set", "seed", "expected PATH=VALUE, e.g. workload.generators.0.count=500");
  }
}

TEST(ScenarioErrors, BadOverrideValueNamesTheOverride) {
  expect_error(rejection_of_text(valid_document().dump(), {{"seed", "-1"}}), kOrigin, "/seed",
               "expected an integer >= 0, found -1 (value from --set seed=-1)");
  expect_error(rejection_of_text(valid_document().dump(), {{"scheduler.queu", "priority"}}), kOrigin, "/scheduler/queu",
               "unknown key \"queu\"; did you mean \"queue\"? (value from --set scheduler.queu=priority)");
  // A key the override created on the way is the override's, not the file's.
  const InputError created = rejection_of_text(valid_document().dump(), {{"nosuch.key", "3"}});
  EXPECT_EQ(created.file(), kOrigin);
  EXPECT_EQ(created.where(), "/nosuch");
  EXPECT_NE(created.problem().find("unknown key \"nosuch\""), std::string::npos) << created.problem();
  EXPECT_TRUE(created.problem().ends_with(" (value from --set nosuch.key=3)")) << created.problem();
}

TEST(ScenarioErrors, AnEmptyOutputDirIsRefused) {
  // It fell back to results/runs/NAME; `-o ""` is refused likewise.
  expect_error(rejection_of_text(valid_document().dump(), {{"output.dir", "\"\""}}), kOrigin, "/output/dir",
               "expected a directory path (a non-empty string), found \"\" (value from --set output.dir=\"\")");
  expect_error(rejection_of([](ordered_json& d) { d["output"]["dir"] = ""; }), kOrigin, "/output/dir",
               "expected a directory path (a non-empty string), found \"\"");
}

// ---- valid scenarios ----------------------------------------------------------------------

TEST(ScenarioLoading, FullScenarioRoundTripsWithDefaults) {
  const std::string text = R"({
    "name": "full",
    "description": "every section",
    "seed": 42,
    "until": "7d",
    "cluster": {"node_pools": [
      {"name": "dgx", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 8, "cpu_milli": 128000,
       "memory_mib": 1048576, "labels": {"zone": "a"}},
      {"name": "pcie", "nodes": 3, "gpu": "H100-80GB", "gpus_per_node": 4, "cpu_milli": 64000,
       "memory_mib": 524288, "topology": "nvlink-pairs", "nodes_per_rack": 2,
       "sharing": {"policy": "time-slicing", "replicas": 4}}]},
    "scheduler": {"queue": "priority", "placement": "binpack"},
    "workload": {
      "generators": [{"name": "train", "kind": "training", "count": 10, "until": "2d", "start": "1h",
                      "arrival": {"process": "poisson", "rate_per_s": 0.5},
                      "duration": {"dist": "lognormal", "mean_s": 600, "cv": 1.5},
                      "request": {"gpus": 2, "cpu_milli": 8000, "memory_mib": 65536, "gpu_product": "A100-80GB"},
                      "pods": 2, "priority": 3}],
      "jobs": [{"name": "web", "kind": "batch", "arrival": "10m", "duration": "1h", "replicas": 5,
                "request": {"gpus": 2}}]},
    "output": {"dir": "out", "timeseries_interval": "1h", "event_log": true}
  })";
  const Scenario scenario = load_scenario_text(text, "<string>", test_catalog());
  EXPECT_EQ(scenario.file, "<string>");
  EXPECT_EQ(scenario.base_dir, ".");
  EXPECT_EQ(scenario.name, "full");
  EXPECT_EQ(scenario.description, "every section");
  EXPECT_EQ(scenario.seed, 42U);
  EXPECT_EQ(scenario.until, 7 * kDay);
  ASSERT_EQ(scenario.node_pools.size(), 2U);

  const NodePoolSpec& dgx = scenario.node_pools[0];
  EXPECT_EQ(dgx.name, "dgx");
  EXPECT_EQ(dgx.nodes, 2);
  EXPECT_EQ(dgx.gpu, "A100-80GB");
  EXPECT_EQ(dgx.gpus_per_node, 8);
  EXPECT_EQ(dgx.cpu_milli, 128000);
  EXPECT_EQ(dgx.memory_mib, 1048576);
  EXPECT_EQ(dgx.labels, (std::map<std::string, std::string>{{"zone", "a"}}));
  EXPECT_EQ(dgx.topology, "nvswitch");  // default for 8 GPUs
  EXPECT_EQ(dgx.nodes_per_rack, 0);
  EXPECT_EQ(dgx.sharing, nlohmann::json({{"policy", "exclusive"}}));
  EXPECT_EQ(dgx.pointer, "/cluster/node_pools/0");

  const NodePoolSpec& pcie = scenario.node_pools[1];
  EXPECT_EQ(pcie.topology, "nvlink-pairs");
  EXPECT_EQ(pcie.nodes_per_rack, 2);
  EXPECT_EQ(pcie.sharing, nlohmann::json({{"policy", "time-slicing"}, {"replicas", 4}}));
  EXPECT_EQ(pcie.pointer, "/cluster/node_pools/1");

  EXPECT_EQ(scenario.scheduler.queue, "priority");
  EXPECT_EQ(scenario.scheduler.placement, "binpack");
  EXPECT_EQ(scenario.workload["generators"][0]["duration"]["cv"], 1.5);
  EXPECT_EQ(scenario.workload["jobs"][0]["replicas"], 5);
  EXPECT_EQ(scenario.output.dir, "out");
  EXPECT_EQ(scenario.output.timeseries_interval, kHour);
  EXPECT_TRUE(scenario.output.event_log);
  EXPECT_EQ(nlohmann::json(scenario.document["workload"]), scenario.workload);  // same content
  EXPECT_EQ(scenario.document["name"], "full");
}

TEST(ScenarioLoading, MinimalScenarioGetsDefaults) {
  const std::string text = R"({
    "name": "minimal",
    "cluster": {"node_pools": [{"name": "t4", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 4,
                                "cpu_milli": 16000, "memory_mib": 65536}]},
    "workload": {"jobs": [{"name": "one", "duration": "90s"}]}
  })";
  const Scenario scenario = load_scenario_text(text, "<string>", test_catalog());
  EXPECT_EQ(scenario.seed, 1U);
  EXPECT_EQ(scenario.until, kTimeNever);
  EXPECT_EQ(scenario.description, "");
  EXPECT_EQ(scenario.node_pools[0].topology, "pcie");  // default when not 8 GPUs
  EXPECT_EQ(scenario.node_pools[0].sharing, nlohmann::json({{"policy", "exclusive"}}));
  EXPECT_EQ(scenario.scheduler.queue, "fifo");
  EXPECT_EQ(scenario.scheduler.placement, "first-fit");
  EXPECT_EQ(scenario.output.dir, "");
  EXPECT_EQ(scenario.output.timeseries_interval, 0);
  EXPECT_FALSE(scenario.output.event_log);
}

TEST(ScenarioLoading, OverridesApplyBeforeValidation) {
  const Scenario scenario = load(valid_document(), {{"workload.generators.0.count", "500"},
                                                    {"/seed", "9"},
                                                    {"until", "2d"},  // not JSON: taken as a string
                                                    {"scheduler.queue", "\"priority\""},
                                                    {"output.event_log", "true"},
                                                    {"cluster.node_pools.0.labels.zone", "b"}});  // created
  EXPECT_EQ(scenario.workload["generators"][0]["count"], 500);
  EXPECT_EQ(scenario.document["workload"]["generators"][0]["count"], 500);
  EXPECT_EQ(scenario.seed, 9U);
  EXPECT_EQ(scenario.until, 2 * kDay);
  EXPECT_EQ(scenario.scheduler.queue, "priority");
  EXPECT_TRUE(scenario.output.event_log);
  EXPECT_EQ(scenario.node_pools[0].labels.at("zone"), "b");
}

TEST(ScenarioLoading, OverrideCreatesMissingSections) {
  ordered_json document = valid_document();
  document.erase("scheduler");
  document.erase("output");
  const Scenario scenario = load(document, {{"scheduler.placement", "spread"}, {"output.dir", "x/y"}});
  EXPECT_EQ(scenario.scheduler.placement, "spread");
  EXPECT_EQ(scenario.output.dir, "x/y");
}

TEST(ScenarioLoading, ParseOverrideSplitsAtTheFirstEquals) {
  const Override parsed = parse_override("output.dir=a=b");
  EXPECT_EQ(parsed.path, "output.dir");
  EXPECT_EQ(parsed.value, "a=b");
}

TEST(ScenarioLoading, FileRelativePathsResolveAgainstTheScenarioDirectory) {
  const std::string path = std::string(SHARESIM_SOURCE_DIR) + "/tests/data/scenarios/empirical.json";
  const Scenario scenario = load_scenario_file(path, test_catalog());
  EXPECT_EQ(scenario.file, path);
  EXPECT_EQ(scenario.base_dir, std::string(SHARESIM_SOURCE_DIR) + "/tests/data/scenarios");
  EXPECT_EQ(scenario.workload["generators"][0]["duration"]["file"], "durations.txt");

  try {
    load_scenario_file(path, test_catalog(), {{"workload.generators.0.duration.file", "missing.txt"}});
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    expect_error(error, path, "/workload/generators/0/duration/file",
                 "cannot read samples file \"" + scenario.base_dir +
                     "/missing.txt\": No such file or directory (value from --set "
                     "workload.generators.0.duration.file=missing.txt)");
  }
}

TEST(ScenarioLoading, BuiltinCatalogKnowsTheScenarioGpus) {
  const Scenario scenario = load_scenario_text(valid_document().dump(), "<string>", GpuCatalog::builtin());
  EXPECT_EQ(scenario.node_pools[0].gpu, "A100-80GB");
}

TEST(ScenarioSchemaText, IsTheDocsFileCompiledIn) {
  const std::string on_disk = read_text_file(std::string(SHARESIM_SOURCE_DIR) + "/docs/scenario.schema.json");
  EXPECT_EQ(scenario_schema_text(), on_disk);
}

TEST(ScenarioDocs, TheCompleteExampleIsValid) {
  // docs/scenario.md must show a scenario that loads; this keeps the page honest.
  const std::string page = read_text_file(std::string(SHARESIM_SOURCE_DIR) + "/docs/scenario.md");
  const std::size_t section = page.find("## A complete example");
  ASSERT_NE(section, std::string::npos);
  const std::size_t start = page.find("```json\n", section);
  ASSERT_NE(start, std::string::npos);
  const std::size_t body = start + std::string("```json\n").size();
  const std::size_t end = page.find("```", body);
  const Scenario scenario =
      load_scenario_text(page.substr(body, end - body), "docs/scenario.md", GpuCatalog::builtin());
  EXPECT_EQ(scenario.name, "two-nodes-exclusive");
}

TEST(ScenarioErrors, AnUntilAtTheEndOfTimeIsRefused) {
  // 2^63 - 1 ns is the loader's "no until" (kTimeNever): the run went on until all work was done
  // (horizon 10 s), and a service without lifetime was refused for an until "which is not set".
  expect_error(rejection_of([](ordered_json& d) { d["until"] = "9223372036854775807ns"; }), kOrigin, "/until",
               "expected a time of at most 9223372036854775806ns (2^63 - 1 ns stands for \"no until\"; leave "
               "\"until\" out to run until all work is done), found \"9223372036854775807ns\"");
  ordered_json last = valid_document();
  last["until"] = "9223372036854775806ns";
  EXPECT_EQ(load(last).until, kTimeNever - 1);
}

TEST(ScenarioErrors, ADiurnalPeriodOfZeroIsRefusedAtThePeriod) {
  // cos(x / 0) is undefined everywhere: the thinning never kept a candidate, and validate, run
  // and generate hung (audit diurnal0.json).
  expect_error(rejection_of([](ordered_json& d) {
                 d["workload"]["generators"][0]["arrival"] = {
                     {"process", "diurnal"}, {"rate_per_s", 1}, {"amplitude", 0.5}, {"period", "0s"}};
               }),
               kOrigin, "/workload/generators/0/arrival/period",
               "expected a duration > 0 (the rate of a diurnal process of period 0 is undefined: no arrival would ever "
               "be drawn), found \"0s\"");
  ordered_json tiny = valid_document();
  tiny["workload"]["generators"][0]["arrival"] = {
      {"process", "diurnal"}, {"rate_per_s", 1}, {"amplitude", 0.5}, {"period", "1ns"}};
  EXPECT_NO_THROW(load(tiny));
}

TEST(ScenarioErrors, AnExplicitJobMustEndWithinSimulatedTime) {
  // Arriving at 73000 d and running 36500 d, it ended past 2^63 ns: the run left it "running"
  // for ever, and `generate` wrote a row its own trace reader refuses. Explicit jobs are never
  // load-scaled (time_scale), so the written times are the ones checked.
  const auto with_job = [](ordered_json& d, const char* arrival, const char* duration) {
    d["workload"]["jobs"] = ordered_json::array({{{"name", "a"}, {"arrival", arrival}, {"duration", duration}}});
  };
  expect_error(rejection_of([&](ordered_json& d) { with_job(d, "73000d", "36500d"); }), kOrigin,
               "/workload/jobs/0/duration",
               "expected a job that ends within 9223372036 s (about 292 years, what int64 nanoseconds hold) from the "
               "start of the run, found one arriving at \"73000d\" and running \"36500d\"");
  expect_error(rejection_of([&](ordered_json& d) { with_job(d, "1ns", "9223372036854775806ns"); }), kOrigin,
               "/workload/jobs/0/duration",
               "expected a job that ends within 9223372036 s (about 292 years, what int64 nanoseconds hold) from the "
               "start of the run, found one arriving at \"1ns\" and running \"9223372036854775806ns\"");
  ordered_json last = valid_document();
  last.erase("until");
  with_job(last, "1ns", "9223372036854775805ns");  // ends 1 ns before the end of time
  EXPECT_NO_THROW(load(last));
  with_job(last, "73000d", "9223372036854775807ns");  // never ends: as a trace's saturated duration
  EXPECT_NO_THROW(load(last));
}

TEST(MemoryBudget, NodesCountWithoutGpus) {
  // A CPU-only pool cost nothing in the estimate: 4294967297 nodes passed the budget and the run
  // failed with a bare "out of memory", naming no file or key (scenario fixer's find). Per node
  // 500 bytes, and 700 more with GPUs (their labels), measured (docs/reliability.md).
  ordered_json d = valid_document();
  d["cluster"]["node_pools"][0]["gpus_per_node"] = 0;
  d["cluster"]["node_pools"][0]["nodes"] = 4294967297.0;
  d["workload"]["generators"][0]["request"]["gpus"] = 0;
  const MemoryEstimate cpu_only = estimate_memory(d);
  EXPECT_EQ(cpu_only.nodes, 4294967297.0);
  EXPECT_EQ(cpu_only.gpus, 0);
  EXPECT_EQ(cpu_only.largest_pointer, "/cluster/node_pools/0/nodes");
  const InputError error = rejection_of_text(d.dump(2));
  EXPECT_EQ(error.where(), "/cluster/node_pools/0/nodes");
  EXPECT_EQ(error.problem().substr(0, 69), "this scenario needs about 2e+03 GiB of memory (4.29e+09 nodes, 0 GPUs");
  d["cluster"]["node_pools"][0]["nodes"] = 1000;
  const double jobs_bytes = estimate_memory(d).bytes;
  d["cluster"]["node_pools"][0]["gpus_per_node"] = 8;
  EXPECT_EQ(estimate_memory(d).bytes - jobs_bytes, 1000 * (kBytesPerGpuNode + 8 * kBytesPerGpu));
}

TEST(MemoryBudget, TimeSeriesSamplesCountWithoutUntil) {
  // One 1000 s job sampled every 1 ns: 1e12 samples, 60 TB. Without `until` the samples were not
  // counted: validate said valid and the run ran out of memory without naming a file or a key.
  ordered_json d = valid_document();
  d.erase("until");
  d["workload"] = ordered_json::parse(R"({"jobs": [{"name": "a", "arrival": "0s", "duration": "1000s"}]})");
  d["output"]["timeseries_interval"] = "1ns";
  const MemoryEstimate one_job = estimate_memory(d);
  EXPECT_EQ(one_job.samples, 1e12 + 1);
  EXPECT_EQ(one_job.largest_pointer, "/output/timeseries_interval");
  const InputError error = rejection_of_text(d.dump(2));
  EXPECT_EQ(error.where(), "/output/timeseries_interval");
  EXPECT_EQ(error.problem().substr(0, 65), "this scenario needs about 5.96e+04 GiB of memory (2 nodes, 16 GPU");
  // The latest end of an explicit job bounds it: arrival + duration, or + lifetime.
  d["output"]["timeseries_interval"] = "1s";
  d["workload"]["jobs"].push_back(ordered_json::parse(R"({"name": "b", "arrival": "500s", "duration": "2000s"})"));
  EXPECT_EQ(estimate_memory(d).samples, 2501);
  d["workload"]["jobs"].push_back(ordered_json::parse(
      R"({"name": "s", "kind": "inference", "arrival": "100s", "lifetime": "1h",
          "requests": {"arrival": {"process": "poisson", "rate_per_s": 1}, "work": {"dist": "constant", "mean_s": 0.01}}})"));
  EXPECT_EQ(estimate_memory(d).samples, 3701);
  // A generator: its until, or with a count and a mean rate, the expected time of its last
  // arrival (start + count / rate, load scaling applied).
  d["workload"]["generators"] = valid_document()["workload"]["generators"];  // 1000 jobs at 0.01/s
  EXPECT_EQ(estimate_memory(d).samples, 100'001);
  d["workload"]["time_scale"] = 2;
  EXPECT_EQ(estimate_memory(d).samples, 200'001);
  d["workload"]["generators"][0]["until"] = "50000s";
  EXPECT_EQ(estimate_memory(d).samples, 50'001);
  // With `until`, it alone bounds the samples.
  d["until"] = "10s";
  EXPECT_EQ(estimate_memory(d).samples, 11);
  // A trace's length is not known before reading it: a trace alone bounds nothing.
  d.erase("until");
  d["workload"] = ordered_json::parse(R"({"trace": {"path": "jobs.csv"}})");
  EXPECT_EQ(estimate_memory(d).samples, 0);
}

TEST(ScenarioErrors, ATaintNeedsAKey) {
  // Kubernetes validates a taint's key as a label name, whose name part must be non-empty
  // (validateNodeTaints, pkg/apis/core/validation); an empty key was taken as given.
  expect_error(rejection_of([](ordered_json& d) {
                 d["cluster"]["node_pools"][0]["taints"] = ordered_json::parse(
                     R"([{"key": "gpu", "effect": "NoSchedule"}, {"key": "", "effect": "NoSchedule"}])");
               }),
               kOrigin, "/cluster/node_pools/0/taints/1/key",
               "expected a taint key (Kubernetes requires one: a taint's key is a label name, whose name part must be "
               "non-empty), found \"\"");
}

}  // namespace
}  // namespace sharesim
