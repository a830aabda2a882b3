// Issue 15's "tables that cannot mislead": waits with never-started jobs counted, GPUs used at
// peak counting pods their own allocation killed, cost of the GPU-hours used, warnings for a
// run that placed nothing, the verdict, compare.csv without JSON.
#include <gtest/gtest.h>

#include "apps/compare_run.h"
#include "apps/run_verdict.h"
#include "apps/summary_table.h"
#include "run_helpers.h"
#include "sim/input/error_text.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/scenario.h"

namespace sharesim {
namespace {

using namespace testing;

// One exclusive A100-80GB; three 100 s jobs arrive at 0: one runs, two wait.
std::string queue_scenario(const std::string& until, const std::string& extra = "") {
  return shared_scenario(
      1, 1, R"({"policy": "exclusive"})",
      jobs_workload(
          {{"a", 0, 100, R"({"gpus": 1})"}, {"b", 0, 100, R"({"gpus": 1})"}, {"c", 0, 100, R"({"gpus": 1})"}}),
      R"("until": ")" + until + R"(", )" + extra);
}

TEST(HonestTables, NeverStartedJobsCountInTheCensoredWaits) {
  const auto run = run_text(queue_scenario("150s"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.pending_at_end, 1u);  // c
  EXPECT_EQ(m.never_started, 1u);
  // Started: a at 0, b at 100. All: c censored at 150.
  EXPECT_EQ(m.wait_s.count, 2u);
  EXPECT_DOUBLE_EQ(m.wait_s.max, 100.0);
  EXPECT_EQ(m.wait_censored_s.count, 3u);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.max, 150.0);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.p50, 100.0);
  const std::string table = format_summary_table(*run, "");
  EXPECT_NE(table.find("pending at end 1 (never started 1)"), std::string::npos) << table;
  EXPECT_NE(table.find("over all jobs, never-started censored at end"), std::string::npos) << table;
  // One of three pending is not "most": no warning.
  EXPECT_TRUE(run_warnings(*run, "the run").empty());
}

// A job on two time-sliced GPUs, shared with two jobs on one and one on the other: in fluid mode
// it runs at the lower share, e/3; in slice mode only in the slices in which both GPUs serve it,
// about half as often. The run says so, in slice mode only.
TEST(HonestTables, SliceModeWarnsOfJobsOnSeveralGpus) {
  const std::string workload = jobs_workload({{"a", 0, 100, R"({"gpus": 2})"},
                                              {"b", 1, 300, R"({"gpus": 1})"},
                                              {"c", 2, 300, R"({"gpus": 1})"},
                                              {"d", 3, 300, R"({"gpus": 1})"}});
  const auto end_of_a = [](const ScenarioRun& run) { return run.runtime().jobs()[0].end; };
  const auto fluid = run_text(shared_scenario(1, 2, R"({"policy": "timeslice", "replicas": 3})", workload));
  EXPECT_TRUE(run_warnings(*fluid, "the run").empty());
  const auto slice =
      run_text(shared_scenario(1, 2, R"({"policy": "timeslice", "replicas": 3, "fidelity": "slice"})", workload));
  EXPECT_GT(static_cast<double>(end_of_a(*slice)), 1.5 * static_cast<double>(end_of_a(*fluid)));
  const std::vector<std::string> warnings = run_warnings(*slice, "the run");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("the run ran 1 job on several GPUs in slice mode (fidelity \"slice\")", 0), 0u)
      << warnings[0];
}

// The censored sample is made at the first job that never started (compute_run_metrics): a
// job that never started between two that did is counted once, in its place.
TEST(HonestTables, ANeverStartedJobBetweenStartedOnesIsCensoredOnce) {
  // Two GPUs: a holds one from 0 s; b (both GPUs, at 1 s) waits for it past the end; c (one
  // GPU, at 2 s) starts at once beside a.
  const auto run = run_text(shared_scenario(
      1, 2, R"({"policy": "exclusive"})",
      jobs_workload(
          {{"a", 0, 1000, R"({"gpus": 1})"}, {"b", 1, 100, R"({"gpus": 2})"}, {"c", 2, 100, R"({"gpus": 1})"}}),
      R"("until": "150s", )"));
  const RunMetrics& m = run->metrics();
  ASSERT_EQ(m.never_started, 1u);  // b
  EXPECT_EQ(m.wait_s.count, 2u);
  EXPECT_DOUBLE_EQ(m.wait_s.max, 0.0);
  EXPECT_EQ(m.wait_censored_s.count, 3u);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.max, 149.0);  // b, from 1 s to the end at 150 s
  EXPECT_DOUBLE_EQ(m.wait_censored_s.mean, 149.0 / 3);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.p50, 0.0);
}

