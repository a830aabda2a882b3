// Sweeps (apps/sweep_spec.h, apps/run_pool.h, apps/sweep_results.h): expansion order and ids,
// located spec errors, the statistics, and the byte-identical results of a whole sweep, a
// resumed one and shards merged.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "apps/run_pool.h"
#include "apps/sweep_results.h"
#include "apps/sweep_spec.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::random_device entropy;
    path_ = fs::temp_directory_path() / ("sharesim-sweep-test-" + std::to_string(entropy()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return (path_ / name).string();
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

const char* kScenario = R"({"name": "s", "seed": 1,
  "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 2,
    "cpu_milli": 64000, "memory_mib": 262144}]},
  "workload": {"generators": [{"kind": "training", "count": 40,
    "arrival": {"process": "poisson", "rate_per_s": 0.01},
    "duration": {"dist": "exponential", "mean_s": 150}, "request": {"gpus": 1}}]}})";

std::string spec_error(const TempDir& dir, const std::string& spec) {
  dir.file("s.json", kScenario);
  const std::string path = dir.file("spec.json", spec);
  try {
    expand_sweep(load_sweep_spec(path), GpuCatalog::builtin());
  } catch (const InputError& e) {
    std::string text = e.what();
    return text.substr(text.find("spec.json"));
  }
  return "(no error)";
}

TEST(Sweep, ExpandsGridZipVariantsAndSeedsInOrder) {
  TempDir dir;
  dir.file("s.json", kScenario);
  const std::string spec = dir.file("spec.json", R"({"scenario": "s.json", "seeds": "1-3",
    "grid": {"workload.generators.0.arrival.rate_per_s": [0.01, 0.02]},
    "zip": {"workload.generators.0.count": [30, 40], "scheduler.placement": ["first-fit", "binpack"]},
    "variants": ["exclusive", "mps"], "metrics": ["metrics.jobs.wait_s.mean"]})");
  const ExpandedSweep sweep = expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin());
  const SweepPlan& plan = sweep.plan;
  ASSERT_EQ(plan.runs.size(), 2u * 2u * 2u * 3u);
  EXPECT_EQ(plan.groups, 8u);
  EXPECT_EQ(plan.point_paths, (std::vector<std::string>{"workload.generators.0.arrival.rate_per_s",
                                                        "workload.generators.0.count", "scheduler.placement"}));
  // Seeds fastest, then variants, then the zip axis, the grid slowest.
  EXPECT_EQ(plan.runs[0].seed, 1u);
  EXPECT_EQ(plan.runs[2].seed, 3u);
  EXPECT_EQ(plan.runs[3].variant, "mps");
  EXPECT_EQ(point_value_text(plan.runs[6].point[2]), "binpack");
  EXPECT_EQ(plan.runs[6].point[1], 40);
  EXPECT_EQ(plan.runs[12].point[0], 0.02);
  EXPECT_EQ(plan.runs[12].group, 4u);
  // The effective scenarios carry the values, the variant and the seed.
  const Scenario& run = sweep.scenarios[12 + 3 + 2];
  EXPECT_EQ(run.seed, 3u);
  EXPECT_EQ(run.node_pools[0].sharing["policy"], "mps");
  EXPECT_EQ(run.document["workload"]["generators"][0]["arrival"]["rate_per_s"], 0.02);
  EXPECT_EQ(run.scheduler.placement, "first-fit");
  // Ids: distinct, stable, 16 hex digits.
  std::set<std::string> ids;
  for (const SweepRun& r : plan.runs) ids.insert(r.id);
  EXPECT_EQ(ids.size(), plan.runs.size());
  EXPECT_EQ(plan.runs[5].id.size(), 16u);
  EXPECT_EQ(expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin()).plan.to_json(), plan.to_json());
  EXPECT_EQ(SweepPlan::from_json(plan.to_json(), "x").to_json(), plan.to_json());
}

