#pragma once
// Priority preemption as kube-scheduler's DefaultPreemption PostFilter plugin does it
// (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go; KEP "Pod Priority and Preemption",
// https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/):
//
// 1. On each node where preemption might help, take off every pod of lower priority than the
//    pending pod and check that the pod fits (SelectVictimsOnNode). Then give pods back, the
//    most important first (higher priority, then the earlier start), keeping each one as long
//    as the pod still fits; the ones that cannot stay are the node's victims.
// 2. Among the nodes where that works, pick one (pickOneNodeForPreemption): the fewest
//    PodDisruptionBudget violations (sharesim has no PDBs: all nodes tie), then the lowest
//    highest-victim priority, the smallest sum of victim priorities, the fewest victims, the
//    latest start of the highest-priority victims, then the first node.
//
// This file is the algorithm only: what "take off", "give back" and "fits" mean on a node is
// the caller's (NodeTrial), so it can be tested without a cluster.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/core/sim_time.h"

namespace sharesim {

// Texts of kube-scheduler (default_preemption.go, preemption.go) for the pending reason.
inline constexpr const char* kNoPreemptionVictims = "No preemption victims found for incoming pod";
inline constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
inline constexpr const char* kPreemptionPolicyNever = "not eligible due to preemptionPolicy=Never.";

// A running job's pods on one node, as a possible victim.
struct PreemptionVictim {
  std::uint32_t job = 0;
  std::int32_t priority = 0;
  SimTime start = 0;  // start of its current run (kube-scheduler's pod.Status.StartTime)
};

// kube-scheduler's MoreImportantPod: higher priority, then the earlier start. Equal pods are
// ordered by job index, so the order is total and runs are deterministic.
bool more_important(const PreemptionVictim& a, const PreemptionVictim& b);

// One node's state during the dry run of preemption.
class NodeTrial {
 public:
  virtual ~NodeTrial() = default;
  virtual void take_off(const PreemptionVictim& victim) = 0;
  virtual void give_back(const PreemptionVictim& victim) = 0;
  // Whether the pending pod passes the filters on the node as it stands now.
  virtual bool pod_fits() = 0;
};

enum class VictimSearch {
  kNoVictims,   // no pod of lower priority on the node
  kDoesNotFit,  // the pod does not fit even with all of them taken off (they stay off)
  kFits,        // the pod fits once the victims are taken off (the others are given back)
};

struct VictimSelection {
  VictimSearch result = VictimSearch::kNoVictims;
  std::vector<PreemptionVictim> victims;  // most important first
};

// SelectVictimsOnNode. `on_node` is every running job on the node; those of lower priority
// than `priority` are the potential victims. Leaves the trial as the result says.
VictimSelection select_victims_on_node(std::int32_t priority, std::span<const PreemptionVictim> on_node,
                                       NodeTrial& trial);

struct PreemptionCandidate {
  std::uint32_t node = 0;
  std::vector<PreemptionVictim> victims;  // most important first, at least one
};

// pickOneNodeForPreemption: the index of the chosen candidate (candidates must not be empty).
std::size_t pick_one_node_for_preemption(std::span<const PreemptionCandidate> candidates);

}  // namespace sharesim