// With every job started, the censored waits are the waits.
TEST(HonestTables, WithEveryJobStartedTheCensoredWaitsAreTheWaits) {
  const auto run = run_text(queue_scenario("1000s"));
  const RunMetrics& m = run->metrics();
  ASSERT_EQ(m.never_started, 0u);
  EXPECT_EQ(m.wait_s.count, 3u);
  EXPECT_DOUBLE_EQ(m.wait_s.max, 200.0);
  EXPECT_EQ(m.wait_censored_s.count, m.wait_s.count);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.mean, m.wait_s.mean);
  EXPECT_DOUBLE_EQ(m.wait_censored_s.p99, m.wait_s.p99);
}

TEST(HonestTables, CostOfGpuHoursUsedBesideProvisioned) {
  // Two GPUs for 720 s (the window covers the whole run, not only the active span to 360 s);
  // one job holds one of them for 360 s.
  const auto run = run_text(shared_scenario(
      1, 2, R"({"policy": "exclusive"})", jobs_workload({{"a", 0, 360, R"({"gpus": 1})"}}),
      R"("until": "720s", "metrics_window": {"start": "0s", "end": "720s"}, "cost": {"gpu_hour": 10}, )"));
  const RunMetrics& m = run->metrics();
  EXPECT_NEAR(m.gpu_hours_provisioned, 0.4, 1e-12);  // 2 GPUs x 0.2 h
  EXPECT_NEAR(m.cost, 4.0, 1e-9);
  EXPECT_NEAR(m.cost_used, 1.0, 1e-9);  // 360 s of one GPU at 10 per hour
}

TEST(HonestTables, CatalogPriceAppliesWithoutAScenarioPriceAndPerModelOverridesIt) {
  const std::string workload = jobs_workload({{"a", 0, 3600, R"({"gpus": 1})"}});
  const auto catalog_priced =
      run_text(shared_scenario(1, 1, R"({"policy": "exclusive"})", workload, R"("until": "1h", )", "H100-80GB"));
  EXPECT_NEAR(catalog_priced->metrics().cost, GpuCatalog::builtin().find("H100-80GB")->gpu_hour_usd, 1e-9);
  const auto overridden = run_text(shared_scenario(
      1, 1, R"({"policy": "exclusive"})", workload,
      R"("until": "1h", "cost": {"gpu_hour": 1, "gpu_hour_by_model": {"H100-80GB": 3}}, )", "H100-80GB"));
  EXPECT_NEAR(overridden->metrics().cost, 3.0, 1e-9);
}

// The schema allows prices >= 0, so 0 is a price: free GPUs. A scenario gpu_hour of 0 was read
// as "not given" and the catalog's price applied (a 1 h exclusive A100-80GB job cost 5.12).
TEST(HonestTables, APriceOfZeroIsFreeNotTheCatalogs) {
  const std::string workload = jobs_workload({{"a", 0, 3600, R"({"gpus": 1})"}});
  ASSERT_GT(GpuCatalog::builtin().find("A100-80GB")->gpu_hour_usd, 0);
  const auto free = run_text(
      shared_scenario(1, 1, R"({"policy": "exclusive"})", workload, R"("until": "1h", "cost": {"gpu_hour": 0}, )"));
  EXPECT_EQ(free->metrics().cost, 0.0);
  EXPECT_EQ(free->metrics().cost_used, 0.0);
  // The same through --set, as a sweep over cost.gpu_hour sets it.
  const auto set_free = run_text(shared_scenario(1, 1, R"({"policy": "exclusive"})", workload, R"("until": "1h", )"),
                                 {{"cost.gpu_hour", "0"}});
  EXPECT_EQ(set_free->metrics().cost, 0.0);
  // A per-model price of 0 overrides a gpu_hour for every model.
  const auto model_free =
      run_text(shared_scenario(1, 1, R"({"policy": "exclusive"})", workload,
                               R"("until": "1h", "cost": {"gpu_hour": 2, "gpu_hour_by_model": {"A100-80GB": 0}}, )"));
  EXPECT_EQ(model_free->metrics().cost, 0.0);
  // A cost section without gpu_hour still leaves the catalog's price.
  const auto catalog = run_text(shared_scenario(1, 1, R"({"policy": "exclusive"})", workload,
                                                R"("until": "1h", "cost": {"gpu_hour_by_model": {"H100-80GB": 0}}, )"));
  EXPECT_NEAR(catalog->metrics().cost, GpuCatalog::builtin().find("A100-80GB")->gpu_hour_usd, 1e-9);
}

