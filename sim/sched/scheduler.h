#pragma once
// kube-scheduler-style placement: a pending queue, filter plugins (node selector on the GPU
// product, resource fit for cpu, memory and each extended resource, the device plugin's
// admission on the node's GPUs) and one score plugin (PlacementPolicy). Multi-GPU pods go
// all-or-nothing on one node, on the best-connected free GPUs; multi-pod jobs are gangs:
// all pods are placed at once or none is.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/sched/job.h"
#include "sim/sched/pending_queue.h"
#include "sim/sched/placement_policy.h"
#include "sim/sched/scheduler_spec.h"

namespace sharesim {

struct DeviceAllocation {
  std::uint32_t gpu = 0;
  std::int64_t units = 0;
};

struct PodPlacement {
  std::uint32_t node = 0;
  std::uint32_t first_device = 0;  // range in the allocation list the caller passed
  std::uint32_t device_count = 0;
};

// Why a job of `pods` pods of this shape could never run, even on the empty cluster: no node
// passes the selector and resource filters for one pod, or all nodes together cannot hold
// the whole gang at once. "" when it could run. (Device-plugin admission rules of sharing
// policies are not considered: they depend on who else is on a GPU.)
std::string capacity_problem(const Cluster& cluster, const PodShape& shape, std::uint32_t pods);

class Scheduler {
 public:
  // Throws InputError (with `scenario_file`) for an unknown queue or placement name.
  Scheduler(Cluster& cluster, const ShapeTable& shapes, const SchedulerSpec& spec, const std::string& scenario_file);

  PendingQueue& pending() { return pending_; }
  const PendingQueue& pending() const { return pending_; }
  const PlacementPolicy& placement() const { return *placement_; }
  // scheduler.preemption: pods that fit nowhere may evict lower-priority ones (sim/sched/preemption.h).
  bool preemption_enabled() const { return preemption_; }

  // Places every pod of `job` or none. On success the cluster is allocated, `pods` gets one
  // entry per pod and `devices` the GPUs each pod holds (appended). With `nominated_node`, only
  // that node is offered to the placement plugin (a preemptor goes where it made room).
  bool try_place(const JobSpec& job, std::vector<PodPlacement>& pods, std::vector<DeviceAllocation>& devices,
                 std::optional<std::uint32_t> nominated_node = std::nullopt);
  // Gives back what try_place took for one pod.
  void release_pod(const JobSpec& job, const PodPlacement& pod, const std::vector<DeviceAllocation>& devices);

  // For the preemption dry run. Whether a pod of this shape passes every filter on the node as
  // it stands, device admission included (allocates nothing).
  bool fits_on_node(const PodShape& shape, std::uint32_t node) const;
  // Why it does not: each failing filter's reason, else the device plugin's refusal.
  void unschedulable_reasons(const PodShape& shape, const Node& node, std::vector<std::string>& reasons) const;
  // Whether evicting pods could help on this node: it passes NodeAffinity and TaintToleration,
  // whose failures kube-scheduler marks UnschedulableAndUnresolvable.
  bool preemption_might_help(const PodShape& shape, const Node& node) const;
  // Takes a running pod's resources off its node, or puts them back, without telling the
  // placement plugin: the dry run restores exactly what it took.
  void unaccount_pod(const PodShape& shape, const PodPlacement& pod, const std::vector<DeviceAllocation>& devices);
  void account_pod(const PodShape& shape, const PodPlacement& pod, const std::vector<DeviceAllocation>& devices);

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

  Cluster& cluster_;
  const ShapeTable& shapes_;
  std::unique_ptr<PlacementPolicy> placement_;
  PendingQueue pending_;
  bool preemption_ = false;
};

}  // namespace sharesim
