// Behaviour classes (docs/models.md "Behaviour classes", "Checkpoints and restarts"):
// inference services against the M/M/1 queue, notebooks' busy fraction and memory, and
// checkpoint/restart against hand-computed times.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "run_helpers.h"
#include "sim/metrics/output_files.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

using testing::Estimate;
using testing::replicate;
using testing::run_text;

// One node of one A100-80GB with the given sharing object, and a job list.
std::string one_gpu(const std::string& sharing, const std::string& jobs, const std::string& extra = "") {
  return R"({"name": "t", "seed": 3, )" + extra +
         R"("cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1,
             "cpu_milli": 64000, "memory_mib": 262144, "sharing": )" +
         sharing + R"(}]}, "workload": {"jobs": )" + jobs + "}}";
}
const std::string kExclusive = R"({"policy": "exclusive"})";

TEST(BehaviourClasses, ServiceOnExclusiveGpuIsMM1Queue) {
  // Poisson requests (lambda = 5/s), exponential work (mean 0.1 s, mu = 10/s), one server
  // at rate 1: mean sojourn time 1 / (mu - lambda) = 0.2 s (Kleinrock 1975, sec. 3.2).
  const double lambda = 5, mu = 10;
  const std::string scenario = one_gpu(kExclusive, R"([{"name": "svc", "kind": "inference", "lifetime": "2000s",
      "request": {"demand": {"sm": 0.5, "bw": 0.4, "mem_mib": 1024}},
      "requests": {"arrival": {"process": "poisson", "rate_per_s": 5},
                   "work": {"dist": "exponential", "mean_s": 0.1}, "slo": "500ms"}}])");
  const Estimate latency = replicate(scenario, 8, [](const ScenarioRun& run) {
    EXPECT_EQ(run.metrics().services.size(), 1u);
    const ServiceMetrics& s = run.metrics().services.at(0);
    EXPECT_GT(s.latency_s.count, 8000u);
    // Nothing is killed: only the requests still queued when the lifetime ends are dropped (a
    // queue of rho / (1 - rho) = 1 request on average).
    EXPECT_LE(s.dropped, 20u);
    EXPECT_EQ(s.arrived, s.latency_s.count + s.dropped);
    // Every request ran alone at standalone speed, so its latency is at least its work.
    EXPECT_GE(s.slowdown.p50, 1.0);
    return s.latency_s.mean;
  });
  const double expected = 1 / (mu - lambda);
  EXPECT_LT(latency.standard_error, 0.1 * expected) << "the test is too loose to catch a 10% error";
  EXPECT_NEAR(latency.mean, expected, 4 * latency.standard_error);
  // P(sojourn <= t) = 1 - exp(-(mu - lambda) t) for M/M/1 FIFO: the SLO attainment at 0.5 s.
  const Estimate attainment =
      replicate(scenario, 4, [](const ScenarioRun& run) { return run.metrics().services.at(0).slo_attainment; });
  EXPECT_NEAR(attainment.mean, 1 - std::exp(-(mu - lambda) * 0.5), std::max(0.01, 4 * attainment.standard_error));
}

TEST(BehaviourClasses, ServiceIsIdleBetweenRequestsAndEndsWithItsLifetime) {
  const auto run = run_text(one_gpu(kExclusive, R"([{"name": "svc", "kind": "inference", "lifetime": "1000s",
      "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 1024}},
      "requests": {"arrival": {"process": "poisson", "rate_per_s": 2},
                   "work": {"dist": "constant", "mean_s": 0.1}}}])"));
  const JobRecord& job = run->runtime().jobs().at(0);
  EXPECT_EQ(job.state, JobState::Completed);
  EXPECT_EQ(job.end, 1000 * kSecond);
  // Busy only while serving: utilization = lambda x work = 0.2.
  EXPECT_NEAR(run->metrics().utilization_mean, 0.2, 0.03);
  EXPECT_EQ(run->metrics().slowdown.count, 0u);  // a service has no standalone duration
}

