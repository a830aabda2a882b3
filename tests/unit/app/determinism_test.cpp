// Same scenario + same seed = byte-identical outputs (timing.json aside); the native trace
// written by `generate` replays to the same run; named random streams keep one generator's
// jobs unchanged when another generator is added.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/policy_registry.h"
#include "run_helpers.h"
#include "sim/metrics/output_files.h"
#include "sim/metrics/rows_in_order.h"
#include "sim/input/input_error.h"
#include "workloads/native_trace.h"
#include "workloads/standalone_workload.h"

namespace sharesim {
namespace {

const std::string kWorkload = R"({"generators": [
  {"name": "train", "kind": "training", "count": 3000, "arrival": {"process": "poisson", "rate_per_s": 0.05},
   "duration": {"dist": "lognormal", "mean_s": 120, "cv": 2}, "request": {"gpus": 1, "cpu_milli": 4000}},
  {"name": "wide", "kind": "batch", "count": 300, "arrival": {"process": "poisson", "rate_per_s": 0.005},
   "duration": {"dist": "exponential", "mean_s": 600}, "request": {"gpus": 4}, "pods": 2}]})";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A native trace file with the format's header and the given rows.
void write_trace(const std::filesystem::path& path, const std::string& rows) {
  std::ofstream out(path);
  out << "origin,sequence,kind,submit_s,duration_s,pods,gpus_per_pod,cpu_milli,memory_mib,gpu_product,priority\n"
      << rows;
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("sharesim-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(Determinism, SameSeedGivesByteIdenticalOutputs) {
  const std::string scenario = testing::cluster_scenario(3, 4, kWorkload, R"("output": {"event_log": true}, )");
  const auto a = temp_dir("a"), b = temp_dir("b");
  testing::run_text(scenario)->write_outputs(a.string());
  testing::run_text(scenario)->write_outputs(b.string());
  // Every file but timing.json, summary.json included: the host-dependent figures are apart.
  for (const char* file : {"summary.json", "jobs.csv", "gpus.csv", "timeseries.csv", "events.csv"}) {
    const std::string left = read_file(a / file);
    EXPECT_FALSE(left.empty()) << file;
    EXPECT_EQ(left, read_file(b / file)) << file;
  }
  EXPECT_EQ(read_file(a / "summary.json").find("wall"), std::string::npos);
  const auto timing = nlohmann::json::parse(read_file(a / "timing.json"));
  EXPECT_GE(timing.at("wall_s").get<double>(), 0.0);
  EXPECT_GT(timing.at("peak_rss_mib").get<double>(), 0.0);
  EXPECT_FALSE(timing.at("commit").get<std::string>().empty());
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

// jobs.csv's rows are formatted on several threads by `sharesim run` (rows_in_order.h): the
// file must not depend on the thread count. Over 2 blocks of rows, with gangs, jobs still
// running and jobs still pending (their reasons are worked out before the threads start).
TEST(Determinism, JobsCsvIsTheSameOnAnyNumberOfThreads) {
  const std::string workload = R"({"generators": [
    {"name": "train", "kind": "training", "count": 20000, "arrival": {"process": "poisson", "rate_per_s": 2},
     "duration": {"dist": "exponential", "mean_s": 5}, "request": {"gpus": 1}},
    {"name": "wide", "kind": "batch", "count": 50, "arrival": {"process": "poisson", "rate_per_s": 0.01},
     "duration": {"dist": "exponential", "mean_s": 600}, "request": {"gpus": 4}, "pods": 2}]})";
  const auto run = testing::run_text(testing::cluster_scenario(2, 4, workload, R"("until": "9000s", )"));
  const RunMetrics& m = run->metrics();
  ASSERT_GT(run->runtime().jobs().size(), 2 * kRowsPerBlock);
  ASSERT_GT(m.running_at_end, 0u);
  ASSERT_GT(run->runtime().jobs().size(), run->runtime().counters().completed + m.running_at_end);  // some pending
  const std::string one = jobs_csv(run->runtime());
  EXPECT_NE(one.find("Insufficient"), std::string::npos);  // a pending job's reason
  for (const unsigned threads : {2u, 3u, 8u}) {
    std::ostringstream out;
    write_jobs_csv(out, run->runtime(), threads);
    EXPECT_EQ(out.str(), one) << threads << " threads";
  }
}

