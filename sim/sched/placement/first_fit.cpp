#include "sim/sched/placement/first_fit.h"

#include <optional>

#include "sim/sched/free_units_index.h"
#include "sim/sched/placement/per_resource_index.h"

namespace sharesim {
namespace {

class FirstFit final : public PlacementPolicy {
 public:
  explicit FirstFit(const Cluster& cluster)
      : indexes_(cluster), use_usable_(PerResource<FreeUnitsIndex>::any_usable_rule(cluster)) {
    if (use_usable_) usable_.emplace(cluster, PerResource<FreeUnitsIndex>::Value::Usable);
  }
  std::string_view name() const override { return "first-fit"; }
  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    if (!use_usable_) {
      const FreeUnitsIndex& index = indexes_.get(pod.gpu_resource);
      for (std::size_t node = index.first_at_least(pod.gpu_units, 0); node != SIZE_MAX;
           node = index.first_at_least(pod.gpu_units, node + 1)) {
        if (feasible(static_cast<std::uint32_t>(node))) return static_cast<std::uint32_t>(node);
      }
      return std::nullopt;
    }
    // The same nodes in the same order, less those whose GPUs admit no pod at all. A refused
    // node may have had residents join since its entry was set (they join after placement):
    // its entry is brought up to date, so that the next placement skips it.
    const FreeUnitsIndex& index = usable_->get(pod.gpu_resource);
    for (std::size_t node = index.first_at_least(pod.gpu_units, 0); node != SIZE_MAX;
         node = index.first_at_least(pod.gpu_units, node + 1)) {
      if (feasible(static_cast<std::uint32_t>(node))) return static_cast<std::uint32_t>(node);
      usable_->refresh(static_cast<std::uint32_t>(node), pod.gpu_resource);
    }
    return std::nullopt;
  }
  void node_changed(std::uint32_t node) override {
    indexes_.node_changed(node);
    if (use_usable_) usable_->node_changed(node);
  }
  // Free units, not usable ones: the scheduler's quick "nothing can fit" test keeps its meaning.
  std::int64_t max_free_units(ResourceId resource) override { return indexes_.get(resource).max_free(); }

 private:
  PerResource<FreeUnitsIndex> indexes_;                 // free units
  bool use_usable_;                                     // some GPU has a usable-units rule
  std::optional<PerResource<FreeUnitsIndex>> usable_;  // usable units, when use_usable_
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_first_fit(const Cluster& cluster) { return std::make_unique<FirstFit>(cluster); }

}  // namespace sharesim