// A request that begins as the one before it ends keeps the service's rate without looking it up
// again (ClusterRuntime::apply_step): that rate must follow the GPU's other residents. A service
// with always a request waiting (1,000 requests/s of 1 s work each) shares its time-sliced GPU
// with a training job of 50 s from 100 s to the training job's end: both ask the same, so both
// run at the same rate, and the service does the training job's 50 s of work meanwhile. Its
// requests done by the end of its life at 400 s are then 100 + 50 + (400 - end) within one (its
// first request arrives after 0; the requests are counted whole). A rate kept from before the
// training job joined would finish (end - 150) s of requests more.
TEST(BehaviourClasses, BackToBackRequestsRunAtTheRateTheirGpusNeighboursLeave) {
  for (const char* fidelity : {"fluid", "slice"}) {
    SCOPED_TRACE(fidelity);
    const auto run =
        run_text(one_gpu(R"({"policy": "timeslice", "replicas": 4, "fidelity": ")" + std::string(fidelity) + R"("})",
                         R"([{"name": "svc", "kind": "inference", "lifetime": "400s",
          "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 1024}},
          "requests": {"arrival": {"process": "poisson", "rate_per_s": 1000},
                       "work": {"dist": "constant", "mean_s": 1}}},
         {"name": "neighbour", "arrival": "100s", "duration": "50s",
          "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 1024}}}])"));
    const JobRecord& neighbour = run->runtime().jobs().at(1);
    ASSERT_EQ(neighbour.state, JobState::Completed);
    const double shared_until_s = time_to_seconds(neighbour.end);
    ASSERT_GT(shared_until_s, 200.0) << "sharing should at least halve each one's speed";
    ASSERT_LT(shared_until_s, 390.0);
    const double expected = 100 + 50 + (400 - shared_until_s);
    const auto done = static_cast<double>(run->metrics().services.at(0).latency_s.count);
    EXPECT_NEAR(done, expected, 1.0);
  }
}

TEST(BehaviourClasses, NotebookBusyFractionIsActiveOverActivePlusIdle) {
  // Exclusive GPU: cells run at standalone speed, so the GPU is busy E[A] / (E[A] + E[I]).
  const std::string scenario = one_gpu(kExclusive, R"([{"name": "nb", "kind": "notebook", "session": "20000s",
      "request": {"demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 4096}},
      "active": {"dist": "exponential", "mean_s": 10}, "idle": {"dist": "exponential", "mean_s": 30}}])");
  const Estimate busy = replicate(scenario, 6, [](const ScenarioRun& run) {
    const JobRecord& job = run.runtime().jobs().at(0);
    EXPECT_EQ(job.state, JobState::Completed);
    EXPECT_EQ(job.end, 20000 * kSecond);  // the session is wall time
    const ServiceMetrics& cells = run.metrics().services.at(0);
    EXPECT_EQ(cells.kind, "notebook");
    EXPECT_NEAR(cells.slowdown.max, 1.0, 1e-6);  // alone on its GPU: no cell waits
    // Memory is held for the whole session, idle or not.
    EXPECT_NEAR(run.metrics().memory_used_mean_mib, 4096, 1e-6);
    return run.metrics().utilization_mean;
  });
  EXPECT_LT(busy.standard_error, 0.02);
  EXPECT_NEAR(busy.mean, 10.0 / 40.0, std::max(0.005, 4 * busy.standard_error));
}

