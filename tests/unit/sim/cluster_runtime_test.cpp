// The runtime's fluid progress, queueing and pending reasons, driven by a stub policy
// (stub_sharing.h: n residents progress at 1/n each) and a list of jobs.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/metrics/event_log.h"
#include "sim/metrics/gpu_usage_meter.h"
#include "sim/metrics/timeseries_sampler.h"
#include "sim/runtime/cluster_runtime.h"
#include "stub_sharing.h"

namespace sharesim {
namespace {

using test::make_stub_cluster;
using test::stub_shape;

class ListSource final : public JobSource {
 public:
  explicit ListSource(std::vector<JobSpec> jobs) : jobs_(std::move(jobs)) {}
  bool next(JobSpec& out) override {
    if (next_ == jobs_.size()) return false;
    out = jobs_[next_++];
    return true;
  }

 private:
  std::vector<JobSpec> jobs_;
  std::size_t next_ = 0;
};

JobSpec job_at(SimTime arrival, SimTime work, std::uint32_t sequence, std::uint32_t pods = 1) {
  JobSpec spec;
  spec.arrival = arrival;
  spec.work = work;
  spec.sequence = sequence;
  spec.pods = pods;
  return spec;
}

// A cluster of one node with one stub GPU, a scheduler and a runtime over a job list.
struct StubRun {
  StubRun(std::int64_t units, std::size_t max_residents, std::vector<JobSpec> jobs)
      : cluster(make_stub_cluster(1, 1, units, max_residents)),
        scheduler(cluster, shapes, SchedulerSpec{}, "stub.json") {
    std::vector<std::unique_ptr<JobSource>> sources;
    sources.push_back(std::make_unique<ListSource>(std::move(jobs)));
    runtime = std::make_unique<ClusterRuntime>(sim, cluster, scheduler, shapes, origins, std::move(sources));
    meter = std::make_unique<GpuUsageMeter>(*runtime);
    runtime->start();
  }
  const JobRecord& job(std::size_t i) const { return runtime->jobs().at(i); }