TEST(Sweep, SpecErrorsAreLocated) {
  TempDir dir;
  const std::string base = R"("scenario": "s.json", "metrics": ["metrics.jobs.wait_s.mean"])";
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "5-2"})"),
            "spec.json: /seeds: expected a range FIRST-LAST with FIRST <= LAST, found \"5-2\"");
  // A range too long is said as such (it was "FIRST <= LAST", which it met).
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "0-100000000"})"),
            "spec.json: /seeds: expected a range of at most 100000 seeds, found \"0-100000000\" (100000001 seeds)");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": [1, -2]})"),
            "spec.json: /seeds/1: expected an integer >= 0, found -2");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": [1, 1]})"), "spec.json: /seeds: seed 1 is listed twice");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "1", "zip": {"cluster.node_pools.0.nodes": [1, 2], "until": ["1h"]}})"),
            "spec.json: /zip/until: the zip lists vary together, so they need one length: expected 2 values (as "
            "\"cluster.node_pools.0.nodes\"), found 1");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "1", "grid": {"until": ["1d"]}, "zip": {"/until": ["2d"]}})"),
            "spec.json: /zip/~1until: the scenario path \"/until\" also varies at /grid/until; expected each path in "
            "one place");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "1", "grid": {"seed": [3]}})"),
            "spec.json: /grid/seed: the seeds are set by /seeds; expected a scenario path other than \"seed\"");
  EXPECT_EQ(spec_error(dir, R"({"scenario": "", "seeds": "1", "metrics": ["metrics.jobs.wait_s.mean"]})"),
            "spec.json: /scenario: expected a scenario file (relative to the spec's folder), found \"\", which is "
            "empty");
  // A missing file: the path it was looked for at, then the system's reason (the two ran together:
  // "which DIR/nope.json No such file or directory").
  const std::string missing = spec_error(dir, R"({"scenario": "nope.json", "seeds": "1", "metrics": ["metrics.jobs.wait_s.mean"]})");
  EXPECT_EQ(missing.substr(0, missing.find(" (/")),
            "spec.json: /scenario: expected a scenario file (relative to the spec's folder), found \"nope.json\"");
  EXPECT_NE(missing.find("/nope.json: No such file or directory)"), std::string::npos) << missing;
  try {  // size's and place-sweep's --seeds, too
    parse_seed_list("1,3-4,3", "--seeds", "");
    ADD_FAILURE() << "a seed listed twice was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--seeds: seed 3 is listed twice");
  }
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "1", "variants": ["exclusiv"]})"),
            "spec.json: /variants/0: unknown policy or variant \"exclusiv\"; did you mean \"exclusive\"?");
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "seeds": "1", "grid": {"until": []}})"),
            "spec.json: /grid/until: expected at least 1 item, found an empty array");
  const std::string bad_value =
      spec_error(dir, "{" + base + R"(, "seeds": "1", "grid": {"workload.generators.0.count": [5, -1]}})");
  EXPECT_EQ(bad_value.rfind("spec.json", 0), 0u) << bad_value;
  const std::string bad_variant = spec_error(
      dir, "{" + base + R"(, "seeds": "1", "variants": {"m": {"pools": {"p": {"policy": "mps", "replicaz": 2}}}}})");
  EXPECT_EQ(bad_variant.rfind("spec.json: /variants/m/pools/p/replicaz: ", 0), 0u) << bad_variant;
  EXPECT_EQ(spec_error(dir, R"({"scenario": "s.json", "seeds": "1", "metrics": ["metrics.sim.wall_s"]})")
                .rfind("spec.json: /metrics/0: metrics.sim.wall_s is the wall-clock time", 0),
            0u);
  EXPECT_EQ(spec_error(dir, R"({"scenario": "s.json", "seeds": "1", "metric": []})").rfind("spec.json: ", 0), 0u);
}

