// Priority preemption in whole runs (scheduler.preemption; sim/runtime/runtime_preemption.cpp):
// who is evicted, on which node, what becomes of the victim, and the pending reason's
// "preemption: ..." part, as kube-scheduler's DefaultPreemption gives them.
#include <gtest/gtest.h>

#include "run_helpers.h"
#include "sim/metrics/output_files.h"

namespace sharesim {
namespace {

using testing::cluster_scenario;
using testing::run_text;

const JobRecord& job_named(const ScenarioRun& run, const std::string& name) {
  for (const JobRecord& job : run.runtime().jobs()) {
    if (run.runtime().job_name(job) == name) return job;
  }
  throw std::runtime_error("no job " + name);
}

std::string node_of(const ScenarioRun& run, const JobRecord& job) {
  return run.cluster().node(run.runtime().pods()[job.first_pod].node).name;
}

// One node of 4 GPUs: a low-priority 4-GPU job, then a high-priority 2-GPU one at 1 s.
std::string one_node(const std::string& scheduler, const std::string& low_extra = "") {
  return cluster_scenario(1, 4,
                          R"({"jobs": [
      {"name": "low", "duration": "1h", "priority": 1, "request": {"gpus": 4})" +
                              low_extra + R"(},
      {"name": "high", "arrival": "1s", "duration": "1h", "priority": 10, "request": {"gpus": 2}}]})",
                          R"("until": "10m", "scheduler": )" + scheduler + ", ");
}

TEST(PreemptionRun, AHigherPriorityPodEvictsALowerOne) {
  const auto run = run_text(one_node(R"({"queue": "priority", "preemption": true})"));
  const JobRecord& low = job_named(*run, "low-0");
  const JobRecord& high = job_named(*run, "high-0");
  EXPECT_EQ(high.state, JobState::Running);
  EXPECT_EQ(high.start, kSecond);          // placed at once on the node it made room on
  EXPECT_EQ(low.state, JobState::Failed);  // restart Never (the default): it ends, as a deleted Pod
  EXPECT_EQ(low.kill_cause, KillCause::Preempted);
  EXPECT_EQ(low.end, kSecond);
  EXPECT_EQ(run->runtime().failure_reasons()[static_cast<std::size_t>(low.failure)],
            "preempted by pod high-0 on node p-0");
  const nlohmann::ordered_json summary = run->summary();
  const auto& jobs = summary["metrics"]["jobs"];
  EXPECT_EQ(jobs["killed"]["preempted"], 1);
  EXPECT_EQ(jobs["preemptions"], 1);
  EXPECT_NE(jobs_csv(run->runtime()).find(",preempted,0,0,preempted by pod high-0 on node p-0,"), std::string::npos);
}

TEST(PreemptionRun, AJobWhoseWorkEndsAsAHigherPriorityOneArrivesCompletes) {
  // low's work ends at 1000 s, the instant high arrives: low completes and high takes its GPU,
  // nothing is preempted. The arrival used to run first (its event was pushed when low arrived,
  // before low's end was), evicting low with all its work done; an unrelated job in another
  // pool, which reordered the pushes, made low complete (audit, stop 47).
  for (const std::string other_pool_job : {"", R"(, {"name": "z", "arrival": "500s", "duration": "10s",
      "request": {"gpus": 1, "gpu_product": "T4"}})"}) {
    const auto run = run_text(R"({"name": "t", "seed": 1, "scheduler": {"queue": "priority", "preemption": true},
      "cluster": {"node_pools": [
        {"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144},
        {"name": "t", "nodes": 1, "gpu": "T4", "gpus_per_node": 1, "cpu_milli": 8000, "memory_mib": 65536}]},
      "workload": {"jobs": [
        {"name": "l", "duration": "1000s", "priority": 1, "request": {"gpus": 1, "gpu_product": "A100-80GB"}},
        {"name": "h", "arrival": "1000s", "duration": "100s", "priority": 10,
         "request": {"gpus": 1, "gpu_product": "A100-80GB"}})" +
                              other_pool_job + "]}}");
    const JobRecord& low = job_named(*run, "l-0");
    const JobRecord& high = job_named(*run, "h-0");
    EXPECT_EQ(low.state, JobState::Completed) << other_pool_job;
    EXPECT_EQ(low.end, 1000 * kSecond);
    EXPECT_EQ(high.start, 1000 * kSecond);
    EXPECT_EQ(high.end, 1100 * kSecond);
    EXPECT_EQ(run->summary()["metrics"]["jobs"]["preemptions"], 0);
  }
}

TEST(PreemptionRun, APodEndingAsAnotherJoinsItsTimeSlicedGpuFreesItsMemoryFirst) {
  // a (50000 MiB) ends at 100 s, the instant b (40000 MiB) joins the 80 GB GPU: b fits once a
  // has gone. b used to be OOM-killed (and with oom_blast_radius gpu, a with it, its work done).
  for (const std::string radius : {"pod", "gpu"}) {
    const auto run = run_text(testing::shared_scenario(
        1, 1, R"({"policy": "timeslice", "replicas": 2, "oom_blast_radius": ")" + radius + R"("})",
        R"({"jobs": [
        {"name": "a", "duration": "100s", "request": {"gpus": 1, "demand": {"sm": 1.0, "bw": 0.5, "mem_mib": 50000}}},
        {"name": "b", "arrival": "100s", "duration": "100s",
         "request": {"gpus": 1, "demand": {"sm": 1.0, "bw": 0.5, "mem_mib": 40000}}}]})"));
    EXPECT_EQ(job_named(*run, "a-0").state, JobState::Completed) << radius;
    EXPECT_EQ(job_named(*run, "a-0").end, 100 * kSecond);
    EXPECT_EQ(job_named(*run, "b-0").state, JobState::Completed) << radius;
    EXPECT_EQ(job_named(*run, "b-0").end, 200 * kSecond);
  }
}

