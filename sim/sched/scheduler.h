#pragma once
// kube-scheduler-style placement: a pending queue, filter plugins (node selector on the GPU
// product, resource fit for cpu, memory and each extended resource, the device plugin's
// admission on the node's GPUs) and one score plugin (PlacementPolicy). Multi-GPU pods go
// all-or-nothing on one node, on the best-connected free GPUs; multi-pod jobs are gangs:
// all pods are placed at once or none is.
//
// The scheduler runs the whole scheduling loop: a job that arrives (or comes back after its
// restart backoff) starts at once when it fits, or by preemption, else waits in the pending
// queue; a pass over the queue (after something freed resources) tries the waiting jobs in
// queue order and skips a shape that already failed in the pass. Starting a job is the
// executor's (the runtime's): see submit().
#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/cluster/pod_placement.h"
#include "sim/sched/job.h"
#include "sim/sched/pending_queue.h"
#include "sim/sched/placement_policy.h"
#include "sim/sched/scheduler_spec.h"

namespace sharesim {

// Why a job of `pods` pods of this shape could never run, even on the empty cluster: no node
// passes the selector and resource filters for one pod, or all nodes together cannot hold
// the whole gang at once. "" when it could run. A GPU whose sharing policy refuses the pod
// even when the GPU is empty (GpuSharing::admit with no residents and every unit free, and
// admit_on_node on an empty node) holds none of it; the text then gives the policy's reason,
// or names the resources the GPUs advertise when none offers the pod's. A GPU that dynamic
// repartitioning could lay out to offer the resource counts as able to hold it.
// `no_node_takes`, when given, is set to whether the problem is that no node takes such a pod at
// all (its node selector, its taints, or a GPU resource none of its nodes advertises, as under
// a MIG layout no pod asks for): the cluster's configuration, not its size or the pod's.
std::string capacity_problem(const Cluster& cluster, const PodShape& shape, std::uint32_t pods,
                             bool* no_node_takes = nullptr);

class Scheduler {
 public:
  // Throws InputError (with `scenario_file`) for an unknown queue or placement name.
  Scheduler(Cluster& cluster, const ShapeTable& shapes, const SchedulerSpec& spec, const std::string& scenario_file);

  PendingQueue& pending() { return pending_; }
  const PendingQueue& pending() const { return pending_; }
  const PlacementPolicy& placement() const { return *placement_; }
  // scheduler.preemption: pods that fit nowhere may evict lower-priority ones (sim/sched/preemption.h).
  bool preemption_enabled() const { return preemption_; }

  // The scheduling loop. `Executor` is the runtime's side, a template parameter so that a pass
  // makes no indirect call per waiting job; it provides
  //   const JobSpec& spec(std::uint32_t job) const;
  //   bool start(std::uint32_t job);    // try_place() it and run it; false when it does not fit
  //   bool preempt(std::uint32_t job);  // evict lower-priority pods and start it in their place
  //   bool take_freed();                // whether kills freed resources since the last call
  //   void jobs_waiting();              // jobs wait after a submission or a pass (repartitioning)
  // A newcomer: starts it if it fits (or by preemption), else queues it in arrival order.
  template <typename Executor>
  void arrive(std::uint32_t job, Executor& executor) {
    submit(job, arrivals_++, executor);
  }
  // A job back from its restart backoff: as an arrival, but it queues behind every job that has
  // arrived so far (a recreated pod's creation time is now).
  template <typename Executor>
  void requeue(std::uint32_t job, Executor& executor) {
    submit(job, arrivals_, executor);
  }
  // Tries the waiting jobs in queue order, again while the jobs it started freed resources
  // (a start may kill others: OOM on a GPU without memory isolation).
  template <typename Executor>
  void schedule_pending(Executor& executor);

  // Places every pod of job `task` or none. On success the cluster holds the placement (units
  // and residents, Cluster::place), `pods` gets one entry per pod and `devices` the GPUs each
  // pod holds (appended). With `nominated_node`, only that node is offered to the placement
  // plugin (a preemptor goes where it made room).
  bool try_place(std::uint32_t task, const JobSpec& job, std::vector<PodPlacement>& pods,
                 std::vector<DeviceAllocation>& devices, std::optional<std::uint32_t> nominated_node = std::nullopt);
  // Gives back what try_place took for the job (Cluster::release).
  void release(std::uint32_t task, const JobSpec& job, std::span<const PodPlacement> pods,
               const std::vector<DeviceAllocation>& devices);

