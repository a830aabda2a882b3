#pragma once
// A score plugin of the weighted combination (weighted_score_placement.h), as kube-scheduler's
// framework runs one: Score on each feasible node, then NormalizeScore over them to
// [0, MaxNodeScore = 100] (pkg/scheduler/framework/interface.go, ScorePlugin and ScoreExtensions).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "sim/cluster/cluster.h"
#include "sim/sched/scheduler_spec.h"
#include "sim/sched/job.h"

namespace sharesim {

class ScorePlugin {
 public:
  virtual ~ScorePlugin() = default;
  // Called once per pod before its nodes are scored, and after, with the node it was placed on
  // (none when it found no node); withdrawn() when a pod end() saw placed did not start after
  // all (its gang failed: PlacementPolicy::withdrawn).
  virtual void begin(const PodShape&) {}
  virtual void end(const PodShape&, std::optional<std::uint32_t> /*node*/) {}
  virtual void withdrawn(const PodShape&, std::uint32_t /*node*/) {}
  // The plugin's score of one feasible node.
  virtual std::int64_t score(const Node& node, const PodShape& pod) = 0;
  // NormalizeScore over the feasible nodes' scores, in place; most plugins need none.
  virtual void normalize(std::span<std::int64_t> /*scores*/) const {}
};

// The plugin a `score_plugins` entry names (the schema lists the names; the loader checked
// the keys that go with each). Throws InputError for an unknown name.
std::unique_ptr<ScorePlugin> make_score_plugin(const ScorePluginSpec& spec, const Cluster& cluster,
                                               const std::string& scenario_file);

}  // namespace sharesim
