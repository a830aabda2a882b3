#include "sim/sched/placement/first_fit.h"

#include "sim/sched/free_units_index.h"
#include "sim/sched/placement/per_resource_index.h"

namespace sharesim {
namespace {

class FirstFit final : public PlacementPolicy {
 public:
  explicit FirstFit(const Cluster& cluster) : indexes_(cluster) {}
  std::string_view name() const override { return "first-fit"; }
  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    const FreeUnitsIndex& index = indexes_.get(pod.gpu_resource);
    for (std::size_t node = index.first_at_least(pod.gpu_units, 0); node != SIZE_MAX;
         node = index.first_at_least(pod.gpu_units, node + 1)) {
      if (feasible(static_cast<std::uint32_t>(node))) return static_cast<std::uint32_t>(node);
    }
    return std::nullopt;
  }
  void node_changed(std::uint32_t node) override { indexes_.node_changed(node); }
  std::int64_t max_free_units(ResourceId resource) override { return indexes_.get(resource).max_free(); }

 private:
  PerResource<FreeUnitsIndex> indexes_;
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_first_fit(const Cluster& cluster) { return std::make_unique<FirstFit>(cluster); }

}  // namespace sharesim
