// The measurement window (docs/outputs.md "Measurement window"): utilization and the job
// figures over a window, computed by hand on tiny cases; the active-span default; warm-up by
// job count; request statistics clipped to the window; and the openb replay over its active
// span and after its warm-up (skipped without ../shared/data).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "sim/metrics/output_files.h"
#include "tests/unit/app/run_helpers.h"

namespace sharesim::testing {
namespace {

// Two jobs on one node of 2 exclusive GPUs, until 400 s: a holds one GPU over [0, 100] s,
// b the other over [50, 150] s. Busy GPU-seconds: 200.
std::string two_jobs(const std::string& extra = "") {
  return cluster_scenario(1, 2, jobs_workload({{"a", 0, 100, R"({"gpus": 1})"}, {"b", 50, 100, R"({"gpus": 1})"}}),
                          R"("until": "400s", )" + extra);
}

TEST(MetricsWindow, DefaultIsTheActiveSpanFromFirstArrivalToLastCompletion) {
  const auto run = run_text(two_jobs());
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.basis, "active span");
  EXPECT_EQ(m.window.start, 0);
  EXPECT_EQ(m.window.end, 150 * kSecond);  // both done at 150 s; until (400 s) is idle time
  EXPECT_DOUBLE_EQ(m.horizon_s, 400);
  // 200 busy GPU-seconds over 2 GPUs x 150 s (over the horizon it would be 200 / 800).
  EXPECT_DOUBLE_EQ(m.utilization_mean, 200.0 / 300.0);
  EXPECT_DOUBLE_EQ(m.allocated_fraction_mean, 200.0 / 300.0);
  EXPECT_DOUBLE_EQ(m.gpu_hours_provisioned, 2 * 150 / 3600.0);
  EXPECT_DOUBLE_EQ(m.throughput_jobs_per_hour, 2 / (150 / 3600.0));
  EXPECT_EQ(m.submitted, 2u);
  const nlohmann::ordered_json summary = run->summary();
  EXPECT_EQ(summary["metrics_window"]["basis"], "active span");
  EXPECT_EQ(summary["metrics_window"]["start_s"], 0.0);
  EXPECT_EQ(summary["metrics_window"]["end_s"], 150.0);
}

TEST(MetricsWindow, ActiveSpanStartsAtTheFirstArrivalAndRunsToTheHorizonWhileWorkIsLeft) {
  // c arrives at 30 s and runs past until (400 s): the span is [30 s, 400 s].
  const auto run =
      run_text(cluster_scenario(1, 2, jobs_workload({{"c", 30, 1000, R"({"gpus": 2})"}}), R"("until": "400s", )"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.start, 30 * kSecond);
  EXPECT_EQ(m.window.end, 400 * kSecond);
  EXPECT_DOUBLE_EQ(m.utilization_mean, 1.0);
  EXPECT_EQ(m.running_at_end, 1u);
  EXPECT_DOUBLE_EQ(m.throughput_jobs_per_hour, 0);
}

TEST(MetricsWindow, ConfiguredWindowClipsTheIntegralsAndKeepsTheJobsArrivingInside) {
  const auto run = run_text(two_jobs(R"("metrics_window": {"start": "25s", "end": "125s"}, )"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.basis, "configured");
  // Inside [25, 125] s: a is busy over [25, 100] (75 s), b over [50, 125] (75 s).
  EXPECT_DOUBLE_EQ(m.utilization_mean, 150.0 / 200.0);
  EXPECT_DOUBLE_EQ(m.gpu_hours_allocated, 150 / 3600.0);
  EXPECT_DOUBLE_EQ(m.gpu_hours_provisioned, 200 / 3600.0);
  // Job figures: b alone arrives inside; it is followed to its end (after the window).
  EXPECT_EQ(m.submitted, 1u);
  EXPECT_EQ(m.completed, 1u);
  EXPECT_DOUBLE_EQ(m.jct_s.mean, 100);
  ASSERT_EQ(m.origins.size(), 2u);
  EXPECT_EQ(m.origins[0].submitted, 0u);  // a
  EXPECT_EQ(m.origins[1].submitted, 1u);  // b
  // Throughput: completions inside the window (a's, at 100 s) per hour of it.
  EXPECT_DOUBLE_EQ(m.throughput_jobs_per_hour, 1 / (100 / 3600.0));
  // gpus.csv keeps the whole run.
  EXPECT_EQ(run->gpu_usage()[0].busy_ns + run->gpu_usage()[1].busy_ns, 200 * kSecond);
}

TEST(MetricsWindow, WarmupJobsOpenTheWindowAtTheNextArrival) {
  const auto run = run_text(two_jobs(R"("metrics_window": {"warmup_jobs": 1}, )"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.start, 50 * kSecond);  // b, job number 1, arrives
  EXPECT_EQ(m.window.end, 150 * kSecond);   // the active span's end
  EXPECT_EQ(m.window.warmup_jobs, 1u);
  // Inside [50, 150] s: a busy 50 s, b 100 s.
  EXPECT_DOUBLE_EQ(m.utilization_mean, 150.0 / 200.0);
  EXPECT_EQ(m.submitted, 1u);
  EXPECT_DOUBLE_EQ(m.wait_s.mean, 0);
}

TEST(MetricsWindow, MoreWarmupJobsThanJobsLeaveAnEmptyWindow) {
  const auto run = run_text(two_jobs(R"("metrics_window": {"warmup_jobs": 5}, )"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.start, m.window.end);
  EXPECT_EQ(m.submitted, 0u);
  EXPECT_DOUBLE_EQ(m.utilization_mean, 0);
  EXPECT_DOUBLE_EQ(m.throughput_jobs_per_hour, 0);
  // No job in the window: summary.json has no mean or percentile of their waits and times
  // (null), not 0, which a sweep or `size` target such as wait_s.mean<=60 would take as met.
  const nlohmann::json jobs = run_metrics_json(m)["jobs"];
  for (const char* sample : {"wait_s", "jct_s", "slowdown"}) {
    EXPECT_EQ(jobs[sample]["count"], 0) << sample;
    for (const char* stat : {"mean", "p50", "p95", "p99", "max"}) EXPECT_TRUE(jobs[sample][stat].is_null()) << sample;
  }
  // With jobs in it the statistics are numbers.
  EXPECT_EQ(run_metrics_json(run_text(two_jobs())->metrics())["jobs"]["jct_s"]["mean"], 100.0);
}

// One bound configured past the active span's other bound: the window is empty, and
// summary.json shows both bounds as resolved (the configured one and the active span's), not
// a point somewhere between them, so that a reader sees why.
TEST(MetricsWindow, AnEmptyWindowKeepsItsBoundsAndHasNoSpan) {
  // A job arriving at 10 s against an end at 1 s; then the two jobs (done by 150 s) against a
  // start at 300 s.
  const auto run = run_text(cluster_scenario(1, 2, jobs_workload({{"a", 10, 100, R"({"gpus": 1})"}}),
                                             R"("until": "400s", "metrics_window": {"end": "1s"}, )"));
  const RunMetrics& m = run->metrics();
  EXPECT_EQ(m.window.start, 10 * kSecond);  // the active span's start: the first arrival
  EXPECT_EQ(m.window.end, 1 * kSecond);     // the configured end
  EXPECT_EQ(m.submitted, 0u);
  EXPECT_DOUBLE_EQ(m.gpu_hours_provisioned, 0);  // not negative
  EXPECT_DOUBLE_EQ(m.cost, 0);
  EXPECT_DOUBLE_EQ(m.utilization_mean, 0);
  const nlohmann::ordered_json summary = run->summary();
  EXPECT_EQ(summary["metrics_window"]["start_s"], 10.0);
  EXPECT_EQ(summary["metrics_window"]["end_s"], 1.0);

  const auto late = run_text(two_jobs(R"("metrics_window": {"start": "300s"}, )"));
  EXPECT_EQ(late->metrics().window.start, 300 * kSecond);  // the configured start
  EXPECT_EQ(late->metrics().window.end, 150 * kSecond);    // the active span's end
  EXPECT_DOUBLE_EQ(late->metrics().gpu_hours_provisioned, 0);
  EXPECT_EQ(late->metrics().submitted, 0u);
}

TEST(MetricsWindow, TheWindowChangesOnlyTheSummary) {
  const auto plain = run_text(two_jobs());
  const auto windowed = run_text(two_jobs(R"("metrics_window": {"start": "25s", "end": "125s"}, )"));
  std::ostringstream a, b;
  write_jobs_csv(a, plain->runtime());
  write_jobs_csv(b, windowed->runtime());
  EXPECT_EQ(a.str(), b.str());
}

TEST(MetricsWindow, RequestsCountWhereTheyArrive) {
  // One service, Poisson requests at 2/s over 2 h; the window is [30 min, 60 min].
  const std::string service = R"({"jobs": [{"name": "web", "kind": "inference", "request": {"gpus": 1,
      "demand": {"sm": 0.5, "bw": 0.3}}, "requests": {"arrival": {"process": "poisson", "rate_per_s": 2},
      "work": {"dist": "constant", "mean_s": 0.01}}}]})";
  const auto whole = run_text(cluster_scenario(1, 1, service, R"("until": "2h", )"));
  const auto windowed =
      run_text(cluster_scenario(1, 1, service, R"("until": "2h", "metrics_window": {"start": "30m", "end": "1h"}, )"));
  ASSERT_EQ(windowed->metrics().services.size(), 1u);
  const ServiceMetrics& inside = windowed->metrics().services[0];
  // Poisson count over 1800 s at 2/s: mean 3600, standard deviation 60.
  EXPECT_NEAR(static_cast<double>(inside.arrived), 3600, 4 * 60);
  EXPECT_NEAR(static_cast<double>(whole->metrics().services[0].arrived), 14400, 4 * 120);
  EXPECT_LE(inside.latency_s.count, inside.arrived + 1);
  EXPECT_GT(inside.latency_s.count, 0u);
  // The service started at 0, before the window: it is not one of the window's jobs.
  EXPECT_EQ(inside.jobs, 0u);
}

