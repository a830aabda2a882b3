// sharesim compare (apps/compare_run.h): one scenario under each sharing policy, same seed;
// every built-in policy runs; deterministic compare.csv / compare.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "apps/compare_run.h"
#include "run_helpers.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

const std::vector<std::string> kAll{"exclusive", "timeslice", "mps", "mig", "vgpu", "fractional"};

// Small fractional jobs and a few 60 GiB full-GPU ones, Poisson, on 1 node x 2 GPUs.
const std::string kMixedWorkload = R"({"generators": [
  {"name": "small", "kind": "batch", "count": 60, "arrival": {"process": "poisson", "rate_per_s": 0.004},
   "duration": {"dist": "exponential", "mean_s": 600},
   "request": {"gpus": 1, "demand": {"sm": 0.3, "bw": 0.2, "mem_mib": 12288}}},
  {"name": "large", "kind": "training", "count": 6, "arrival": {"process": "poisson", "rate_per_s": 0.0005},
   "duration": {"dist": "exponential", "mean_s": 3600},
   "request": {"gpus": 1, "demand": {"sm": 1.0, "bw": 0.6, "mem_mib": 61440}}}]})";

Scenario mixed_scenario(const std::string& extra = "", const std::string& gpu = "A100-80GB") {
  return testing::scenario_from_text(testing::cluster_scenario(1, 2, kMixedWorkload, extra, gpu));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("sharesim-compare-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

InputError compare_error(const Scenario& scenario, const std::vector<std::string>& names) {
  try {
    CompareRun compare(scenario, GpuCatalog::builtin(), names);
    compare.run();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError";
  return InputError("", "", "");
}

TEST(Compare, EveryBuiltInPolicyRunsAndHasItsRowOfFigures) {
  CompareRun compare(mixed_scenario(), GpuCatalog::builtin(), kAll);
  compare.run();
  ASSERT_EQ(compare.results().size(), kAll.size());
  for (std::size_t i = 0; i < kAll.size(); ++i) {
    const CompareResult& r = compare.results()[i];
    EXPECT_EQ(r.variant.name, kAll[i]);
    EXPECT_EQ(r.variant.policy, kAll[i]);
    ASSERT_TRUE(r.run) << kAll[i];
    // The run really used the policy, on every GPU pool, with the scenario's seed and jobs.
    EXPECT_EQ(r.run->cluster().pools().front().policy, kAll[i]);
    EXPECT_EQ(r.run->scenario().seed, 3u);
    EXPECT_EQ(r.run->metrics().submitted, 66u) << kAll[i];
    EXPECT_GT(r.run->metrics().completed, 0u) << kAll[i];
  }
  // The built-in defaults of mig and fractional.
  EXPECT_EQ(compare.results()[3].variant.sharing_summary().dump(),
            R"({"policy":"mig","strategy":"single","layout":"all-2g.20gb"})");
  EXPECT_EQ(compare.results()[5].variant.sharing_summary().dump(), R"({"policy":"fractional"})");

  // compare.json: one object per policy, with its figures and no status or note.
  const nlohmann::ordered_json json = compare.json();
  ASSERT_EQ(json["policies"].size(), kAll.size());
  for (std::size_t i = 0; i < kAll.size(); ++i) {
    const auto& row = json["policies"][i];
    EXPECT_EQ(row["variant"], kAll[i]);
    EXPECT_FALSE(row.contains("status")) << kAll[i];
    EXPECT_FALSE(row.contains("note")) << kAll[i];
    EXPECT_EQ(row["jobs_submitted"], 66u) << kAll[i];
    EXPECT_GT(row["jobs_completed"].get<std::uint64_t>(), 0u) << kAll[i];
    EXPECT_FALSE(row["jct_p50_s"].is_null()) << kAll[i];
    EXPECT_FALSE(row["gpus_used_peak"].is_null()) << kAll[i];
  }
  EXPECT_EQ(json["policies"][3]["sharing"].dump(), R"({"policy":"mig","strategy":"single","layout":"all-2g.20gb"})");
  EXPECT_EQ(json["policies"][5]["sharing"].dump(), R"({"policy":"fractional"})");

  // compare.csv: the header, then one row per policy that starts with its name and policy.
  std::istringstream csv(compare.csv());
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("variant,policy,sharing,jobs_submitted,jobs_completed,", 0), 0u) << header;
  std::istringstream columns(header);
  for (std::string column; std::getline(columns, column, ',');) {
    EXPECT_NE(column, "status");
    EXPECT_NE(column, "note");
  }
  for (const std::string& name : kAll) {
    std::string line;
    ASSERT_TRUE(std::getline(csv, line)) << name;
    EXPECT_EQ(line.rfind(name + "," + name + ",", 0), 0u) << line;
    EXPECT_NE(line.find(",66,"), std::string::npos) << line;  // jobs_submitted
  }
  std::string extra;
  EXPECT_FALSE(std::getline(csv, extra)) << extra;
  // The table has no status row.
  EXPECT_EQ(compare.table().find("status"), std::string::npos);
  EXPECT_NE(compare.table().find("simulated   6 runs"), std::string::npos) << compare.table();
}

TEST(Compare, SameSeedGivesByteIdenticalCompareFiles) {
  const auto a = temp_dir("a"), b = temp_dir("b");
  for (const auto& dir : {a, b}) {
    CompareRun compare(
        mixed_scenario(R"("faults": {"mtbf": "2h"}, "cost": {"gpu_hour": 2}, "slo": {"max_slowdown": 3}, )"),
        GpuCatalog::builtin(), kAll);
    compare.run();
    compare.write_outputs(dir.string());
  }
  for (const char* file :
       {"compare.csv", "compare.json", "timeslice/jobs.csv", "mps/gpus.csv", "mig/jobs.csv", "fractional/jobs.csv"}) {
    const std::string left = read_file(a / file);
    EXPECT_FALSE(left.empty()) << file;
    EXPECT_EQ(left, read_file(b / file)) << file;
  }
  EXPECT_EQ(read_file(a / "compare.json").find("wall"), std::string::npos);
  EXPECT_EQ(read_file(a / "compare.csv").find("wall"), std::string::npos);
  // Each run's own outputs, every policy's.
  for (const std::string& policy : kAll) EXPECT_TRUE(std::filesystem::exists(a / policy / "summary.json")) << policy;
  // Seven lines: the header and one per policy.
  const std::string csv = read_file(a / "compare.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

TEST(Compare, ADifferentSeedChangesTheFigures) {
  CompareRun first(mixed_scenario(), GpuCatalog::builtin(), {"timeslice"});
  first.run();
  Scenario other = mixed_scenario();
  other.seed = 99;
  CompareRun second(other, GpuCatalog::builtin(), {"timeslice"});
  second.run();
  EXPECT_NE(first.csv(), second.csv());
}

TEST(Compare, UnknownPolicyNameSuggestsOne) {
  const InputError e = compare_error(mixed_scenario(), {"exclusive", "timeslise"});
  EXPECT_EQ(e.file(), "--policies");
  EXPECT_NE(e.problem().find("unknown policy or variant \"timeslise\"; did you mean \"timeslice\"?"), std::string::npos)
      << e.what();
  // The scenario's own variant names are candidates too.
  const Scenario with_variants =
      mixed_scenario(R"("compare": {"variants": {"ts8": {"policy": "timeslice", "replicas": 8}}}, )");
  const InputError v = compare_error(with_variants, {"ts9"});
  EXPECT_NE(v.problem().find("did you mean \"ts8\"?"), std::string::npos) << v.what();
}

TEST(Compare, PolicyListIsChecked) {
  EXPECT_EQ(parse_policy_list("exclusive,mps"), (std::vector<std::string>{"exclusive", "mps"}));
  for (const char* bad : {"", "exclusive,,mps", "exclusive,", "mps,mps"}) {
    try {
      parse_policy_list(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "--policies");
    }
  }
}

TEST(Compare, ScenarioVariantsReplaceEveryGpuPoolsSharing) {
  const Scenario scenario = mixed_scenario(
      R"("compare": {"variants": {"ts8": {"policy": "timeslice", "replicas": 8},
                                  "mig-7": {"policy": "mig", "layout": "all-1g.10gb"}}}, )");
  CompareRun compare(scenario, GpuCatalog::builtin(), {"ts8", "mig-7"});
  const CompareResult& ts8 = compare.results()[0];
  ASSERT_TRUE(ts8.run);
  EXPECT_FALSE(ts8.variant.builtin);
  EXPECT_EQ(ts8.variant.policy, "timeslice");
  // 2 GPUs x 8 replicas of nvidia.com/gpu.
  std::int64_t advertised = 0;
  for (const Gpu& gpu : ts8.run->cluster().gpus()) advertised += gpu.sharing->advertise().front().quantity;
  EXPECT_EQ(advertised, 16);
  // summary.json echoes the scenario as it ran.
  EXPECT_EQ(ts8.run->summary()["scenario"]["cluster"]["node_pools"][0]["sharing"]["replicas"], 8);
  // 2 GPUs x 7 1g.10gb instances, each one nvidia.com/gpu under the single strategy.
  const CompareResult& mig7 = compare.results()[1];
  ASSERT_TRUE(mig7.run);
  EXPECT_FALSE(mig7.variant.builtin);
  EXPECT_EQ(mig7.variant.policy, "mig");
  EXPECT_EQ(mig7.run->cluster().pools().front().policy, "mig");
  std::int64_t instances = 0;
  for (const Gpu& gpu : mig7.run->cluster().gpus()) {
    for (const auto& resource : gpu.sharing->advertise()) instances += resource.quantity;
  }
  EXPECT_EQ(instances, 14);
  EXPECT_EQ(mig7.run->summary()["scenario"]["cluster"]["node_pools"][0]["sharing"]["layout"], "all-1g.10gb");
}

TEST(Compare, BadVariantConfigPointsAtTheVariant) {
  const InputError e = compare_error(
      mixed_scenario(R"("compare": {"variants": {"ts8": {"policy": "timeslice", "replicaz": 8}}}, )"), {"ts8"});
  EXPECT_EQ(e.file(), "<test>");
  EXPECT_EQ(e.where(), "/compare/variants/ts8/replicaz");
  const InputError builtin_name =
      compare_error(mixed_scenario(R"("compare": {"variants": {"mps": {"policy": "mps", "replicas": 2}}}, )"), {"mps"});
  EXPECT_EQ(builtin_name.where(), "/compare/variants/mps");
  const InputError bad_name =
      compare_error(mixed_scenario(R"("compare": {"variants": {"TS 8": {"policy": "timeslice"}}}, )"), {"mps"});
  EXPECT_EQ(bad_name.where(), "/compare/variants/TS 8");
  // A built-in default that does not fit the cluster names the --policies entry.
  const InputError t4 = compare_error(mixed_scenario("", "T4"), {"vgpu"});
  EXPECT_EQ(t4.file(), "--policies");
  EXPECT_NE(t4.problem().find("no vGPU type table"), std::string::npos) << t4.what();
}

TEST(Compare, DefaultVgpuTypePutsFourVgpusOnEachGpu) {
  const std::pair<const char*, const char*> expected[] = {
      {"A100-40GB", "A100-10C"}, {"A100-80GB", "A100-20C"}, {"H100-80GB", "H100-20C"}};
  for (const auto& [gpu, profile] : expected) {
    const CompareVariant v = compare_variant(mixed_scenario("", gpu), "vgpu");
    EXPECT_EQ(v.sharing_summary()["profile"], profile) << gpu;
  }
}

TEST(Compare, PoolsWithoutGpusKeepTheirSharingAndPoolsOfOtherModelsGetTheirOwnVgpuType) {
  const Scenario scenario = testing::scenario_from_text(R"({"name": "t", "seed": 3, "cluster": {"node_pools": [
      {"name": "a40", "nodes": 1, "gpu": "A100-40GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "cpu", "nodes": 1, "gpu": "A100-40GB", "gpus_per_node": 0, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "h100", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144}]},
      "workload": {"jobs": [{"name": "j", "replicas": 3, "duration": "1h", "request": {"gpus": 1}}]}})");
  CompareRun compare(scenario, GpuCatalog::builtin(), {"vgpu"});
  const CompareVariant& v = compare.results()[0].variant;
  EXPECT_EQ(v.sharing_summary().dump(),
            R"({"a40":{"policy":"vgpu","profile":"A100-10C"},"h100":{"policy":"vgpu","profile":"H100-20C"}})");
  const nlohmann::ordered_json summary = compare.results()[0].run->summary();
  const auto& pools = summary["scenario"]["cluster"]["node_pools"];
  EXPECT_EQ(pools[0]["sharing"]["profile"], "A100-10C");
  EXPECT_FALSE(pools[1].contains("sharing"));  // the CPU pool is left as written
  EXPECT_EQ(pools[2]["sharing"]["profile"], "H100-20C");
}

// Four 1-hour jobs of 30% of the SMs arrive together on one GPU.
Scenario queue_scenario() {
  return testing::scenario_from_text(testing::cluster_scenario(1, 1, R"({"jobs": [
      {"name": "j", "replicas": 4, "duration": "1h", "request": {"gpus": 1, "demand": {"sm": 0.3, "bw": 0.2, "mem_mib": 8192}}}]})"));
}

TEST(Compare, TimeslicingStartsQueuedJobsAtOnceAndSharesTheTime) {
  CompareRun compare(queue_scenario(), GpuCatalog::builtin(), {"exclusive", "timeslice", "mps"});
  compare.run();
  const RunMetrics& exclusive = compare.results()[0].run->metrics();
  const RunMetrics& timeslice = compare.results()[1].run->metrics();
  const RunMetrics& mps = compare.results()[2].run->metrics();
  // Exclusive: one job at a time, waits of 0, 1, 2 and 3 hours.
  EXPECT_NEAR(exclusive.wait_s.max, 3 * 3600.0, 1e-6);
  EXPECT_NEAR(exclusive.slowdown.p50, 1.0, 1e-9);
  // Time-slicing (4 replicas): all four start at once, so nobody waits, but they take turns on
  // the GPU: each runs slower than alone, and no faster in total than one after another.
  EXPECT_EQ(timeslice.wait_s.max, 0.0);
  EXPECT_LT(timeslice.wait_s.p95, exclusive.wait_s.p95);
  EXPECT_GT(timeslice.slowdown.p50, 3.0);
  EXPECT_GE(timeslice.jct_s.max, exclusive.jct_s.max - 1e-6);
  // MPS runs them concurrently: 4 x 30% of the SMs, capped at 25% each, fits in one GPU.
  EXPECT_EQ(mps.wait_s.max, 0.0);
  EXPECT_LT(mps.jct_s.max, exclusive.jct_s.max);
}

TEST(Compare, MemoryIsolationDecidesWhoRunsOutOfMemory) {
  // Two 60 GiB jobs on one 80 GB GPU.
  const Scenario scenario = testing::scenario_from_text(testing::cluster_scenario(1, 1, R"({"jobs": [
      {"name": "big", "replicas": 2, "duration": "1h", "request": {"gpus": 1, "demand": {"sm": 1.0, "mem_mib": 61440}}}]})"));
  CompareRun compare(scenario, GpuCatalog::builtin(), {"exclusive", "timeslice", "mps", "vgpu"});
  compare.run();
  EXPECT_EQ(compare.results()[0].run->metrics().killed_oom, 0u);  // one after another
  EXPECT_EQ(compare.results()[0].run->metrics().completed, 2u);
  EXPECT_EQ(compare.results()[1].run->metrics().killed_oom, 1u);  // no isolation: the second does not fit
  EXPECT_EQ(compare.results()[2].run->metrics().killed_oom, 2u);  // MPS pinned limit 20 GiB per client
  EXPECT_EQ(compare.results()[3].run->metrics().killed_oom, 2u);  // A100-20C framebuffer
}

}  // namespace
}  // namespace sharesim