// Cells of 100 s with 10 s of think time in a 150 s session: the first cell runs from 0 to
// 100 s, the second from 110 s until the session ends at 150 s, which cuts it off: it is
// dropped. With the horizon at 140 s instead, the second cell is still running at the end:
// in `requests` but neither completed nor dropped.
TEST(BehaviourClasses, ACellCutOffByTheSessionsEndIsDropped) {
  const std::string notebook = R"([{"name": "nb", "kind": "notebook", "session": "150s",
      "request": {"demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 4096}},
      "active": {"dist": "constant", "mean_s": 100}, "idle": {"dist": "constant", "mean_s": 10}}])";
  const auto whole = run_text(one_gpu(kExclusive, notebook));
  EXPECT_EQ(whole->runtime().jobs().at(0).end, 150 * kSecond);
  const ServiceMetrics& cells = whole->metrics().services.at(0);
  EXPECT_EQ(cells.arrived, 2u);
  EXPECT_EQ(cells.latency_s.count, 1u);
  EXPECT_EQ(cells.dropped, 1u);
  const auto cut = run_text(one_gpu(kExclusive, notebook, R"("until": "140s", )"));
  const ServiceMetrics& at_140s = cut->metrics().services.at(0);
  EXPECT_EQ(at_140s.arrived, 2u);
  EXPECT_EQ(at_140s.latency_s.count, 1u);
  EXPECT_EQ(at_140s.dropped, 0u);
}

TEST(BehaviourClasses, IdleNotebookHoldsItsMemorySoTimeSlicingStillRunsOutOfMemory) {
  // The notebook runs one 1 s cell and then idles for the rest of its session; at 100 s a
  // pod needing 40 GiB joins its time-sliced GPU: 50 GiB + 40 GiB > 80 GiB.
  const auto run = run_text(one_gpu(R"({"policy": "timeslice", "replicas": 4})", R"([
      {"name": "nb", "kind": "notebook", "session": "1000s",
       "request": {"demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 51200}},
       "active": {"dist": "constant", "mean_s": 1}, "idle": {"dist": "constant", "mean_s": 5000}},
      {"name": "late", "arrival": "100s", "duration": "10s",
       "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 40960}}}])"));
  const auto& jobs = run->runtime().jobs();
  EXPECT_EQ(jobs.at(0).state, JobState::Completed);
  EXPECT_EQ(jobs.at(1).state, JobState::Failed);
  EXPECT_EQ(jobs.at(1).kill_cause, KillCause::Oom);
  EXPECT_EQ(jobs.at(1).end, 100 * kSecond);
  EXPECT_EQ(run->metrics().services.at(0).latency_s.count, 1u);  // one cell
}

// A training job alone on a time-sliced GPU, killed at 700 s by an intruder whose memory
// does not fit beside it (blast radius "gpu": the whole GPU dies).
std::string killed_at_700s(const std::string& victim_keys) {
  return one_gpu(R"({"policy": "timeslice", "replicas": 4, "oom_blast_radius": "gpu"})",
                 R"([{"name": "victim", "duration": "1000s", )" + victim_keys + R"(,
                      "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 51200}}},
                     {"name": "intruder", "arrival": "700s", "duration": "10s",
                      "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 40960}}}])");
}

TEST(BehaviourClasses, CheckpointingLosesOnlyTheWorkSinceTheLastCheckpoint) {
  // 700 s of work done, checkpoints every 300 s: 600 s saved, 400 s left. Restart after the
  // 10 s backoff at 710 s, alone again: it ends at 1110 s.
  const auto run = run_text(killed_at_700s(
      R"("kind": "training", "checkpoint_interval": "300s", "restart": {"policy": "OnFailure", "backoff": "10s"})"));
  const JobRecord& victim = run->runtime().jobs().at(0);
  EXPECT_EQ(victim.state, JobState::Completed);
  EXPECT_EQ(victim.restarts, 1u);
  EXPECT_EQ(victim.start, 0);  // its first start
  EXPECT_EQ(victim.end, 1110 * kSecond);
  EXPECT_EQ(run->runtime().jobs().at(1).state, JobState::Failed);  // restart Never (default)
  EXPECT_EQ(run->metrics().restarts, 1u);
  EXPECT_EQ(run->metrics().failed, 1u);
}

TEST(BehaviourClasses, BatchAndUncheckpointedTrainingLoseAllTheirWork) {
  for (const char* kind : {"batch", "training"}) {
    const auto run = run_text(killed_at_700s(std::string(R"("kind": ")") + kind +
                                             R"(", "restart": {"policy": "OnFailure", "backoff": "10s"})"));
    const JobRecord& victim = run->runtime().jobs().at(0);
    EXPECT_EQ(victim.state, JobState::Completed) << kind;
    EXPECT_EQ(victim.end, 1710 * kSecond) << kind;  // 710 s + the whole 1000 s again
  }
}

// A hog holds 50 GiB of a time-sliced GPU for 1000 s; the victim (40 GiB) dies of OOM each
// time it joins.
std::string oom_on_join(const std::string& restart) {
  return one_gpu(
      R"({"policy": "timeslice", "replicas": 4})",
      R"([{"name": "hog", "duration": "1000s", "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 51200}}},
                     {"name": "victim", "duration": "10s", "restart": )" +
          restart + R"(, "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 40960}}}])");
}