  // Whether a waiting job may try to evict others: preemption is on, its class may preempt,
  // it is a single pod, and some job of lower priority has been placed. Costs nothing otherwise.
  bool may_preempt(const JobSpec& spec) const {
    return preemption_ && spec.preempts && spec.pods == 1 && spec.priority > lowest_placed_priority_;
  }

  // For the preemption dry run. Whether a pod of this shape passes every filter on the node as
  // it stands, device admission included (allocates nothing).
  bool fits_on_node(const PodShape& shape, std::uint32_t node) const;
  // Why it does not: each failing filter's reason, else the device plugin's refusal.
  void unschedulable_reasons(const PodShape& shape, const Node& node, std::vector<std::string>& reasons) const;
  // Whether evicting pods could help on this node: it passes NodeAffinity and TaintToleration,
  // whose failures kube-scheduler marks UnschedulableAndUnresolvable.
  bool preemption_might_help(const PodShape& shape, const Node& node) const;

  // Why a job cannot be placed now, as Kubernetes words it:
  // "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."
  std::string explain_unschedulable(const JobSpec& job) const;

  // A cheap necessary condition: false when no node has enough free GPU units for one pod.
  bool might_fit(const JobSpec& job);

  // Whether the node could ever host a pod of this shape, GPUs aside: it matches the pod's
  // node selector and has the cpu and memory when empty.
  bool node_may_host(const PodShape& shape, const Node& node) const;
  // The node's resources changed outside a placement (a GPU repartitioned).
  void node_changed(std::uint32_t node) { placement_->node_changed(node); }

 private:
  // Filter plugins on one node for one pod: appends each failing filter's reason (none when
  // it passes). passes_filters() is the same test without building text.
  void filter_reasons(const PodShape& shape, const Node& node, std::vector<std::string>& reasons) const;
  bool passes_filters(const PodShape& shape, const Node& node) const;
  // Chooses GPUs on the node for the pod; appends allocations; false when impossible.
  bool assign_devices(const PodShape& shape, const Node& node, std::vector<DeviceAllocation>& out,
                      std::string* refusal) const;
  bool place_pod(const PodShape& shape, int preferred_rack, std::optional<std::uint32_t> nominated_node,
                 std::vector<PodPlacement>& pods, std::vector<DeviceAllocation>& devices);

  template <typename Executor>
  void submit(std::uint32_t job, std::uint64_t sequence, Executor& executor);

  Cluster& cluster_;
  const ShapeTable& shapes_;
  std::unique_ptr<PlacementPolicy> placement_;
  PendingQueue pending_;
  bool preemption_ = false;
  std::uint64_t arrivals_ = 0;                       // jobs arrived so far: the queue's arrival order
  std::int32_t lowest_placed_priority_ = INT32_MAX;  // kept only with preemption on
  // Within one pass, a job shape that failed once fails again: its twins are skipped. A job
  // that may preempt is a twin only of jobs of its priority (a higher one may find victims).
  struct FailedShape {
    std::uint32_t shape = 0;
    std::uint32_t pods = 0;
    std::int32_t priority = 0;  // 0 unless the job may preempt
    bool preempting = false;
    bool operator==(const FailedShape&) const = default;
  };
  std::vector<FailedShape> failed_shapes_scratch_;
};

template <typename Executor>
void Scheduler::submit(std::uint32_t job, std::uint64_t sequence, Executor& executor) {
  const JobSpec& spec = executor.spec(job);
  const bool started = (might_fit(spec) && executor.start(job)) || (may_preempt(spec) && executor.preempt(job));
  if (!started) {
    pending_.push(job, spec.priority, sequence);
    executor.jobs_waiting();
  }
  if (executor.take_freed()) schedule_pending(executor);
}

template <typename Executor>
void Scheduler::schedule_pending(Executor& executor) {
  do {
    executor.take_freed();  // a pass starts from what is free now
    if (pending_.empty()) return;
    failed_shapes_scratch_.clear();
    pending_.drain([&](std::uint32_t job) {
      const JobSpec& spec = executor.spec(job);
      const bool preempting = may_preempt(spec);
      const bool fits_maybe = might_fit(spec);
      if (!fits_maybe && !preempting) return false;
      const FailedShape key{spec.shape, spec.pods, preempting ? spec.priority : 0, preempting};
      if (std::find(failed_shapes_scratch_.begin(), failed_shapes_scratch_.end(), key) != failed_shapes_scratch_.end()) {
        return false;
      }
      if (fits_maybe && executor.start(job)) return true;
      if (preempting && executor.preempt(job)) return true;
      failed_shapes_scratch_.push_back(key);
      return false;
    });
  } while (executor.take_freed());
  executor.jobs_waiting();
}

}  // namespace sharesim