TEST(HonestTables, GpusUsedAtPeakCountsAPodItsOwnAllocationKilled) {
  // 90000 MiB does not fit an A100-80GB (81920 MiB): the pod dies of OOM as it joins.
  const auto run =
      run_text(shared_scenario(1, 1, R"({"policy": "timeslice", "replicas": 4})",
                               jobs_workload({{"big", 0, 100, R"({"gpus": 1, "demand": {"mem_mib": 90000}})"}})));
  EXPECT_EQ(run->metrics().killed_oom, 1u);
  EXPECT_EQ(run->metrics().gpus_used_peak, 1u);
}

TEST(HonestTables, NotebookRunHasNoZeroSlowdownAndShowsServiceRows) {
  const auto run =
      run_text(read_text_file(SHARESIM_SOURCE_DIR "/scenarios/notebooks-timeslice.json"), {{"until", "30m"}});
  const std::string table = format_summary_table(*run, "");
  EXPECT_EQ(table.find("slowdown p50 0.00"), std::string::npos) << table;
  EXPECT_NE(table.find("service "), std::string::npos) << table;
  EXPECT_NE(table.find("  chat "), std::string::npos) << table;
}

TEST(HonestTables, AVariantThatPlacesNothingIsWarnedAndMissesTheVerdict) {
  // Three 1 s jobs ask for a MIG 3g.40gb instance. "mig-3g" offers two; "mig-dynamic" must first
  // drain its GPU and lay it out anew, which takes 5 s (the A100-80GB calibration profile), and
  // the run ends at 4 s: it places nothing. (A variant whose GPUs could never hold the pods,
  // e.g. one without 3g.40gb instances that cannot repartition, is an input error instead.)
  const std::string three_g = R"({"gpu_resource": "nvidia.com/mig-3g.40gb"})";
  const std::string fixed_layout = R"({"policy": "mig", "strategy": "mixed", "layout": ["3g.40gb", "3g.40gb"]})";
  const Scenario scenario = load_scenario_text(
      shared_scenario(
          1, 1, fixed_layout, jobs_workload({{"a", 0, 1, three_g}, {"b", 0, 1, three_g}, {"c", 0, 1, three_g}}),
          R"("until": "4s", "slo": {"max_slowdown": 2}, "compare": {"variants": {"mig-3g": )" + fixed_layout +
              R"(, "mig-dynamic": {"policy": "mig", "strategy": "mixed", "layout": "all-1g.10gb",
                               "repartitioning": "dynamic"}}}, )"),
      "<test>", GpuCatalog::builtin());
  CompareRun compare(scenario, GpuCatalog::builtin(), {"mig-3g", "mig-dynamic"});
  compare.run();
  const std::vector<std::string> warnings = compare.warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("policy mig-dynamic placed no job: 3 jobs never started, e.g. 0/1 nodes are available"),
            std::string::npos)
      << warnings[0];
  const std::vector<std::string> verdict = compare.verdict();
  ASSERT_EQ(verdict.size(), 3u);
  EXPECT_EQ(verdict[0],
            "every job started by the end, none killed by its placement (OOM, admission error, another pod): met by "
            "mig-3g; fewest GPUs at peak: mig-3g (1 of 1)");
  // On a 3g.40gb instance a job of 1 s alone on the GPU takes about 2.6 s: every finished job
  // misses the 2x SLO.
  EXPECT_NE(verdict[1].find("met by none"), std::string::npos) << verdict[1];
  EXPECT_EQ(verdict[2], "every objective above: met by none");
  // compare.csv: no JSON in the sharing cells.
  const std::string csv = compare.csv();
  EXPECT_EQ(csv.find('{'), std::string::npos) << csv;
  EXPECT_NE(csv.find("policy=mig strategy=mixed layout=all-1g.10gb repartitioning=dynamic"), std::string::npos) << csv;
  EXPECT_EQ(compare.json()["warnings"].size(), 1u);
}