TEST(BehaviourClasses, OnFailureRestartsWithDoublingBackoffUntilItsLimit) {
  // Kills at 0 s, then restarts after 10 s, 20 s, 30 s (20 -> 40 capped at 30): the fourth
  // kill, at 60 s, finds no restart left.
  const auto run =
      run_text(oom_on_join(R"({"policy": "OnFailure", "backoff": "10s", "max_backoff": "30s", "max_restarts": 3})"),
               {{"output.event_log", "true"}});
  const JobRecord& victim = run->runtime().jobs().at(1);
  EXPECT_EQ(victim.state, JobState::Failed);
  EXPECT_EQ(victim.restarts, 3u);
  EXPECT_EQ(victim.end, 60 * kSecond);
  EXPECT_EQ(run->metrics().restarts, 3u);
  EXPECT_EQ(run->metrics().killed_oom, 4u);  // every kill counts, restarted or not
  EXPECT_EQ(run->metrics().failed, 1u);
  const std::string csv = jobs_csv(run->runtime());
  EXPECT_NE(csv.find("victim-0,victim,training,failed,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",oom,0,3,OOM"), std::string::npos) << csv;  // kill_cause, killed_by_other, restarts
  EXPECT_EQ(run->summary()["metrics"]["jobs"]["restarts"], 3);
  // At 15 s it waits in its second backoff (killed again at 10 s): pending, with the reason.
  const auto early =
      run_text(oom_on_join(R"({"policy": "OnFailure", "backoff": "10s", "max_backoff": "30s", "max_restarts": 3})"),
               {{"until", "15s"}});
  EXPECT_EQ(early->runtime().jobs().at(1).state, JobState::Pending);
  EXPECT_EQ(early->metrics().pending_at_end, 1u);
  const std::string early_csv = jobs_csv(early->runtime());
  EXPECT_NE(early_csv.find(",oom,0,2,back-off before restart 2 after: OOM: "), std::string::npos) << early_csv;
}

TEST(BehaviourClasses, GeneratorRestartsAndCheckpointsBoundTheLostWork) {
  // 20 training jobs of 1000 s, each alone on an exclusive GPU (no queueing), faulting once
  // per 500 s of running on average; checkpoints every 100 s, a constant 10 s backoff. A kill
  // loses less than 100 s of work, so end - start = 1000 s + 10 s x restarts + lost, with
  // 0 <= lost < 100 s x restarts.
  const auto run = run_text(testing::cluster_scenario(5, 4, R"({"generators": [{"name": "train", "kind": "training",
      "count": 20, "arrival": {"process": "poisson", "rate_per_s": 1},
      "duration": {"dist": "constant", "mean_s": 1000}, "checkpoint_interval": "100s",
      "restart": {"policy": "OnFailure", "backoff": "10s", "max_backoff": "10s", "max_restarts": 1000}}]})",
                                                      R"("faults": {"mtbf": "500s"}, )"));
  EXPECT_EQ(run->metrics().completed, 20u);
  EXPECT_GT(run->metrics().restarts, 10u);
  for (const JobRecord& job : run->runtime().jobs()) {
    const double lost_s = time_to_seconds(job.end - job.start) - 1000.0 - 10.0 * job.restarts;
    EXPECT_GE(lost_s, -1e-6) << job.restarts;
    EXPECT_LT(lost_s, 100.0 * job.restarts + 1e-6) << job.restarts;
  }
}