TEST(Sweep, AVariantIsCheckedOnTheClusterItConfigures) {
  // A 5-pod gang; 1 node of pool "b" leaves 4 GPUs: too few exclusive (the scenario's own
  // sharing), enough as 16 time-slicing replicas. The point used to be refused for timeslice
  // with the exclusive pools' "the whole cluster can hold at most 4".
  TempDir dir;
  dir.file("s.json", R"({"name": "s", "seed": 1,
    "cluster": {"node_pools": [
      {"name": "a", "nodes": 2, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144},
      {"name": "b", "nodes": 4, "gpu": "A100-80GB", "gpus_per_node": 2, "cpu_milli": 64000, "memory_mib": 262144}]},
    "workload": {"jobs": [{"name": "gang", "pods": 5, "duration": "1h", "request": {"gpus": 1}}]}})");
  const std::string spec = dir.file("spec.json", R"({"scenario": "s.json", "seeds": "1-2",
    "grid": {"cluster.node_pools.1.nodes": [1]}, "variants": ["timeslice"],
    "metrics": ["metrics.jobs.wait_s.mean"]})");
  const ExpandedSweep sweep = expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin());
  ASSERT_EQ(sweep.scenarios.size(), 2u);
  EXPECT_EQ(sweep.scenarios[0].node_pools[1].nodes, 1);
  EXPECT_EQ(sweep.scenarios[0].node_pools[1].sharing["policy"], "timeslice");
  // The same point under exclusive is refused, naming the variant.
  dir.file("spec.json", R"({"scenario": "s.json", "seeds": "1-2",
    "grid": {"cluster.node_pools.1.nodes": [1]}, "variants": ["timeslice", "exclusive"],
    "metrics": ["metrics.jobs.wait_s.mean"]})");
  try {
    expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin());
    ADD_FAILURE() << "1 node of exclusive GPUs was accepted for a 5-pod gang";
  } catch (const InputError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("can hold at most 4"), std::string::npos) << text;
    EXPECT_NE(text.find("(sharing variant \"exclusive\")"), std::string::npos) << text;
  }
}