TEST(HonestTables, AVariantThatCouldNeverHoldThePodsIsAnInputError) {
  // Mixed-strategy MIG offers nvidia.com/mig-* only; the pods ask for nvidia.com/gpu.
  const Scenario scenario = load_scenario_text(
      queue_scenario("1h", R"("compare": {"variants": {"mig-mixed": {"policy": "mig", "strategy": "mixed",
                                                         "layout": "all-1g.10gb"}}}, )"),
      "<test>", GpuCatalog::builtin());
  try {
    CompareRun compare(scenario, GpuCatalog::builtin(), {"exclusive", "mig-mixed"});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "/workload/jobs/0/request");
    EXPECT_EQ(e.problem(),
              "no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib: expected a "
              "GPU resource that the nodes it may go on advertise (\"nvidia.com/mig-1g.10gb\"), found "
              "\"nvidia.com/gpu\" (sharing variant \"mig-mixed\")");
  }
}

TEST(HonestTables, CompareShowsEachServicesTailAndAVariantThatKillsPodsMissesTheFirstLine) {
  // A fast service with many requests and a slow one with few: the pooled p99 is the fast
  // one's, so the table adds each service's own p99 and SLO attainment. A 10 GiB MIG instance
  // cannot hold the 12.6 GiB pod: it starts and dies of OOM, which must not read as placed.
  const std::string scenario = R"({"name": "t", "seed": 3, "until": "10m",
    "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 1,
      "cpu_milli": 64000, "memory_mib": 262144, "sharing": {"policy": "exclusive"}}]},
    "workload": {"jobs": [
      {"name": "fast", "kind": "inference", "request": {"gpus": 1, "demand": {"sm": 0.1, "bw": 0.1, "mem_mib": 100}},
       "requests": {"arrival": {"process": "poisson", "rate_per_s": 50},
                    "work": {"dist": "constant", "mean_s": 0.001}, "slo": "10ms"}},
      {"name": "slow", "kind": "inference", "request": {"gpus": 1, "demand": {"sm": 0.5, "bw": 0.5, "mem_mib": 12900}},
       "requests": {"arrival": {"process": "poisson", "rate_per_s": 0.5},
                    "work": {"dist": "constant", "mean_s": 0.5}, "slo": "600ms"}}]},
    "compare": {"variants": {"ts": {"policy": "timeslice", "replicas": 2},
                             "mig7": {"policy": "mig", "strategy": "single", "layout": "all-1g.10gb"}}}})";
  CompareRun compare(load_scenario_text(scenario, "<test>", GpuCatalog::builtin()), GpuCatalog::builtin(),
                     {"ts", "mig7"});
  compare.run();
  const std::string table = compare.table("");
  EXPECT_NE(table.find("  fast p99 (s)"), std::string::npos) << table;
  EXPECT_NE(table.find("  slow p99 (s)"), std::string::npos) << table;
  EXPECT_NE(table.find("  slow SLO attainment"), std::string::npos) << table;
  // The slow service's own p99 is at least its work, while the pooled p99 is the fast one's.
  const auto first_cell = [&table](const std::string& label) {
    const std::size_t at = table.find(label + " ");
    return at == std::string::npos ? -1.0 : std::stod(table.substr(at + label.size()));
  };
  EXPECT_GE(first_cell("  slow p99 (s)"), 0.5) << table;
  EXPECT_LT(first_cell("request latency p99 (s)"), 0.5) << table;
  EXPECT_LT(first_cell("  fast p99 (s)"), 0.5) << table;
  const std::vector<std::string> verdict = compare.verdict();
  ASSERT_FALSE(verdict.empty());
  EXPECT_EQ(
      verdict[0].rfind(
          "every job started by the end, none killed by its placement (OOM, admission error, another pod): met by ts;",
          0),
      0u)
      << verdict[0];
  EXPECT_EQ(compare.json()["policies"][1]["jobs_failed"], 1u);
  // Placement, one line per service, then all of them together.
  ASSERT_EQ(verdict.size(), 4u);
  EXPECT_EQ(verdict[3].rfind("every objective above: ", 0), 0u) << verdict[3];
  EXPECT_EQ(verdict[3].find("mig7"), std::string::npos) << verdict[3];
}

TEST(HonestTables, AnSloIsWrittenExactlyNotRoundedToMilliseconds) {
  // A 3.35 ms SLO printed with 3 decimals would read 3 ms.
  EXPECT_EQ(format_fixed_or_exact(0.25, 3), "0.250");
  EXPECT_EQ(format_fixed_or_exact(0.769, 3), "0.769");
  EXPECT_EQ(format_fixed_or_exact(0.00335, 3), "0.00335");
  EXPECT_EQ(format_fixed_or_exact(0.01064, 3), "0.01064");
  EXPECT_EQ(format_fixed_or_exact(7.955, 3), "7.955");
}

}  // namespace
}  // namespace sharesim