  ShapeTable shapes = [] {
    ShapeTable table;
    table.intern(stub_shape(1));
    return table;
  }();
  std::vector<JobOrigin> origins = [] {
    JobOrigin origin;
    origin.name = "job";
    return std::vector<JobOrigin>{origin};
  }();
  Simulator sim;
  Cluster cluster;
  Scheduler scheduler;
  std::unique_ptr<ClusterRuntime> runtime;
  std::unique_ptr<GpuUsageMeter> meter;
};

TEST(ClusterRuntime, SharedGpuAppliesThePolicysRatesAndMovesCompletions) {
  // A runs alone for 5 s (5 s of its 10 done), then both at rate 1/2: A needs 10 s more
  // (ends at 15 s), by when B has done 5 s; B then runs alone and ends at 20 s.
  StubRun run(2, 2, {job_at(0, 10 * kSecond, 0), job_at(5 * kSecond, 10 * kSecond, 1)});
  run.sim.run(7 * kSecond);
  ASSERT_EQ(run.runtime->jobs().size(), 2u);
  EXPECT_EQ(run.job(0).state, JobState::Running);
  EXPECT_EQ(run.job(0).rate, 0.5);
  EXPECT_EQ(run.job(1).rate, 0.5);
  EXPECT_EQ(run.job(1).start, 5 * kSecond);
  ASSERT_EQ(run.cluster.gpu(0).residents.size(), 2u);
  EXPECT_EQ(run.cluster.gpu(0).free_units(0), 0);

  run.sim.run();
  run.runtime->finish(run.runtime->last_job_event());
  run.meter->finish(run.runtime->last_job_event());
  EXPECT_EQ(run.job(0).state, JobState::Completed);
  EXPECT_EQ(run.job(0).end, 15 * kSecond);
  EXPECT_EQ(run.job(1).state, JobState::Completed);
  EXPECT_EQ(run.job(1).end, 20 * kSecond);
  EXPECT_EQ(run.runtime->last_job_event(), 20 * kSecond);
  const GpuUsage& usage = run.meter->usage()[0];
  EXPECT_EQ(usage.jobs_started, 2u);
  EXPECT_EQ(usage.allocated_ns, 20 * kSecond);
  EXPECT_EQ(usage.busy_ns, 20 * kSecond);
  EXPECT_FALSE(run.runtime->gpu_states()[0].allocated);  // the runtime's own state agrees
  EXPECT_TRUE(run.cluster.gpu(0).residents.empty());
  EXPECT_EQ(run.cluster.gpu(0).free_units(0), 2);
  EXPECT_EQ(run.runtime->counters().completed, 2u);
  EXPECT_EQ(run.runtime->counters().allocated_gpus, 0u);
}

TEST(ClusterRuntime, RefusedJobWaitsWithThePolicysReasonAndStartsWhenRoomIsFreed) {
  // The GPU has a free unit, but the policy admits one pod at a time.
  StubRun run(2, 1, {job_at(0, 10 * kSecond, 0), job_at(0, 4 * kSecond, 1)});
  run.sim.run(kSecond);
  EXPECT_EQ(run.job(0).state, JobState::Running);
  EXPECT_EQ(run.job(0).rate, 1.0);
  EXPECT_EQ(run.job(1).state, JobState::Pending);
  EXPECT_EQ(run.scheduler.pending().size(), 1u);
  EXPECT_EQ(run.runtime->explain_pending(run.job(1).spec),
            std::string("0/1 nodes are available: 1 ") + test::kStubRefusal + ".");
  run.sim.run();
  EXPECT_EQ(run.job(0).end, 10 * kSecond);
  EXPECT_EQ(run.job(1).start, 10 * kSecond);
  EXPECT_EQ(run.job(1).end, 14 * kSecond);
  EXPECT_TRUE(run.scheduler.pending().empty());
}

TEST(ClusterRuntime, GangProgressesAtItsSlowestPod) {
  // Both pods of the gang land on the one GPU: two residents at 1/2 each, so 10 s of work
  // take 20 s; a later single pod waits for the whole gang to leave.
  StubRun run(2, 2, {job_at(0, 10 * kSecond, 0, 2), job_at(kSecond, kSecond, 1)});
  run.sim.run(2 * kSecond);
  ASSERT_EQ(run.cluster.gpu(0).residents.size(), 2u);
  EXPECT_EQ(run.job(0).rate, 0.5);
  EXPECT_EQ(run.job(0).gpu_devices, 2u);
  EXPECT_EQ(run.job(1).state, JobState::Pending);
  EXPECT_EQ(run.runtime->explain_pending(run.job(1).spec), "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  run.sim.run();
  EXPECT_EQ(run.job(0).end, 20 * kSecond);
  EXPECT_EQ(run.job(1).start, 20 * kSecond);
  EXPECT_EQ(run.job(1).end, 21 * kSecond);
  EXPECT_EQ(run.runtime->counters().peak_allocated_gpus, 1u);
}

TEST(RuntimeCollectors, EventLogAndSamplerRecordTheRunWithoutChangingIt) {
  // The run of SharedGpuAppliesThePolicysRatesAndMovesCompletions, with the two collectors of
  // sim/metrics attached: the same end times, every job event in order, and a sample every 5 s.
  StubRun run(2, 2, {job_at(0, 10 * kSecond, 0), job_at(5 * kSecond, 10 * kSecond, 1)});
  EventLog log(*run.runtime);
  TimeseriesSampler sampler(run.sim, *run.runtime);
  sampler.start(5 * kSecond);
  run.sim.run();
  const SimTime end = run.runtime->last_job_event();
  run.runtime->finish(end);
  sampler.finish(end);
  EXPECT_EQ(run.job(0).end, 15 * kSecond);
  EXPECT_EQ(run.job(1).end, 20 * kSecond);
  const std::string node = run.cluster.node(0).name;
  EXPECT_EQ(log.text(), "time_s,event,job,detail\n"
                        "0,submit,job-0,\n0,start,job-0," + node + "\n"
                        "5,submit,job-1,\n5,start,job-1," + node + "\n"
                        "15,complete,job-0,\n20,complete,job-1,\n");
  std::vector<SimTime> times;
  std::vector<std::uint64_t> running, completed;
  for (const TimeseriesSample& s : sampler.samples()) {
    times.push_back(s.time);
    running.push_back(s.counters.running);
    completed.push_back(s.counters.completed);
  }
  EXPECT_EQ(times, (std::vector<SimTime>{0, 5 * kSecond, 10 * kSecond, 15 * kSecond, 20 * kSecond}));
  EXPECT_EQ(running, (std::vector<std::uint64_t>{1, 2, 2, 1, 0}));
  EXPECT_EQ(completed, (std::vector<std::uint64_t>{0, 0, 0, 1, 2}));
}

TEST(RuntimeCollectors, TheLastSampleIsTheStateAtTheEndAfterEveryEventThen) {
  // Three jobs arrive at 0 and a run stops at 0 (`until` 0 s): the sample the sampler took at 0
  // ran before the placements of that instant, so the last row is taken again at the end.
  StubRun run(3, 3, {job_at(0, 10 * kSecond, 0), job_at(0, 10 * kSecond, 1), job_at(0, 10 * kSecond, 2)});
  TimeseriesSampler sampler(run.sim, *run.runtime);
  sampler.start(kSecond);
  run.sim.run(0);
  run.runtime->finish(0);
  sampler.finish(0);
  ASSERT_EQ(sampler.samples().size(), 1u);
  EXPECT_EQ(sampler.samples().back().time, 0);
  EXPECT_EQ(sampler.samples().back().pending, run.scheduler.pending().size());
  EXPECT_EQ(sampler.samples().back().counters.running, 3u);
  EXPECT_EQ(sampler.samples().back().counters.running, run.runtime->counters().running);
}

}  // namespace
}  // namespace sharesim
