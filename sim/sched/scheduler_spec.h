#pragma once
// The scenario's scheduler section: queue order, placement or weighted score plugins, preemption.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sharesim {

// One resource of a resource-scoring plugin's `resources` list (kube-scheduler's ResourceSpec).
struct ScoreResourceSpec {
  std::string name;  // "cpu", "memory" or an extended resource ("nvidia.com/gpu")
  std::int64_t weight = 1;
};

// A point of RequestedToCapacityRatio's shape: utilization 0-100 -> score 0-10.
struct UtilizationShapePoint {
  std::int64_t utilization = 0;
  std::int64_t score = 0;
};

// One weighted score plugin (`scheduler.score_plugins[]`, docs/kubernetes.md "Weighted score
// plugins"): kube-scheduler's NodeResourcesFit and NodeResourcesBalancedAllocation, or one of
// the GPU-sharing scores (FGDScore, BestFitScore, ...).
struct ScorePluginSpec {
  std::string name;
  std::int64_t weight = 1;
  std::string strategy = "LeastAllocated";   // NodeResourcesFit's scoringStrategy.type
  std::vector<ScoreResourceSpec> resources;  // empty: cpu and memory, weight 1 each
  std::vector<UtilizationShapePoint> shape;  // RequestedToCapacityRatio only
  std::string pointer;                       // JSON pointer of this entry, for errors
};

// A PriorityClass (scheduling.k8s.io/v1): its value and whether its pods may preempt.
struct PriorityClassSpec {
  std::int32_t value = 0;
  bool preempts = true;  // preemptionPolicy PreemptLowerPriority (false: Never)
};

struct SchedulerSpec {
  std::string queue = "fifo";           // "fifo" | "priority"
  std::string placement = "first-fit";  // "first-fit" | "binpack" | "spread"
  // Weighted score plugins; when given they replace `placement`.
  std::vector<ScorePluginSpec> score_plugins;
  // kube-scheduler's DefaultPreemption (PostFilter): a pod that fits nowhere evicts lower-priority pods.
  bool preemption = false;
  std::map<std::string, PriorityClassSpec> priority_classes;  // by name
};

}  // namespace sharesim