TEST(Sweep, APlanWithAGroupOutOfRangeIsALocatedError) {
  // sweep merge read such a plan and stopped with "internal error: vector::_M_range_check" (exit 1).
  TempDir dir;
  dir.file("s.json", kScenario);
  const std::string spec = dir.file("spec.json", R"({"scenario": "s.json", "seeds": "1-2",
    "grid": {"workload.generators.0.count": [30, 40]}, "metrics": ["metrics.jobs.wait_s.mean"]})");
  const nlohmann::ordered_json good = expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin()).plan.to_json();
  ASSERT_EQ(good["groups"], 2);
  const auto error = [&](const std::function<void(nlohmann::ordered_json&)>& damage) -> std::string {
    nlohmann::ordered_json plan = good;
    damage(plan);
    try {
      SweepPlan::from_json(plan, "sweep-plan.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error([](auto& p) { p["runs"][0]["group"] = 99; }),
            "sweep-plan.json: /runs/0/group: expected a group index from 0 to 1 (below /groups, 2), found 99");
  EXPECT_EQ(error([](auto& p) { p["runs"][0]["group"] = -1; }),
            "sweep-plan.json: /runs/0/group: expected a group index from 0 to 1 (below /groups, 2), found -1");
  EXPECT_EQ(error([](auto& p) { p["groups"] = 1; }),
            "sweep-plan.json: /runs/2/group: expected a group index from 0 to 0 (below /groups, 1), found 1");
  EXPECT_EQ(error([](auto& p) { p["groups"] = 0; }),
            "sweep-plan.json: /runs/0/group: expected a group index below /groups, found 0 (/groups is 0, so no run "
            "can have a group)");
  EXPECT_EQ(error([](auto& p) { p["groups"] = -3; }),
            "sweep-plan.json: /groups: expected the number of groups, an integer >= 0, found -3");
  EXPECT_EQ(error([](auto& p) { p["runs"][1]["point"] = nlohmann::ordered_json::array(); }),
            "sweep-plan.json: /runs/1/point: expected 1 values, one per /point_paths entry, found 0");
}

TEST(Sweep, StatisticsUseStudentT) {
  const MetricStats stats = metric_stats({2.0, 4.0, 9.0});
  EXPECT_EQ(stats.n, 3u);
  EXPECT_DOUBLE_EQ(stats.mean, 5.0);
  EXPECT_NEAR(*stats.sd, std::sqrt(13.0), 1e-12);
  EXPECT_NEAR(*stats.ci95, 4.302652729696 * std::sqrt(13.0) / std::sqrt(3.0), 1e-9);
  const MetricStats one = metric_stats({7.0});
  EXPECT_EQ(one.n, 1u);
  EXPECT_FALSE(one.sd.has_value());
}

// Runs `runs` of the sweep into `dir`.
void run_into(const ExpandedSweep& sweep, const std::string& dir, const std::vector<std::size_t>& runs,
              unsigned threads) {
  write_sweep_plan(dir, sweep.plan);
  std::vector<PooledRun> pooled;
  for (std::size_t k : runs) pooled.push_back({&sweep.scenarios[k], sweep_run_dir(dir, sweep.plan.runs[k].id)});
  run_pool(pooled, GpuCatalog::builtin(), threads);
}

TEST(Sweep, WholeResumedAndShardedSweepsGiveTheSameBytes) {
  TempDir dir;
  dir.file("s.json", kScenario);
  const std::string spec = dir.file("spec.json", R"({"scenario": "s.json", "seeds": [4, 5, 6],
    "grid": {"workload.generators.0.arrival.rate_per_s": [0.005, 0.02]},
    "variants": {"whole": {"policy": "exclusive"}, "ts": {"pools": {"p": "timeslice"}}},
    "metrics": ["metrics.jobs.wait_s.mean", "metrics.jobs.jct_s.p95", "metrics.gpus.utilization_mean"]})");
  const ExpandedSweep sweep = expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin());
  std::vector<std::size_t> all(sweep.plan.runs.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;

  const std::string whole = dir.path("whole");
  run_into(sweep, whole, all, 2);
  const SweepResults expected = build_sweep_results(sweep.plan, {whole});
  EXPECT_EQ(std::count(expected.runs_csv.begin(), expected.runs_csv.end(), '\n'), 13);
  EXPECT_EQ(expected.runs_csv.substr(0, expected.runs_csv.find('\n')),
            "workload.generators.0.arrival.rate_per_s,variant,seed,metrics.jobs.wait_s.mean,metrics.jobs.jct_s.p95,"
            "metrics.gpus.utilization_mean,run_id");
  EXPECT_EQ(expected.aggregate_csv.substr(0, expected.aggregate_csv.find('\n')),
            "workload.generators.0.arrival.rate_per_s,variant,runs,metrics.jobs.wait_s.mean.n,metrics.jobs.wait_s.mean."
            "mean,metrics.jobs.wait_s.mean.sd,metrics.jobs.wait_s.mean.ci95,metrics.jobs.jct_s.p95.n,metrics.jobs."
            "jct_s.p95.mean,metrics.jobs.jct_s.p95.sd,metrics.jobs.jct_s.p95.ci95,metrics.gpus.utilization_mean.n,"
            "metrics.gpus.utilization_mean.mean,metrics.gpus.utilization_mean.sd,metrics.gpus.utilization_mean.ci95");
  // The aggregate is the statistics of runs.csv's rows: check one group by hand.
  std::vector<double> waits;
  for (std::size_t k = 3; k < 6; ++k) {
    waits.push_back(read_run_summary(sweep_run_dir(whole, sweep.plan.runs[k].id))["metrics"]["jobs"]["wait_s"]["mean"]);
  }
  const MetricStats stats = metric_stats(waits);
  const auto json = nlohmann::json::parse(expected.aggregate_json);
  EXPECT_EQ(json["groups"][1]["variant"], "ts");
  EXPECT_EQ(json["groups"][1]["metrics"]["metrics.jobs.wait_s.mean"]["mean"].get<double>(), stats.mean);
  EXPECT_EQ(json["groups"][1]["metrics"]["metrics.jobs.wait_s.mean"]["ci95"].get<double>(), *stats.ci95);

  // Resumed: two runs lost (as if killed before their summary.json), the sweep run again.
  for (std::size_t k : {1u, 8u}) fs::remove(fs::path(sweep_run_dir(whole, sweep.plan.runs[k].id)) / "summary.json");
  EXPECT_THROW(build_sweep_results(sweep.plan, {whole}), InputError);
  run_into(sweep, whole, all, 1);
  const SweepResults resumed = build_sweep_results(sweep.plan, {whole});
  EXPECT_EQ(resumed.runs_csv, expected.runs_csv);
  EXPECT_EQ(resumed.aggregate_csv, expected.aggregate_csv);
  EXPECT_EQ(resumed.aggregate_json, expected.aggregate_json);

  // Sharded 3 ways into three folders, merged.
  std::vector<std::string> shards;
  for (std::size_t s = 0; s < 3; ++s) {
    std::vector<std::size_t> mine;
    for (std::size_t k = s; k < all.size(); k += 3) mine.push_back(k);
    shards.push_back(dir.path("shard-" + std::to_string(s)));
    run_into(sweep, shards.back(), mine, 1);
  }
  EXPECT_THROW(build_sweep_results(sweep.plan, {shards[0], shards[2]}), InputError);
  const SweepResults merged = build_sweep_results(sweep.plan, shards);
  EXPECT_EQ(merged.runs_csv, expected.runs_csv);
  EXPECT_EQ(merged.aggregate_csv, expected.aggregate_csv);
  EXPECT_EQ(merged.aggregate_json, expected.aggregate_json);
}