TEST(PreemptionRun, TimeseriesCountsAJobInARestartBackOffAsPending) {
  // A job that always runs out of memory restarts after 10 s back-offs; at 20 s it waits out
  // one. timeseries.csv's pending column left it out (0 pending, 0 running) while summary.json
  // and jobs.csv counted it pending (audit, stop 47).
  const auto run = run_text(testing::cluster_scenario(1, 1, R"({"jobs": [{"name": "a", "duration": "100s",
      "restart": {"policy": "OnFailure", "backoff": "10s", "max_backoff": "25s", "max_restarts": 3},
      "request": {"gpus": 1, "demand": {"sm": 1.0, "bw": 0.5, "mem_mib": 100000}}}]})",
                                                      R"("until": "20s", )"));
  EXPECT_EQ(run->summary()["metrics"]["jobs"]["pending_at_end"], 1);
  const TimeseriesSample& last = run->timeseries().samples().back();
  EXPECT_EQ(last.time, 20 * kSecond);
  EXPECT_EQ(last.pending, 1u);
  EXPECT_EQ(last.counters.running, 0u);
}

TEST(PreemptionRun, AGangsPendingReasonSaysItDoesNotPreempt) {
  // Four low-priority pods fill 2 nodes of 2 GPUs; a high-priority gang of 2 two-GPU pods waits.
  // Its reason had no preemption part at all, as if preemption were off (audit, stop 47).
  const auto run = run_text(cluster_scenario(2, 2, R"({"jobs": [
      {"name": "low", "replicas": 4, "duration": "1h", "priority": 0, "request": {"gpus": 1}},
      {"name": "gang", "arrival": "1s", "pods": 2, "duration": "1h", "priority": 100, "request": {"gpus": 2}}]})",
                                             R"("until": "10m", "scheduler": {"preemption": true}, )"));
  const JobRecord& gang = job_named(*run, "gang-0");
  EXPECT_EQ(gang.state, JobState::Pending);
  EXPECT_EQ(run->runtime().explain_pending(gang.spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: not tried: a gang of 2 pods does not "
            "preempt (DefaultPreemption works pod by pod).");
}

TEST(PreemptionRun, OffByDefaultAndForEqualPriorities) {
  // Without scheduler.preemption the high-priority job waits (and the summary has no
  // preemption keys); with it, a job of equal priority waits too.
  const auto off = run_text(one_node(R"({"queue": "priority"})"));
  EXPECT_EQ(job_named(*off, "high-0").state, JobState::Pending);
  EXPECT_FALSE(off->summary()["metrics"]["jobs"]["killed"].contains("preempted"));
  EXPECT_EQ(off->runtime().explain_pending(job_named(*off, "high-0").spec),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");

  const auto equal = run_text(cluster_scenario(1, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "priority": 5, "request": {"gpus": 4}},
      {"name": "b", "arrival": "1s", "duration": "1h", "priority": 5, "request": {"gpus": 2}}]})",
                                               R"("until": "10m", "scheduler": {"preemption": true}, )"));
  EXPECT_EQ(job_named(*equal, "b-0").state, JobState::Pending);
  EXPECT_EQ(equal->runtime().explain_pending(job_named(*equal, "b-0").spec),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No "
            "preemption victims found for incoming pod.");
}