// `sharesim run` computes the metrics on a thread of their own while jobs.csv is written
// (ScenarioRun::run's `threads`): every file but timing.json must be the same as with the
// metrics computed on the calling thread. With jobs still pending under preemption (jobs.csv's
// pending reasons dry-run preemption on the cluster meanwhile) and an inference service (the
// metrics pool its request latencies).
TEST(Determinism, MetricsOnTheirOwnThreadGiveTheSameFiles) {
  const std::string workload = R"({"jobs": [
      {"name": "low", "duration": "1h", "priority": 1, "request": {"gpus": 4}},
      {"name": "high", "arrival": "1s", "duration": "1h", "priority": 10, "request": {"gpus": 2}},
      {"name": "svc", "kind": "inference", "replicas": 2, "priority": 5, "request": {"gpus": 1},
       "requests": {"arrival": {"process": "poisson", "rate_per_s": 50},
                    "work": {"dist": "exponential", "mean_s": 0.01}}}],
    "generators": [{"name": "train", "kind": "training", "count": 20000, "priority": 3,
      "arrival": {"process": "poisson", "rate_per_s": 20}, "duration": {"dist": "exponential", "mean_s": 30},
      "request": {"gpus": 1}}]})";
  const std::string scenario = testing::cluster_scenario(
      2, 4, workload, R"("until": "900s", "scheduler": {"queue": "priority", "preemption": true}, )");
  const auto a = temp_dir("metrics-calling"), b = temp_dir("metrics-own-thread");
  auto calling = std::make_unique<ScenarioRun>(testing::scenario_from_text(scenario), GpuCatalog::builtin());
  calling->run();
  calling->write_outputs(a.string());
  auto own_thread = std::make_unique<ScenarioRun>(testing::scenario_from_text(scenario), GpuCatalog::builtin());
  own_thread->run({}, 4);
  own_thread->write_outputs(b.string(), 4);
  const RunMetrics& m = own_thread->metrics();
  ASSERT_GT(m.pending_at_end, 0u);
  ASSERT_GT(m.preemptions, 0u);
  ASSERT_GT(m.request_latency_s.count, 0u);
  for (const char* file :
       {"summary.json", "jobs.csv", "gpus.csv", "timeseries.csv", "services.csv", "request_latency.csv"}) {
    const std::string left = read_file(a / file);
    EXPECT_FALSE(left.empty()) << file;
    EXPECT_EQ(left, read_file(b / file)) << file;
  }
  EXPECT_NE(read_file(b / "jobs.csv").find("preemption:"), std::string::npos);  // a pending job's dry run
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

// Before run(), the metrics are all zeros (nothing has been computed).
TEST(Determinism, MetricsBeforeTheRunAreZeros) {
  const ScenarioRun run(testing::scenario_from_text(testing::cluster_scenario(3, 4, kWorkload)), GpuCatalog::builtin());
  EXPECT_EQ(run.metrics().submitted, 0u);
  EXPECT_EQ(run.metrics().wait_s.count, 0u);
}

TEST(Determinism, DifferentSeedsGiveDifferentRuns) {
  const std::string scenario = testing::cluster_scenario(3, 4, kWorkload);
  const auto one = testing::run_text(scenario);
  const auto two = testing::run_text(scenario, {{"seed", "4"}});
  EXPECT_NE(one->metrics().wait_s.mean, two->metrics().wait_s.mean);
}