// Load scaling as a sweep axis (docs/scenario.md "Load scaling"): a grid over the workload's
// load_factor runs each value, and denser arrivals of the same jobs keep the GPUs busier.
TEST(Sweep, GridOverLoadFactor) {
  TempDir dir;
  dir.file("s.json", kScenario);
  const std::string spec = dir.file("spec.json", R"({"scenario": "s.json", "seeds": "1-2",
    "grid": {"workload.load_factor": [0.5, 1, 4]},
    "metrics": ["metrics.gpus.utilization_mean", "metrics_window.end_s", "metrics.jobs.submitted"]})");
  const ExpandedSweep sweep = expand_sweep(load_sweep_spec(spec), GpuCatalog::builtin());
  ASSERT_EQ(sweep.plan.runs.size(), 6u);
  EXPECT_EQ(sweep.scenarios[4].document["workload"]["load_factor"], 4);
  std::vector<std::size_t> all(sweep.plan.runs.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  run_into(sweep, dir.path("out"), all, 2);
  const SweepResults results = build_sweep_results(sweep.plan, {dir.path("out")});
  const auto json = nlohmann::json::parse(results.aggregate_json);
  ASSERT_EQ(json["groups"].size(), 3u);
  std::vector<double> utilization, span_end;
  for (const auto& group : json["groups"]) {
    EXPECT_EQ(group["metrics"]["metrics.jobs.submitted"]["mean"], 40);  // the same 40 jobs
    utilization.push_back(group["metrics"]["metrics.gpus.utilization_mean"]["mean"].get<double>());
    span_end.push_back(group["metrics"]["metrics_window.end_s"]["mean"].get<double>());
  }
  EXPECT_EQ(json["groups"][2]["point"]["workload.load_factor"], 4);
  EXPECT_LT(utilization[0], utilization[1]);
  EXPECT_LT(utilization[1], utilization[2]);
  EXPECT_GT(span_end[0], span_end[1]);
  EXPECT_GT(span_end[1], span_end[2]);
}

TEST(Sweep, SummaryValuesFollowDottedPathsAndPointers) {
  const nlohmann::ordered_json summary =
      nlohmann::ordered_json::parse(R"({"metrics": {"jobs": {"by_origin": [{"wait_s": {"p95": 3.5}}], "x": null}}})");
  EXPECT_EQ(*summary_value(summary, "metrics.jobs.by_origin.0.wait_s.p95"), 3.5);
  EXPECT_EQ(*summary_value(summary, "/metrics/jobs/by_origin/0/wait_s/p95"), 3.5);
  EXPECT_EQ(summary_value(summary, "metrics.jobs.by_origin.1.wait_s.p95"), nullptr);
  EXPECT_EQ(summary_value(summary, "metrics.jobs.wait"), nullptr);
  EXPECT_FALSE(metric_value(summary, "metrics.jobs.x", "f").has_value());
  EXPECT_THROW(metric_value(summary, "metrics.jobs", "f"), InputError);
}

}  // namespace
}  // namespace sharesim