TEST(PreemptionRun, ThePodMustFitOnceTheVictimsAreGone) {
  // p-0 runs a priority-1 and a priority-20 job of 2 GPUs each, p-1 a priority-20 job of 4. A
  // priority-9 job of 3 GPUs: on p-0 evicting the only lower-priority job frees 2, not enough
  // (the node's reason is then the filter's); p-1 has no victim.
  const auto run = run_text(cluster_scenario(2, 4, R"({"jobs": [
      {"name": "low", "duration": "1h", "priority": 1, "request": {"gpus": 2}},
      {"name": "keeper", "duration": "1h", "priority": 20, "request": {"gpus": 2}},
      {"name": "keeper2", "duration": "1h", "priority": 20, "request": {"gpus": 4}},
      {"name": "big", "arrival": "1s", "duration": "1h", "priority": 9, "request": {"gpus": 3}}]})",
                                             R"("until": "10m", "scheduler": {"preemption": true}, )"));
  const JobRecord& big = job_named(*run, "big-0");
  EXPECT_EQ(big.state, JobState::Pending);
  EXPECT_EQ(job_named(*run, "low-0").state, JobState::Running);
  EXPECT_EQ(run->runtime().explain_pending(big.spec),
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 1 "
            "Insufficient nvidia.com/gpu, 1 No preemption victims found for incoming pod.");
  // The dry run left the cluster as it was.
  const auto gpu = static_cast<std::size_t>(run->cluster().resource_names().find("nvidia.com/gpu"));
  EXPECT_EQ(run->cluster().node(0).resource_allocated[gpu], 4);
  EXPECT_EQ(run->cluster().gpu(0).residents.size(), 1u);
}

TEST(PreemptionRun, ChoosesTheNodeWithTheLeastImportantVictims) {
  // Two full nodes: p-0 runs a priority-5 job, p-1 a priority-2 job. A priority-9 job evicts on p-1.
  const auto run = run_text(cluster_scenario(2, 4, R"({"jobs": [
      {"name": "mid", "duration": "1h", "priority": 5, "request": {"gpus": 4}},
      {"name": "low", "duration": "1h", "priority": 2, "request": {"gpus": 4}},
      {"name": "top", "arrival": "1s", "duration": "1h", "priority": 9, "request": {"gpus": 1}}]})",
                                             R"("until": "10m", "scheduler": {"preemption": true}, )"));
  EXPECT_EQ(node_of(*run, job_named(*run, "mid-0")), "p-0");
  EXPECT_EQ(job_named(*run, "mid-0").state, JobState::Running);
  EXPECT_EQ(job_named(*run, "low-0").kill_cause, KillCause::Preempted);
  EXPECT_EQ(node_of(*run, job_named(*run, "top-0")), "p-1");
}

TEST(PreemptionRun, EvictsOnlyWhatIsNeededKeepingTheMoreImportant) {
  // One node, four 1-GPU jobs of priorities 1, 3, 2, 3 (started in that order); a priority-9
  // job of 2 GPUs. Reprieve gives back the priority-3 jobs first (the earlier first): both
  // stay; the priority-2 and priority-1 jobs go.
  const auto run = run_text(cluster_scenario(1, 4, R"({"jobs": [
      {"name": "p1", "duration": "1h", "priority": 1, "request": {"gpus": 1}},
      {"name": "p3a", "arrival": "1s", "duration": "1h", "priority": 3, "request": {"gpus": 1}},
      {"name": "p2", "arrival": "2s", "duration": "1h", "priority": 2, "request": {"gpus": 1}},
      {"name": "p3b", "arrival": "3s", "duration": "1h", "priority": 3, "request": {"gpus": 1}},
      {"name": "top", "arrival": "4s", "duration": "1h", "priority": 9, "request": {"gpus": 2}}]})",
                                             R"("until": "10m", "scheduler": {"preemption": true}, )"));
  EXPECT_EQ(job_named(*run, "p1-0").kill_cause, KillCause::Preempted);
  EXPECT_EQ(job_named(*run, "p2-0").kill_cause, KillCause::Preempted);
  EXPECT_EQ(job_named(*run, "p3a-0").state, JobState::Running);
  EXPECT_EQ(job_named(*run, "p3b-0").state, JobState::Running);
  EXPECT_EQ(job_named(*run, "top-0").state, JobState::Running);
  EXPECT_EQ(run->summary()["metrics"]["jobs"]["killed"]["preempted"], 2);
}