TEST(BehaviourClasses, NeverFailsAtTheFirstKill) {
  const auto run = run_text(oom_on_join(R"({"policy": "Never"})"));
  const JobRecord& victim = run->runtime().jobs().at(1);
  EXPECT_EQ(victim.state, JobState::Failed);
  EXPECT_EQ(victim.restarts, 0u);
  EXPECT_EQ(victim.end, 0);
  EXPECT_EQ(run->metrics().restarts, 0u);
}

TEST(BehaviourClasses, KilledServiceRestartsAndCountsTheRequestsItLost) {
  // A fault every 200 s of running on average kills the service; OnFailure brings it back.
  const auto run = run_text(one_gpu(kExclusive, R"([{"name": "svc", "kind": "inference", "lifetime": "3000s",
      "restart": {"policy": "OnFailure", "backoff": "10s", "max_backoff": "10s", "max_restarts": 1000},
      "request": {"demand": {"sm": 1, "bw": 0.5, "mem_mib": 1024}},
      "requests": {"arrival": {"process": "poisson", "rate_per_s": 5},
                   "work": {"dist": "exponential", "mean_s": 0.1}}}])",
                                    R"("faults": {"mtbf": "200s"}, )"));
  const JobRecord& svc = run->runtime().jobs().at(0);
  EXPECT_EQ(svc.state, JobState::Completed);
  EXPECT_GT(svc.restarts, 3u);
  const ServiceMetrics& s = run->metrics().services.at(0);
  EXPECT_GT(s.dropped, 0u);  // queued at a kill, or refused during a backoff
  EXPECT_GE(s.arrived, s.latency_s.count + s.dropped);
}

// The audit's scenario (docs/models.md "Checkpoints and restarts"): a service (or notebook) of
// 100 s on the only GPU, evicted at 30 s by a 200 s job of higher priority. OnFailure requeues
// it after 5 s, but the GPU stays taken until 230 s, long after its lifetime ends at 100 s.
std::string evicted_at_30s(const std::string& victim_keys, const std::string& extra = "") {
  return R"({"name": "i2", )" + extra + R"("cluster": {"node_pools": [{"name": "n", "nodes": 1, "gpu": "A100-80GB",
      "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144}]},
      "scheduler": {"queue": "priority", "preemption": true},
      "workload": {"jobs": [{"name": "svc", "arrival": "0s", "priority": 1, )" +
         victim_keys + R"(, "request": {"gpus": 1, "demand": {"sm": 0.5, "bw": 0.3, "mem_mib": 1000}}},
        {"name": "hi", "arrival": "30s", "duration": "200s", "priority": 10}]}})";
}
const std::string kService = R"("kind": "inference", "lifetime": "100s",
    "requests": {"arrival": {"process": "poisson", "rate_per_s": 0.5},
                 "work": {"dist": "constant", "mean_s": 1.5}, "slo": "3s"})";
const std::string kRestart5s = R"("restart": {"policy": "OnFailure", "backoff": "5s"})";