TEST(MetricsWindow, RequestsAtTheInstantTheWarmupEndsCountAsArrivedAsTheyDoAsCompleted) {
  // Four notebooks arrive at 0 s; with warmup_jobs 2 the window opens at 0 s, when job 2
  // arrives. Jobs 0 and 1 start (and their first cells arrive) before that arrival, at the
  // same instant: those cells arrived inside the window. They were counted as completed (by
  // their arrival time) but not as arrived: /tmp/audit-metrics/wu.json showed 71 cells
  // completed of 69.
  const std::string notebooks = R"({"jobs": [{"name": "nb", "kind": "notebook", "replicas": 4,
      "request": {"gpus": 1, "demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 8192}},
      "active": {"dist": "exponential", "mean_s": 20}, "idle": {"dist": "exponential", "mean_s": 180},
      "session": "1h"}]})";
  const std::string sharing = R"({"policy": "timeslice", "replicas": 4})";
  const auto warmed =
      run_text(shared_scenario(1, 1, sharing, notebooks, R"("until": "2h", "metrics_window": {"warmup_jobs": 2}, )"));
  const auto whole = run_text(shared_scenario(1, 1, sharing, notebooks, R"("until": "2h", )"));
  EXPECT_EQ(warmed->metrics().window.start, 0);
  ASSERT_EQ(warmed->metrics().services.size(), 1u);
  ASSERT_EQ(whole->metrics().services.size(), 1u);
  const ServiceMetrics& inside = warmed->metrics().services[0];
  const ServiceMetrics& all = whole->metrics().services[0];
  EXPECT_LE(inside.latency_s.count + inside.dropped, inside.arrived);
  // The window holds every request's arrival: the same requests as the run without a window.
  EXPECT_GT(all.arrived, 0u);
  EXPECT_EQ(inside.arrived, all.arrived);
  EXPECT_EQ(inside.latency_s.count, all.latency_s.count);
  EXPECT_EQ(inside.dropped, all.dropped);
  EXPECT_EQ(inside.jobs, 2u);  // jobs 2 and 3
}

