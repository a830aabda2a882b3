// The scheduler's loop and placement, driven by a stub policy (stub_sharing.h) and a recording
// executor in place of the runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/assert.h"
#include "sim/sched/scheduler.h"
#include "stub_sharing.h"

namespace sharesim {
namespace {

using test::make_stub_cluster;
using test::stub_shape;

// The runtime's side of the loop: starts what the scheduler asks it to by placing it, and
// records every call.
struct RecordingExecutor {
  explicit RecordingExecutor(Scheduler& s) : scheduler(s) {}
  Scheduler& scheduler;
  std::vector<JobSpec> specs;
  std::vector<PodPlacement> pods;
  std::vector<DeviceAllocation> devices;
  std::vector<std::uint32_t> first_pod;      // by job, into pods; set when started
  std::vector<std::uint32_t> start_calls;   // every job the scheduler tried to start
  std::vector<std::uint32_t> started;       // in start order
  int waiting_calls = 0;
  bool freed = false;

  const JobSpec& spec(std::uint32_t job) const { return specs[job]; }
  bool start(std::uint32_t job) {
    start_calls.push_back(job);
    first_pod.resize(specs.size());
    first_pod[job] = static_cast<std::uint32_t>(pods.size());
    if (!scheduler.try_place(job, specs[job], pods, devices)) return false;
    started.push_back(job);
    return true;
  }
  bool preempt(std::uint32_t) { return false; }
  bool take_freed() { return std::exchange(freed, false); }
  void jobs_waiting() { ++waiting_calls; }