// Placed again at 230 s, the service ended at 230 s; with the horizon at 150 s it was still
// pending at the end. Its lifetime is wall time from its first start: it ends at 100 s, pending
// or backing off, and is not placed again.
TEST(BehaviourClasses, AnEvictedServiceOrNotebookEndsWithItsLifetimeWhileWaiting) {
  const std::string notebook = R"("kind": "notebook", "session": "100s",
      "active": {"dist": "constant", "mean_s": 10}, "idle": {"dist": "constant", "mean_s": 5})";
  for (const std::string& victim : {kService, notebook}) {
    // Waiting in the pending queue (backoff 5 s), and still in its backoff (200 s) at 100 s.
    for (const std::string& restart : {kRestart5s, std::string(R"("restart": {"policy": "OnFailure", "backoff": "200s"})")}) {
      for (const std::string& until : {std::string(), std::string(R"("until": "150s", )")}) {
        const auto run = run_text(evicted_at_30s(victim + ", " + restart, until));
        const JobRecord& svc = run->runtime().jobs().at(0);
        const std::string what = victim.substr(0, 30) + restart + until;
        EXPECT_EQ(svc.state, JobState::Completed) << what;
        EXPECT_EQ(svc.start, 0) << what;
        EXPECT_EQ(svc.end, 100 * kSecond) << what;
        EXPECT_EQ(svc.restarts, 1u) << what;
        EXPECT_EQ(run->metrics().pending_at_end, 0u) << what;
        EXPECT_TRUE(run->runtime().scheduler().pending().empty()) << what;
        EXPECT_EQ(run->runtime().jobs().at(1).start, 30 * kSecond) << what;
        EXPECT_EQ(run->metrics().completed, until.empty() ? 2u : 1u) << what;
      }
    }
  }
}

// Requests of the evicted service that arrive while no pod serves it (30 s to its lifetime's
// end at 100 s) are dropped where they arrive. Before, they were drawn only when the pod came
// back, and counted at that time: with the horizon at 150 s, never.
TEST(BehaviourClasses, RequestsArrivingInAnOutageAreDroppedWhereTheyArrive) {
  const std::string scenario = evicted_at_30s(kService + ", " + kRestart5s, R"("until": "150s", )");
  const auto whole = run_text(scenario);
  const ServiceMetrics& all = whole->metrics().services.at(0);
  // Every arrival in [0, 100 s): 15 served before 30 s (one of them queued at the eviction,
  // dropped), 24 in the outage.
  EXPECT_EQ(all.arrived, 39u);
  EXPECT_EQ(all.dropped, 25u);
  EXPECT_EQ(all.latency_s.count, 14u);
  // A window from 50 s: only outage arrivals, each dropped; those before 50 s do not count.
  const auto late = run_text(scenario, {{"metrics_window", R"({"start": "50s"})"}});
  const ServiceMetrics& from_50s = late->metrics().services.at(0);
  EXPECT_GT(from_50s.arrived, 0u);
  EXPECT_LT(from_50s.arrived, 24u);
  EXPECT_EQ(from_50s.dropped, from_50s.arrived);
  EXPECT_EQ(from_50s.latency_s.count, 0u);
  // A window to 45 s: the arrivals in (30 s, 45 s] count as dropped, beside the one the
  // eviction lost and those served before it.
  const auto early = run_text(scenario, {{"metrics_window", R"({"end": "45s"})"}});
  const ServiceMetrics& to_45s = early->metrics().services.at(0);
  EXPECT_GT(to_45s.dropped, 1u);
  EXPECT_EQ(to_45s.arrived, to_45s.latency_s.count + to_45s.dropped);
  EXPECT_EQ(to_45s.latency_s.count, 14u);
}