TEST(Determinism, AddingAGeneratorLeavesAnotherGeneratorsJobsUnchanged) {
  const std::string one = R"({"generators": [
    {"name": "train", "kind": "training", "count": 50, "arrival": {"process": "poisson", "rate_per_s": 1},
     "duration": {"dist": "exponential", "mean_s": 10}}]})";
  const std::string two = R"({"generators": [
    {"name": "extra", "kind": "batch", "count": 50, "arrival": {"process": "poisson", "rate_per_s": 1},
     "duration": {"dist": "exponential", "mean_s": 10}},
    {"name": "train", "kind": "training", "count": 50, "arrival": {"process": "poisson", "rate_per_s": 1},
     "duration": {"dist": "exponential", "mean_s": 10}}]})";
  const auto run_one = testing::run_text(testing::cluster_scenario(50, 8, one));
  const auto run_two = testing::run_text(testing::cluster_scenario(50, 8, two));
  std::vector<std::pair<SimTime, SimTime>> train_one, train_two;
  for (const JobRecord& job : run_one->runtime().jobs()) train_one.emplace_back(job.spec.arrival, job.spec.work);
  for (const JobRecord& job : run_two->runtime().jobs()) {
    if (run_two->runtime().origins()[job.spec.origin].name == "train")
      train_two.emplace_back(job.spec.arrival, job.spec.work);
  }
  EXPECT_EQ(train_one, train_two);
}

// Writes the workload of `scenario` (a cluster of nodes x gpus) as a native trace at
// `trace_path`, replays that trace on the same cluster and expects the same jobs.csv.
void expect_trace_replays_identically(const std::string& scenario, int nodes, int gpus,
                                      const std::filesystem::path& trace_path, std::size_t expected_jobs) {
  StandaloneWorkload workload(testing::scenario_from_text(scenario), GpuCatalog::builtin(),
                              registered_per_device_resources());
  {
    std::ofstream out(trace_path);
    EXPECT_EQ(write_native_trace(out, workload.sources(), workload.shapes(), workload.origins()), expected_jobs);
  }
  const auto from_sources = testing::run_text(scenario);
  const auto from_trace = testing::run_text(testing::cluster_scenario(
      nodes, gpus, R"({"trace": {"format": "native", "path": ")" + trace_path.string() + R"("}})"));
  EXPECT_EQ(jobs_csv(from_sources->runtime()), jobs_csv(from_trace->runtime()));
}

TEST(NativeTrace, GeneratedTraceReplaysToTheSameRun) {
  const auto dir = temp_dir("trace");
  std::filesystem::create_directories(dir);
  expect_trace_replays_identically(testing::cluster_scenario(3, 4, kWorkload), 3, 4, dir / "trace.csv", 3300);
  std::filesystem::remove_all(dir);
}

// Writes a one-header trace with the given rows and returns the InputError a run raises.
InputError trace_error(const std::string& rows, int nodes = 1, int gpus = 1) {
  const auto dir = temp_dir("tracecheck");
  std::filesystem::create_directories(dir);
  const auto trace_path = dir / "trace.csv";
  write_trace(trace_path, rows);
  try {
    testing::run_text(testing::cluster_scenario(
        nodes, gpus, R"({"trace": {"format": "native", "path": ")" + trace_path.string() + R"("}})"));
  } catch (const InputError& e) {
    std::filesystem::remove_all(dir);
    return InputError("trace.csv", e.where(), e.problem());
  }
  std::filesystem::remove_all(dir);
  ADD_FAILURE() << "expected an InputError";
  return InputError("", "", "");
}

TEST(NativeTrace, RowsThatCouldNeverRunAreErrors) {
  const InputError too_wide = trace_error("a,0,training,0,60,1,2,0,0,,0\n", 2, 1);
  EXPECT_EQ(too_wide.where(), "line 2, column gpus_per_pod");
  EXPECT_EQ(too_wide.problem(),
            "no node could ever hold a pod asking for 2 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib");
  const InputError gang = trace_error("a,0,training,0,60,3,1,0,0,,0\n", 2, 1);
  EXPECT_EQ(gang.problem(),
            "a job's 3 pods (each 1 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib) must run together, but the whole "
            "cluster can hold at most 2 at once");
  const InputError other_model = trace_error("a,0,training,0,60,1,1,0,0,T4,0\n");
  EXPECT_EQ(other_model.problem(),
            "no node could ever hold a pod asking for 1 nvidia.com/gpu, 0 cpu_milli and 0 memory_mib on T4: expected a "
            "GPU model of the cluster (\"A100-80GB\"), found \"T4\"");
}