  std::uint32_t add(std::uint32_t shape, std::int32_t priority = 0) {
    JobSpec spec;
    spec.shape = shape;
    spec.priority = priority;
    specs.push_back(spec);
    return static_cast<std::uint32_t>(specs.size() - 1);
  }
  void release(std::uint32_t job) {
    scheduler.release(job, specs[job], std::span<const PodPlacement>(pods.data() + first_pod[job], specs[job].pods),
                      devices);
  }
};

ShapeTable one_and_two_unit_shapes() {
  ShapeTable shapes;
  shapes.intern(stub_shape(1));
  shapes.intern(stub_shape(2));
  return shapes;
}

TEST(Scheduler, PlacesFirstFitAndBooksUnitsAndResidentsTogether) {
  Cluster cluster = make_stub_cluster(2, 1, 1, 4);
  const ShapeTable shapes = one_and_two_unit_shapes();
  Scheduler scheduler(cluster, shapes, SchedulerSpec{}, "stub.json");
  RecordingExecutor executor{scheduler};
  for (int i = 0; i < 3; ++i) scheduler.arrive(executor.add(0), executor);

  EXPECT_EQ(executor.started, (std::vector<std::uint32_t>{0, 1}));
  ASSERT_EQ(executor.pods.size(), 2u);
  EXPECT_EQ(executor.pods[0].node, 0u);
  EXPECT_EQ(executor.pods[1].node, 1u);
  // Units and residents were booked by one operation.
  ASSERT_EQ(cluster.gpu(0).residents.size(), 1u);
  EXPECT_EQ(cluster.gpu(0).residents[0].task, 0u);
  EXPECT_EQ(cluster.gpu(0).free_units(0), 0);
  EXPECT_EQ(cluster.node(0).cpu_allocated, 1000);
  ASSERT_EQ(cluster.gpu(1).residents.size(), 1u);
  EXPECT_EQ(cluster.gpu(1).residents[0].task, 1u);
  // The third waits, with kube-scheduler's reason; it was never tried (nothing was free).
  EXPECT_EQ(scheduler.pending().size(), 1u);
  EXPECT_EQ(executor.start_calls, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(executor.waiting_calls, 1);
  EXPECT_EQ(scheduler.explain_unschedulable(executor.specs[2]), "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");

  // Release gives back both, and the next pass starts the waiting job where room was made.
  executor.release(0);
  EXPECT_TRUE(cluster.gpu(0).residents.empty());
  EXPECT_EQ(cluster.gpu(0).free_units(0), 1);
  EXPECT_EQ(cluster.node(0).cpu_allocated, 0);
  scheduler.schedule_pending(executor);
  EXPECT_EQ(executor.started, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(executor.pods.back().node, 0u);
  ASSERT_EQ(cluster.gpu(0).residents.size(), 1u);
  EXPECT_EQ(cluster.gpu(0).residents[0].task, 2u);
  EXPECT_TRUE(scheduler.pending().empty());
}

TEST(Scheduler, PassSkipsTwinsOfAShapeThatFailedAndReportsThePolicysRefusal) {
  // One GPU with 4 units that admits one pod: units are free, but the policy refuses.
  Cluster cluster = make_stub_cluster(1, 1, 4, 1);
  const ShapeTable shapes = one_and_two_unit_shapes();
  Scheduler scheduler(cluster, shapes, SchedulerSpec{}, "stub.json");
  RecordingExecutor executor{scheduler};
  for (int i = 0; i < 4; ++i) scheduler.arrive(executor.add(0), executor);
  scheduler.arrive(executor.add(1), executor);
  EXPECT_EQ(executor.started, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(scheduler.pending().size(), 4u);
  EXPECT_EQ(scheduler.explain_unschedulable(executor.specs[1]),
            std::string("0/1 nodes are available: 1 ") + test::kStubRefusal + ".");

  executor.start_calls.clear();
  scheduler.schedule_pending(executor);
  // Job 1 fails; jobs 2 and 3 are its twins and are skipped; job 4 has its own shape.
  EXPECT_EQ(executor.start_calls, (std::vector<std::uint32_t>{1, 4}));
  EXPECT_EQ(scheduler.pending().size(), 4u);
}

TEST(Scheduler, PriorityQueueStartsByPriorityAndRequeuesBehindArrivals) {
  Cluster cluster = make_stub_cluster(1, 1, 1, 1);
  const ShapeTable shapes = one_and_two_unit_shapes();
  SchedulerSpec spec;
  spec.queue = "priority";
  Scheduler scheduler(cluster, shapes, spec, "stub.json");
  RecordingExecutor executor{scheduler};
  scheduler.arrive(executor.add(0, 0), executor);  // starts
  scheduler.arrive(executor.add(0, 0), executor);
  scheduler.arrive(executor.add(0, 5), executor);
  scheduler.arrive(executor.add(0, 5), executor);
  ASSERT_EQ(executor.started, (std::vector<std::uint32_t>{0}));

  const auto finish_and_pass = [&](std::uint32_t job) {
    executor.release(job);
    scheduler.schedule_pending(executor);
  };
  finish_and_pass(0);  // the higher priority goes first, in arrival order
  EXPECT_EQ(executor.started.back(), 2u);
  // Job 0 comes back after a restart: it queues behind job 1, which arrived before it came back.
  scheduler.requeue(0, executor);
  finish_and_pass(2);
  EXPECT_EQ(executor.started.back(), 3u);
  finish_and_pass(3);
  EXPECT_EQ(executor.started.back(), 1u);
  finish_and_pass(1);
  EXPECT_EQ(executor.started, (std::vector<std::uint32_t>{0, 2, 3, 1, 0}));
}

TEST(Scheduler, GangOfTwoOnOneGpuIsTwoResidentsAndReleasesWhole) {
  Cluster cluster = make_stub_cluster(1, 1, 2, 4);
  const ShapeTable shapes = one_and_two_unit_shapes();
  Scheduler scheduler(cluster, shapes, SchedulerSpec{}, "stub.json");
  RecordingExecutor executor{scheduler};
  const std::uint32_t gang = executor.add(0);
  executor.specs[gang].pods = 2;
  scheduler.arrive(gang, executor);
  ASSERT_EQ(executor.started, (std::vector<std::uint32_t>{0}));
  ASSERT_EQ(cluster.gpu(0).residents.size(), 2u);
  EXPECT_EQ(cluster.gpu(0).free_units(0), 0);
  EXPECT_EQ(cluster.node(0).cpu_allocated, 2000);
  // A gang that does not fit whole takes nothing.
  const std::uint32_t too_big = executor.add(0);
  executor.specs[too_big].pods = 2;
  executor.release(gang);
  EXPECT_TRUE(cluster.gpu(0).residents.empty());
  EXPECT_EQ(cluster.gpu(0).free_units(0), 2);
  const std::uint32_t blocker = executor.add(0);
  scheduler.arrive(blocker, executor);
  scheduler.arrive(too_big, executor);
  EXPECT_EQ(executor.started.back(), blocker);
  EXPECT_EQ(cluster.gpu(0).residents.size(), 1u);
  EXPECT_EQ(cluster.gpu(0).free_units(0), 1);
  EXPECT_EQ(cluster.node(0).cpu_allocated, 1000);
}

// One node per pool, labelled pool=<name> (and group=<group> when given); each GPU a StubSharing
// of `units` units that admits as many pods (a GPU of 1 unit is exclusive).
struct StubPool {
  std::string name;
  std::int64_t gpus = 1;
  std::int64_t units = 1;
  std::string group;
};
Cluster make_stub_pools(const std::vector<StubPool>& pools) {
  std::vector<NodePoolSpec> specs;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    NodePoolSpec spec;
    spec.name = pools[i].name;
    spec.nodes = 1;
    spec.gpu = "A100-80GB";
    spec.gpus_per_node = pools[i].gpus;
    spec.cpu_milli = 64'000;
    spec.memory_mib = 512 * 1024;
    spec.labels = {{"pool", pools[i].name}};
    if (!pools[i].group.empty()) spec.labels["group"] = pools[i].group;
    spec.topology = "pcie";
    spec.sharing = nlohmann::json{{"policy", "stub"}, {"units", pools[i].units}};
    spec.pointer = "/cluster/node_pools/" + std::to_string(i);
    specs.push_back(std::move(spec));
  }
  const SharingFactory factory = [](const NodePoolSpec& pool, const GpuModel&, ResourceNames& names) {
    const auto units = pool.sharing.at("units").get<std::int64_t>();
    return std::make_unique<test::StubSharing>(names.intern(kNvidiaGpu), units, static_cast<std::size_t>(units));
  };
  return Cluster(specs, GpuCatalog::builtin(), factory, "stub.json");
}

// A stub_shape whose node selector asks for the label key=value.
PodShape stub_shape_on(std::int64_t gpu_units, const std::string& key, const std::string& value) {
  PodShape shape = stub_shape(gpu_units);
  shape.node_selector = {{key, value}};
  return shape;
}

// fgd's target workload is the shapes of the pods that started (docs/placement.md): a gang that
// could not place all its pods leaves none of them behind, however often it is retried. x-0 (4
// GPUs), y-0 (2), z-0 (4, one held by l); the gang g (2 pods x 4 GPUs) never fits whole. Without
// g the workload at t is {1 GPU: 2} (l, t) and every node's fragmentation stays 0: t goes to x-0,
// the lowest index. A 4-GPU class left behind by g's first pod would make x-0 the worst node (t
// there leaves 3 GPUs no 4-GPU pod can use: +3000 milli of its fragment) and y-0 and z-0 the best
// (t there uses a GPU no 4-GPU pod could: -1000 each), so t went to y-0 (audit fgd1.json). Both
// fgd placement and the FGDScore plugin.
void expect_failed_gang_leaves_no_shape(const SchedulerSpec& spec) {
  for (const int retries : {0, 1, 3}) {
    SCOPED_TRACE("retries " + std::to_string(retries));
    Cluster cluster = make_stub_pools({{"x", 4, 1, ""}, {"y", 2, 1, ""}, {"z", 4, 1, ""}});
    ShapeTable shapes;
    const std::uint32_t on_z = shapes.intern(stub_shape_on(1, "pool", "z"));
    const std::uint32_t four = shapes.intern(stub_shape(4));
    const std::uint32_t one = shapes.intern(stub_shape(1));
    Scheduler scheduler(cluster, shapes, spec, "stub.json");
    RecordingExecutor executor{scheduler};
    const std::uint32_t l = executor.add(on_z);
    scheduler.arrive(l, executor);
    const std::uint32_t g = executor.add(four);
    executor.specs[g].pods = 2;
    scheduler.arrive(g, executor);
    for (int r = 0; r < retries; ++r) scheduler.schedule_pending(executor);
    ASSERT_EQ(std::count(executor.start_calls.begin(), executor.start_calls.end(), g), 1 + retries);
    const std::uint32_t t = executor.add(one);
    scheduler.arrive(t, executor);
    ASSERT_EQ(executor.started, (std::vector<std::uint32_t>{l, t}));
    EXPECT_EQ(cluster.node(executor.pods[executor.first_pod[l]].node).name, "z-0");
    EXPECT_EQ(cluster.node(executor.pods[executor.first_pod[t]].node).name, "x-0");
  }
}

TEST(Scheduler, FgdCountsNoPodOfAGangThatFailedToPlace) {
  SchedulerSpec spec;
  spec.placement = "fgd";
  expect_failed_gang_leaves_no_shape(spec);
}

TEST(Scheduler, FgdScorePluginCountsNoPodOfAGangThatFailedToPlace) {
  SchedulerSpec spec;
  ScorePluginSpec plugin;
  plugin.name = "FGDScore";
  spec.score_plugins.push_back(plugin);
  expect_failed_gang_leaves_no_shape(spec);
}

// Pool a (one GPU of `a_units` units, listed first: the first GPU offering the resource), then
// b0 and b1 (one GPU of 4 units each, group=b). r1 asks 2 units on b0, r2 1 unit on b1 (when
// asked for); then t asks 1 unit, on group b when `t_on_b`. Returns the node t went to.
std::string node_of_t(const SchedulerSpec& spec, std::int64_t a_units, bool with_r2, bool t_on_b) {
  Cluster cluster = make_stub_pools({{"a", 1, a_units, "a"}, {"b0", 1, 4, "b"}, {"b1", 1, 4, "b"}});
  ShapeTable shapes;
  const std::uint32_t on_b0 = shapes.intern(stub_shape_on(2, "pool", "b0"));
  const std::uint32_t on_b1 = shapes.intern(stub_shape_on(1, "pool", "b1"));
  const std::uint32_t one = shapes.intern(t_on_b ? stub_shape_on(1, "group", "b") : stub_shape(1));
  Scheduler scheduler(cluster, shapes, spec, "stub.json");
  RecordingExecutor executor{scheduler};
  scheduler.arrive(executor.add(on_b0), executor);
  if (with_r2) scheduler.arrive(executor.add(on_b1), executor);
  const std::uint32_t t = executor.add(one);
  scheduler.arrive(t, executor);
  EXPECT_EQ(executor.started.size(), with_r2 ? 3u : 2u);
  EXPECT_EQ(cluster.node(executor.pods[0].node).name, "b0-0");
  return cluster.node(executor.pods[executor.first_pod[t]].node).name;
}

// One score two ways: as scheduler.placement, and as the only weighted score plugin.
std::vector<SchedulerSpec> as_placement_and_as_plugin(const std::string& placement, const std::string& plugin) {
  SchedulerSpec as_placement;
  as_placement.placement = placement;
  SchedulerSpec as_plugin;
  ScorePluginSpec score;
  score.name = plugin;
  as_plugin.score_plugins.push_back(score);
  return {as_placement, as_plugin};
}

// gpu-clustering classes a resident by its own GPU's units (docs/placement.md): r1 asks 2 of
// b0-0's 4 units, a sharing pod as t is, whatever the GPUs of pool a have. t: a-0 is idle (25 +
// 21); b0-0 and b1-0 run only t's class (75), topped up by 25 x (8000 - free milli) / 8000:
// b0-0 has 500 free milli (23), b1-0 750 (22), so t goes to b0-0 (98 against 97). Classed by the
// first GPU's 2 units, r1 was a whole-GPU pod, b0-0 ran other classes only (0 + 23) and t went to
// b1-0 (audit gc.json; with a of 4 units, gc4.json, b0-0).
TEST(Scheduler, GpuClusteringClassesAResidentByItsOwnGpusUnits) {
  for (const SchedulerSpec& spec : as_placement_and_as_plugin("gpu-clustering", "GpuClusteringScore")) {
    for (const std::int64_t a_units : {2, 4}) {
      SCOPED_TRACE(spec.score_plugins.empty() ? "placement" : "plugin");
      EXPECT_EQ(node_of_t(spec, a_units, true, false), "b0-0") << "pool a of " << a_units << " units";
    }
  }
}

// fgd's classes are a pod's shape relative to a GPU: a placed pod's on the node it went to, the
// pod being placed on each node scored (docs/placement.md). Workload at t {r1: 500 milli, t: 250
// milli}, one each. t on b0-0 (500 free -> 250): r1's class no longer fits, fragment 0 -> 250:
// delta -125, score 46; on b1-0 (1000 -> 750) nothing changes: 50. t goes to b1-0. Classed by
// pool a's 2 units, r1 was a whole GPU and t 500 milli: b0-0 500 -> 500 (50), b1-0 0 -> 750
// (delta -375: 40), and t went to b0-0.
TEST(Scheduler, FgdClassesAPodByTheGpusOfItsNode) {
  for (const SchedulerSpec& spec : as_placement_and_as_plugin("fgd", "FGDScore")) {
    for (const std::int64_t a_units : {2, 4}) {
      SCOPED_TRACE(spec.score_plugins.empty() ? "placement" : "plugin");
      EXPECT_EQ(node_of_t(spec, a_units, false, true), "b1-0") << "pool a of " << a_units << " units";
    }
  }
}

// Placement scans a node's GPUs and a job's start and end each read a GPU of thousands: the
// fields placement reads first share one cache line (docs/ci.md, issue 16: simulated cache
// misses on 100,000 GPUs). A reordering that spreads them out fails here rather than only in a
// benchmark.
TEST(GpuLayout, WhatPlacementReadsFirstFillsOneCacheLine) {
  static_assert(alignof(Gpu) == 64);
  const Gpu gpu;
  const auto* start = reinterpret_cast<const char*>(&gpu);
  const auto end_of = [start](const auto& field) { return reinterpret_cast<const char*>(&field + 1) - start; };
  EXPECT_LE(end_of(gpu.sharing), 64);
  EXPECT_LE(end_of(gpu.resource_count), 64);
  EXPECT_LE(end_of(gpu.draining), 64);
  EXPECT_LE(end_of(gpu.index), 64);
  EXPECT_LE(end_of(gpu.resources[0]), 64);
}

// A job's end looks for its task among the GPU's residents, and its start adds one: the count
// and a lone resident's task lie in one cache line of the GPU record itself (ResidentList), so
// their address is known without reading the record first (docs/ci.md, "2026-11-27, fourth stop").
TEST(GpuLayout, ALoneResidentIsHeldInTheGpuRecordBesideTheCount) {
  Gpu gpu;
  gpu.residents.push_back(Resident{7, 0, 1.0, {}, {}});
  const auto line_of = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) / 64; };
  const auto* record = reinterpret_cast<const char*>(&gpu);
  EXPECT_GE(reinterpret_cast<const char*>(gpu.residents.data()), record);
  EXPECT_LT(reinterpret_cast<const char*>(gpu.residents.data()), record + sizeof(Gpu));
  EXPECT_EQ(line_of(&gpu.residents[0].task), line_of(&gpu.residents));
  EXPECT_EQ(line_of(&gpu.residents[0].task), line_of(&gpu.node));  // release_units reads node
}

// A job's end writes its node's units of a resource: they are the node's row of one
// cluster-wide table, whose address follows from the node's index alone
// (Cluster::prefetch_node_counts), not from a pointer in the node record. Rows lie one after
// another, survive the Cluster's move, and booking a GPU's units writes its node's row only.
TEST(NodeCounts, AreRowsOfOneTableFoundFromTheNodeIndex) {
  Cluster built = make_stub_cluster(3, 2, 4, 4);
  const std::int64_t* const row_before_move = built.node(1).resource_allocated.data();
  Cluster cluster = std::move(built);  // the tables' storage moves with them; the views stay valid
  EXPECT_EQ(cluster.node(1).resource_allocated.data(), row_before_move);
  const ResourceId gpu = 0;
  const std::size_t row = cluster.resource_names().size();
  ASSERT_EQ(cluster.node(0).resource_allocated.size(), row);
  for (std::uint32_t n = 1; n < 3; ++n) {
    EXPECT_EQ(cluster.node(n).resource_allocated.data(), cluster.node(0).resource_allocated.data() + n * row);
    EXPECT_EQ(cluster.node(n).resource_capacity.data(), cluster.node(0).resource_capacity.data() + n * row);
  }
  EXPECT_EQ(cluster.node(1).resource_capacity[gpu], 8);  // two GPUs of 4 units
  cluster.allocate_units(3, gpu, 3);                     // the second GPU of node 1
  EXPECT_EQ(cluster.node(1).resource_allocated[gpu], 3);
  EXPECT_EQ(cluster.node(1).free_resource(gpu), 5);
  EXPECT_EQ(cluster.node(0).resource_allocated[gpu], 0);
  EXPECT_EQ(cluster.node(2).resource_allocated[gpu], 0);
  cluster.release_units(3, gpu, 3);
  EXPECT_EQ(cluster.node(1).resource_allocated[gpu], 0);
  cluster.withdraw_resources(2);  // node 1's first GPU, empty
  EXPECT_EQ(cluster.node(1).resource_capacity[gpu], 4);
  cluster.advertise_resources(2);
  EXPECT_EQ(cluster.node(1).resource_capacity[gpu], 8);
  EXPECT_EQ(cluster.node(0).resource_capacity[gpu], 8);
}

TEST(ResidentList, KeepsTheJoinOrderAcrossTheMoveToTheHeapAndBack) {
  ResidentList list;
  const auto tasks = [&list] {
    std::vector<std::uint32_t> out;
    for (const Resident& r : list) out.push_back(r.task);
    return out;
  };
  for (std::uint32_t t = 1; t <= 4; ++t) list.push_back(Resident{t, 0, 0.0, {}, {}});
  EXPECT_EQ(tasks(), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(list.erase_if([](const Resident& r) { return r.task == 2 || r.task == 4; }), 2u);
  EXPECT_EQ(tasks(), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(list.erase_if([](const Resident& r) { return r.task == 1; }), 1u);
  EXPECT_EQ(tasks(), (std::vector<std::uint32_t>{3}));
  const auto* in_place = reinterpret_cast<const char*>(list.data());
  EXPECT_TRUE(in_place >= reinterpret_cast<const char*>(&list) && in_place < reinterpret_cast<const char*>(&list + 1));
  list.push_back(Resident{5, 0, 0.0, {}, {}});
  const ResidentList copy = list;  // a copy owns its residents (RunningPodsTrial keeps copies)
  list.clear();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.erase_if([](const Resident&) { return true; }), 0u);
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy[0].task, 3u);
  EXPECT_EQ(copy.back().task, 5u);
  EXPECT_EQ(std::span<const Resident>(copy).size(), 2u);
}

#if SHARESIM_ASSERTS_ENABLED
TEST(SchedulerDeathTest, ReleasingUnitsNeverAllocatedIsAnInvariantFailure) {
  Cluster cluster = make_stub_cluster(1, 1, 2, 4);
  EXPECT_DEATH(cluster.release_units(0, 0, 1), "released more units than were allocated");
}
#endif

}  // namespace
}  // namespace sharesim