// Requests still queued when a service's lifetime ends are dropped, counted where they
// arrived: with the default window every request is completed or dropped. Before, the 2
// requests queued at 100 s were neither (39 requests, 37 completed, 0 dropped).
TEST(BehaviourClasses, RequestsQueuedAtTheEndOfALifetimeAreDropped) {
  const std::string scenario = R"({"name": "i3", "until": "200s", "cluster": {"node_pools": [{"name": "n",
      "nodes": 1, "gpu": "A100-80GB", "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144}]},
      "workload": {"jobs": [{"name": "svc", "arrival": "0s", )" +
                               kService + R"(, "request": {"gpus": 1, "demand": {"sm": 0.5, "bw": 0.3, "mem_mib": 1000}}}]}})";
  const auto run = run_text(scenario);
  EXPECT_EQ(run->runtime().jobs().at(0).end, 100 * kSecond);
  const ServiceMetrics& s = run->metrics().services.at(0);
  EXPECT_EQ(s.arrived, 39u);
  EXPECT_EQ(s.latency_s.count, 37u);
  EXPECT_EQ(s.dropped, 2u);
  // Counted where they arrived (before 100 s), not at the end of the lifetime: a window that
  // ends at 99.999 s still holds them, one from 100 s none.
  const auto before_end = run_text(scenario, {{"metrics_window", R"({"end": "99999ms"})"}});
  EXPECT_EQ(before_end->metrics().services.at(0).dropped, 2u);
  const auto after_end = run_text(scenario, {{"metrics_window", R"({"start": "100s"})"}});
  EXPECT_EQ(after_end->metrics().services.at(0).dropped, 0u);
}

TEST(BehaviourClasses, AServiceWhoseLifetimeIsTheEndOfTimeNeedsAnUntil) {
  // A lifetime of 2^63 - 1 ns never ends: without until the run could not end. It is refused, as
  // before, but was told that it gave no lifetime (audit, stop 47).
  const auto error_of = [](const std::string& lifetime) {
    try {
      run_text(one_gpu(kExclusive, R"([{"name": "svc", "kind": "inference", )" + lifetime +
                                       R"("requests": {"arrival": {"process": "poisson", "rate_per_s": 1},
                                       "work": {"dist": "constant", "mean_s": 0.1}}}])"));
    } catch (const InputError& e) {
      return std::string(e.where()) + ": " + e.problem();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"("lifetime": "9223372036854775807ns", )"),
            "/workload/jobs/0: an inference service with \"lifetime\" \"9223372036854775807ns\", the end of simulated "
            "time, never ends, and the scenario's \"until\" is not set: give a shorter lifetime or an until");
  EXPECT_EQ(error_of(""),
            "/workload/jobs/0: an inference service without \"lifetime\" runs until the scenario's \"until\", which is "
            "not set: give one of them");
}

// A training or batch pod whose demand uses neither SMs nor bandwidth gets rate 0 from every
// policy: it held its GPU forever and nothing said why. Services and notebooks already had
// this check on their active demand.
TEST(BehaviourClasses, AGpuJobWithNeitherSmNorBandwidthIsAnInputError) {
  const auto error_of = [](const std::string& jobs) {
    try {
      run_text(one_gpu(kExclusive, jobs));
    } catch (const InputError& e) {
      return std::string(e.where()) + ": " + e.problem();
    }
    return std::string("no error");
  };
  const std::string zero = R"("request": {"demand": {"sm": 0, "bw": 0}})";
  for (const char* kind : {"training", "batch"}) {
    const std::string error =
        error_of(std::string(R"([{"name": "t", "kind": ")") + kind + R"(", "duration": "10s", )" + zero + "}]");
    EXPECT_NE(error.find("/workload/jobs/0/request/demand: "), std::string::npos) << error;
    EXPECT_NE(error.find("expected sm > 0 or bw > 0"), std::string::npos) << error;
  }
  // Measured fields that set both to 0 are the same demand.
  EXPECT_NE(error_of(R"([{"name": "t", "duration": "10s",
                         "request": {"demand": {"sm_active": 0, "dram_active": 0}}}])")
                .find("/workload/jobs/0/request/demand: "),
            std::string::npos);
  // Generators: their request, and each entry of a mix.
  const auto generator_error = [](const std::string& generator) {
    try {
      run_text(R"({"name": "g", "cluster": {"node_pools": [{"name": "p", "nodes": 1, "gpu": "A100-80GB",
          "gpus_per_node": 1, "cpu_milli": 64000, "memory_mib": 262144}]}, "workload": {"generators": [)" +
               generator + "]}}");
    } catch (const InputError& e) {
      return std::string(e.where()) + ": " + e.problem();
    }
    return std::string("no error");
  };
  EXPECT_NE(generator_error(R"({"name": "g", "kind": "training", "count": 2, "arrival": {"process": "poisson", "rate_per_s": 1},
                               "duration": {"dist": "constant", "mean_s": 10}, )" + zero + "}")
                .find("/workload/generators/0/request/demand: "),
            std::string::npos);
  EXPECT_NE(generator_error(R"({"name": "g", "kind": "batch", "count": 2, "arrival": {"process": "mmpp", "states": [{"rate_per_s": 1,
                               "mean_stay": "10s"}, {"rate_per_s": 2, "mean_stay": "10s"}]}, "duration": {"dist": "constant", "mean_s": 10},
                               "mix": [{"weight": 1}, {"weight": 1, )" + zero + "}]}")
                .find("/workload/generators/0/mix/1/request/demand: "),
            std::string::npos);
  // A pod without a GPU runs at its standalone speed whatever its demand: not an error.
  EXPECT_EQ(error_of(R"([{"name": "cpu", "duration": "10s", "request": {"gpus": 0, "demand": {"sm": 0, "bw": 0}}}])"),
            "no error");
}