TEST(MetricsWindow, BadWindowsAreLocatedErrors) {
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"start": "100s", "end": "50s"}, )"))
                .find("/metrics_window/end: expected an end later than the window's start (100s)"),
            std::string::npos);
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"end": "500s"}, )"))
                .find("/metrics_window/end: expected an end no later than \"until\" (400s"),
            std::string::npos);
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"start": "400s"}, )"))
                .find("/metrics_window/start: expected a start before \"until\""),
            std::string::npos);
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"start": "1s", "warmup_jobs": 2}, )"))
                .find("/metrics_window/warmup_jobs: give the window's start either"),
            std::string::npos);
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"warmup_jobs": -1}, )"))
                .find("/metrics_window/warmup_jobs: expected an integer >= 0, found -1"),
            std::string::npos);
  EXPECT_NE(error_of(two_jobs(R"("metrics_window": {"begin": "1s"}, )")).find("/metrics_window/begin: unknown key"),
            std::string::npos);
}

// The openb default pod list on its 6212 GPUs (scenarios/openb-replay.json). Its first pod is
// created at 0 s and runs for 145 days, so the active span is the whole 149 days; the other
// arrivals fill the last 35 days. Utilization is checked against the pods' own GPU-seconds
// (exclusive GPUs: a pod holds gpus_per_pod x pods GPUs from its start to its end).
TEST(MetricsWindow, OpenbReplayOverItsActiveSpanAndAfterItsWarmup) {
  const std::string scenario_path = std::string(SHARESIM_SOURCE_DIR) + "/scenarios/openb-replay.json";
  if (!std::filesystem::exists(std::string(SHARESIM_SHARED_DATA_DIR) + "/openb/openb_pod_list_default.csv")) {
    GTEST_SKIP() << SHARESIM_SHARED_DATA_DIR << "/openb absent: the openb replay is not checked";
  }
  const auto utilization_by_hand = [](const ScenarioRun& run) {
    const MetricsWindow& window = run.metrics().window;
    long double busy = 0;
    for (const JobRecord& job : run.runtime().jobs()) {
      if (job.start < 0) continue;
      const SimTime end = job.end >= 0 ? job.end : window.end;
      const SimTime from = std::max(job.start, window.start), to = std::min(end, window.end);
      const PodShape& shape = run.runtime().shapes().shapes[job.spec.shape];
      if (to > from) busy += static_cast<long double>(to - from) * shape.gpu_units * job.spec.pods;
    }
    return static_cast<double>(busy / (static_cast<long double>(run.cluster().gpus().size()) *
                                       static_cast<long double>(window.end - window.start)));
  };
  const GpuCatalog& catalog = GpuCatalog::builtin();
  ScenarioRun active(load_scenario_file(scenario_path, catalog), catalog);
  active.run();
  EXPECT_EQ(active.metrics().window.basis, "active span");
  EXPECT_EQ(active.metrics().window.start, 0);
  EXPECT_EQ(active.metrics().window.end, 12902960 * kSecond);
  EXPECT_EQ(active.cluster().gpus().size(), 6212u);
  EXPECT_NEAR(active.metrics().utilization_mean, utilization_by_hand(active), 1e-12);
  EXPECT_NEAR(active.metrics().utilization_mean, 0.002685, 0.000001);  // measured, docs/traces.md

  // Leaving out the 26 pods created before the last 35 days: the window opens with pod 27.
  ScenarioRun warm(load_scenario_file(scenario_path, catalog, {{"metrics_window.warmup_jobs", "26"}}), catalog);
  warm.run();
  EXPECT_EQ(warm.metrics().window.start, 9924220 * kSecond);
  EXPECT_EQ(warm.metrics().submitted, 8152u - 26u);
  EXPECT_NEAR(warm.metrics().utilization_mean, utilization_by_hand(warm), 1e-12);
  EXPECT_NEAR(warm.metrics().utilization_mean, 0.006762, 0.000001);
}

}  // namespace
}  // namespace sharesim::testing
