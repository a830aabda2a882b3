#include "sim/sched/placement/weighted_score_placement.h"

#include <algorithm>

#include "sim/sched/placement/score_plugin.h"

namespace sharesim {
namespace {

class WeightedScorePlacement final : public PlacementPolicy {
 public:
  WeightedScorePlacement(const std::vector<ScorePluginSpec>& specs, const Cluster& cluster,
                         const std::string& scenario_file)
      : cluster_(cluster) {
    for (const ScorePluginSpec& spec : specs) {
      plugins_.push_back({make_score_plugin(spec, cluster, scenario_file), spec.weight});
      name_ += (name_.empty() ? "" : "+") + spec.name;
    }
  }

  std::string_view name() const override { return name_; }

  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    feasible_.clear();
    for (const Node& node : cluster_.nodes()) {
      if (feasible(node.index)) feasible_.push_back(node.index);
    }
    for (Plugin& plugin : plugins_) plugin.plugin->begin(pod);
    std::optional<std::uint32_t> chosen;
    if (feasible_.size() == 1) {
      chosen = feasible_.front();  // kube-scheduler skips scoring a lone feasible node
    } else if (!feasible_.empty()) {
      totals_.assign(feasible_.size(), 0);
      for (Plugin& plugin : plugins_) {
        scores_.resize(feasible_.size());
        for (std::size_t i = 0; i < feasible_.size(); ++i)
          scores_[i] = plugin.plugin->score(cluster_.node(feasible_[i]), pod);
        plugin.plugin->normalize(scores_);
        for (std::size_t i = 0; i < feasible_.size(); ++i) totals_[i] += scores_[i] * plugin.weight;
      }
      // The highest total, the lowest node index among equals (nodes are visited in index order).
      std::size_t best = 0;
      for (std::size_t i = 1; i < feasible_.size(); ++i) {
        if (totals_[i] > totals_[best]) best = i;
      }
      chosen = feasible_[best];
    }
    for (Plugin& plugin : plugins_) plugin.plugin->end(pod, chosen);
    return chosen;
  }
  void node_changed(std::uint32_t) override {}
  void withdrawn(const PodShape& pod, std::uint32_t node) override {
    for (Plugin& plugin : plugins_) plugin.plugin->withdrawn(pod, node);
  }
  std::int64_t max_free_units(ResourceId resource) override {
    return max_free_units_of_any_node(cluster_, resource);
  }

 private:
  struct Plugin {
    std::unique_ptr<ScorePlugin> plugin;
    std::int64_t weight = 1;
  };
  const Cluster& cluster_;
  std::vector<Plugin> plugins_;
  std::string name_;
  std::vector<std::uint32_t> feasible_;
  std::vector<std::int64_t> scores_;
  std::vector<std::int64_t> totals_;
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_weighted_score_placement(const std::vector<ScorePluginSpec>& plugins,
                                                               const Cluster& cluster,
                                                               const std::string& scenario_file) {
  return std::make_unique<WeightedScorePlacement>(plugins, cluster, scenario_file);
}

}  // namespace sharesim