TEST(NativeTrace, DuplicateNamesAndOutOfRangeNumbersAreErrors) {
  const InputError duplicate = trace_error("a,0,training,0,60,1,1,0,0,,0\na,0,training,1,60,1,1,0,0,,0\n");
  EXPECT_EQ(duplicate.where(), "line 3, column sequence");
  EXPECT_EQ(duplicate.problem(), "expected each (origin, sequence) pair once, found a-0 again");
  const InputError sequence = trace_error("a,4294967296,training,0,60,1,1,0,0,,0\n");
  EXPECT_EQ(sequence.problem(), "expected an integer from 0 to 4294967295, found \"4294967296\"");
  const InputError order = trace_error("a,0,training,5,60,1,1,0,0,,0\na,1,training,4.5,60,1,1,0,0,,0\n");
  EXPECT_EQ(order.where(), "line 3, column submit_s");
  EXPECT_EQ(order.problem(), "expected rows in non-decreasing submit_s order, found 4.5 after 5");
}

TEST(NativeTrace, SimultaneousArrivalsFromSeveralSourcesReplayInTheSameOrder) {
  // Explicit jobs and a trace both submit at t = 0 and t = 1 s: the run orders simultaneous
  // arrivals by source (jobs before trace), as the trace writer does, so the regenerated
  // trace replays to the same jobs.csv.
  const auto dir = temp_dir("ties");
  std::filesystem::create_directories(dir);
  const auto first_trace = dir / "first.csv";
  write_trace(first_trace, "t,0,batch,0,5,1,1,0,0,,0\nt,1,batch,0,7,1,1,0,0,,0\nt,2,batch,1,2,1,1,0,0,,0\n");
  const std::string mixed = testing::cluster_scenario(1, 2,
                                                      R"({"jobs": [
      {"name": "x", "replicas": 2, "duration": "10s"}, {"name": "y", "arrival": "1s", "duration": "3s"}],
      "trace": {"format": "native", "path": ")" + first_trace.string() +
                                                          R"("}})");
  expect_trace_replays_identically(mixed, 1, 2, dir / "second.csv", 6);
  std::filesystem::remove_all(dir);
}

TEST(NativeTrace, OriginsThatNeedQuotesAreQuotedInJobsCsv) {
  // Scenario names cannot hold a comma or a quote, but a trace's origins can: jobs.csv quotes
  // the job's name and origin (RFC 4180) while the plain ones keep their fast path.
  const auto dir = temp_dir("quotes");
  std::filesystem::create_directories(dir);
  const auto trace_path = dir / "trace.csv";
  write_trace(
      trace_path,
      "\"a,b\",0,training,0,10,1,1,0,0,,0\n\"say \"\"hi\"\"\",1,batch,0,10,1,1,0,0,,0\nplain,2,batch,1,5,1,1,0,0,,0\n");
  const auto run = testing::run_text(
      testing::cluster_scenario(1, 2, R"({"trace": {"format": "native", "path": ")" + trace_path.string() + R"("}})"));
  std::ostringstream csv;
  write_jobs_csv(csv, run->runtime());
  std::filesystem::remove_all(dir);
  const std::string text = csv.str();
  EXPECT_NE(text.find("\n\"a,b-0\",\"a,b\",training,completed,1,1,0,0,10,0,10,1,p-0,0,,0,0,,\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n\"say \"\"hi\"\"-1\",\"say \"\"hi\"\"\",batch,completed,1,1,0,0,10,0,10,1,p-0,1,,0,0,,\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nplain-2,plain,batch,completed,1,1,1,10,15,9,14,1,p-0,"), std::string::npos) << text;
}

TEST(NativeTrace, BadRowNamesFileLineAndColumn) {
  const auto dir = temp_dir("badtrace");
  std::filesystem::create_directories(dir);
  const auto trace_path = dir / "trace.csv";
  write_trace(trace_path, "a,0,training,0,60,1,1,0,0,,0\na,1,training,5,-3,1,1,0,0,,0\n");
  try {
    testing::run_text(testing::cluster_scenario(
        1, 1, R"({"trace": {"format": "native", "path": ")" + trace_path.string() + R"("}})"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), trace_path.string());
    EXPECT_EQ(e.where(), "line 3, column duration_s");
    EXPECT_EQ(e.problem(), "expected seconds (a decimal number >= 0 with at most 9 decimals), found \"-3\"");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sharesim