TEST(PreemptionRun, AVictimWithRestartOnFailureIsRequeuedAfterItsBackoff) {
  const auto run = run_text(one_node(R"({"queue": "priority", "preemption": true})",
                                     R"(, "restart": {"policy": "OnFailure", "backoff": "10s"})"));
  const JobRecord& low = job_named(*run, "low-0");
  EXPECT_EQ(low.state, JobState::Pending);  // back in the queue after 10 s; the node is still busy
  EXPECT_EQ(low.restarts, 1);
  EXPECT_EQ(low.kill_cause, KillCause::Preempted);
  EXPECT_EQ(run->summary()["metrics"]["jobs"]["restarts"], 1);
  // Waiting again, it finds no victim of lower priority.
  EXPECT_NE(run->runtime().explain_pending(low.spec).find("1 No preemption victims found for incoming pod."),
            std::string::npos);
}

TEST(PreemptionRun, PriorityClassesAndPreemptionPolicyNever) {
  const auto run = run_text(cluster_scenario(1, 4, R"({"jobs": [
      {"name": "low", "duration": "1h", "priority_class": "batch", "request": {"gpus": 4}},
      {"name": "polite", "arrival": "1s", "duration": "1h", "priority_class": "polite", "request": {"gpus": 2}}]})",
                                             R"("until": "10m", "scheduler": {"queue": "priority", "preemption": true,
      "priority_classes": {"batch": {"value": 10}, "polite": {"value": 1000, "preemption_policy": "Never"}}}, )"));
  const JobRecord& polite = job_named(*run, "polite-0");
  EXPECT_EQ(polite.spec.priority, 1000);
  EXPECT_FALSE(polite.spec.preempts);
  EXPECT_EQ(polite.state, JobState::Pending);
  EXPECT_EQ(job_named(*run, "low-0").state, JobState::Running);
  EXPECT_EQ(run->runtime().explain_pending(polite.spec),
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

TEST(PreemptionRun, UnresolvableNodesAreNotHelpful) {
  // A pod selecting the H100 model: the A100 node fails NodeAffinity, which preemption cannot
  // resolve; the H100 node runs a job of equal priority.
  const auto run = run_text(R"({"name": "t", "until": "10m", "scheduler": {"preemption": true},
    "cluster": {"node_pools": [
      {"name": "a", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 8000, "memory_mib": 8192},
      {"name": "h", "nodes": 1, "gpu": "H100-80GB", "gpus_per_node": 1, "cpu_milli": 8000, "memory_mib": 8192}]},
    "workload": {"jobs": [
      {"name": "x", "duration": "1h", "request": {"gpus": 1, "gpu_product": "H100-80GB"}},
      {"name": "y", "arrival": "1s", "duration": "1h", "request": {"gpus": 1, "gpu_product": "H100-80GB"}}]}})");
  EXPECT_EQ(run->runtime().explain_pending(job_named(*run, "y-0").spec),
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match Pod's node "
            "affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming "
            "pod, 1 Preemption is not helpful for scheduling.");
}

TEST(PreemptionRun, ABadPriorityClassIsLocated) {
  try {
    testing::scenario_from_text(cluster_scenario(1, 4, R"({"jobs": [
      {"name": "a", "duration": "1h", "priority_class": "hihg", "request": {"gpus": 1}}]})",
                                                 R"("scheduler": {"priority_classes": {"high": {"value": 5}}}, )"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "<test>: /workload/jobs/0/priority_class: no priority class \"hihg\" in scheduler.priority_classes; "
              "did you mean \"high\"? (it has \"high\")");
  }
}

}  // namespace
}  // namespace sharesim