TEST(BehaviourClasses, SameSeedGivesIdenticalOutputs) {
  const std::string scenario = one_gpu(R"({"policy": "timeslice", "replicas": 4})", R"([
      {"name": "svc", "kind": "inference", "lifetime": "600s",
       "request": {"demand": {"sm": 0.5, "bw": 0.4, "mem_mib": 8192}},
       "requests": {"arrival": {"process": "mmpp", "states": [{"rate_per_s": 8, "mean_stay": "30s"},
                                                               {"rate_per_s": 0.5, "mean_stay": "60s"}]},
                    "work": {"dist": "lognormal", "mean_s": 0.05, "cv": 1}, "slo": "200ms"}},
      {"name": "nb", "kind": "notebook", "replicas": 3, "session": "500s",
       "request": {"demand": {"sm": 0.6, "bw": 0.3, "mem_mib": 8192}},
       "active": {"dist": "exponential", "mean_s": 5}, "idle": {"dist": "exponential", "mean_s": 20}}])");
  const auto a = run_text(scenario);
  const auto b = run_text(scenario);
  EXPECT_EQ(jobs_csv(a->runtime()), jobs_csv(b->runtime()));
  EXPECT_EQ(services_csv(a->metrics()), services_csv(b->metrics()));
  EXPECT_EQ(run_metrics_json(a->metrics())["services"], run_metrics_json(b->metrics())["services"]);
  EXPECT_EQ(a->metrics().services.size(), 2u);
  // Another seed gives other requests.
  const auto c = run_text(scenario, {{"seed", "4"}});
  EXPECT_NE(services_csv(a->metrics()), services_csv(c->metrics()));
}

TEST(BehaviourClasses, ClassKeysAreCheckedPerKind) {
  const auto error_of = [](const std::string& jobs, const std::string& extra = "") {
    try {
      run_text(one_gpu(kExclusive, jobs, extra));
    } catch (const InputError& e) {
      return std::string(e.where()) + ": " + e.problem();
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of(R"([{"name": "b", "kind": "batch", "duration": "1s", "checkpoint_interval": "1s"}])")
                .find("/workload/jobs/0/checkpoint_interval"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"name": "n", "kind": "notebook", "duration": "1s", "session": "1h",
                          "active": {"dist": "constant", "mean_s": 1}, "idle": {"dist": "constant", "mean_s": 1}}])")
                .find("/workload/jobs/0/duration"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"name": "s", "kind": "inference", "requests": {"arrival": {"process": "poisson",
                          "rate_per_s": 1}, "work": {"dist": "constant", "mean_s": 1}}}])")
                .find("\"until\""),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"name": "t", "duration": "1s", "restart": {"policy": "Never", "backoff": "1s"}}])")
                .find("/workload/jobs/0/restart/backoff"),
            std::string::npos);
}

}  // namespace
}  // namespace sharesim
