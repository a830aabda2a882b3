#pragma once
// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1;
// https://kubernetes.io/docs/reference/scheduling/config/) as the scenario's scheduler section:
// the first profile's score plugins with their weights and the NodeResourcesFit /
// NodeResourcesBalancedAllocation args of its pluginConfig become `score_plugins`, and
// DefaultPreemption disabled under postFilter turns `preemption` off (docs/kubernetes.md).
#include <nlohmann/json.hpp>
#include <string>

namespace sharesim {

struct ImportedSchedulerConfig {
  // scheduler.score_plugins entries; empty when the profile scores with nothing sharesim models.
  nlohmann::ordered_json score_plugins = nlohmann::ordered_json::array();
  bool preemption = true;  // DefaultPreemption is on unless the profile disables it
};

// Throws InputError naming the file, the document and the path inside it: an unknown plugin
// name, a bad weight, strategy, resource or shape, a file that is not a
// KubeSchedulerConfiguration.
ImportedSchedulerConfig import_scheduler_config(const std::string& path);

}  // namespace sharesim
