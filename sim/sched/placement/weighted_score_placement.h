#pragma once
// Several score plugins with weights, as a KubeSchedulerConfiguration profile combines them
// (kube-scheduler's RunScorePlugins and selectHost, pkg/scheduler/schedule_one.go and
// framework/runtime/framework.go; https://kubernetes.io/docs/reference/scheduling/config/):
// every node that passes the filters is scored by each plugin, each plugin's scores are
// normalised to 0-100 over those nodes, multiplied by its weight, and summed; the node with the
// highest sum wins. kube-scheduler breaks ties at random; sharesim takes the lowest node index,
// so runs are reproducible. O(nodes x plugins) per placement.
#include <memory>
#include <string>
#include <vector>

#include "sim/sched/placement_policy.h"
#include "sim/sched/scheduler_spec.h"

namespace sharesim {

// Throws InputError (with `scenario_file`) for an unknown plugin name.
std::unique_ptr<PlacementPolicy> make_weighted_score_placement(const std::vector<ScorePluginSpec>& plugins,
                                                               const Cluster& cluster,
                                                               const std::string& scenario_file);

}  // namespace sharesim
