#include "sim/sched/placement/ordered_by_free_units.h"

#include <set>
#include <utility>

#include "sim/sched/placement/per_resource_index.h"

namespace sharesim {
namespace {

// Nodes ordered by (key(free units), node index); key is +free for binpack, -free for spread.
class OrderedByFree {
 public:
  OrderedByFree(std::size_t node_count, bool most_free_first)
      : free_(node_count, 0), most_free_first_(most_free_first) {
    for (std::size_t n = 0; n < node_count; ++n) order_.emplace(key(0), n);
  }
  void set(std::size_t node, std::int64_t free_units) {
    order_.erase({key(free_[node]), node});
    free_[node] = free_units;
    order_.emplace(key(free_units), node);
  }
  std::int64_t key(std::int64_t free_units) const { return most_free_first_ ? -free_units : free_units; }
  const std::set<std::pair<std::int64_t, std::size_t>>& order() const { return order_; }

 private:
  std::vector<std::int64_t> free_;
  std::set<std::pair<std::int64_t, std::size_t>> order_;
  bool most_free_first_;
};

template <bool MostFreeFirst>
class OrderedPlacement final : public PlacementPolicy {
 public:
  struct Index : OrderedByFree {
    explicit Index(std::size_t n) : OrderedByFree(n, MostFreeFirst) {}
  };
  explicit OrderedPlacement(const Cluster& cluster) : indexes_(cluster) {}
  std::string_view name() const override { return MostFreeFirst ? "spread" : "binpack"; }
  std::optional<std::uint32_t> choose(const PodShape& pod,
                                      const std::function<bool(std::uint32_t)>& feasible) override {
    const Index& index = indexes_.get(pod.gpu_resource);
    const auto& order = index.order();
    // Binpack starts at the fewest free units that still fit; spread starts at the most and
    // stops once nodes have too few.
    auto it = MostFreeFirst ? order.begin() : order.lower_bound({pod.gpu_units, 0});
    for (; it != order.end(); ++it) {
      const std::int64_t free_units = MostFreeFirst ? -it->first : it->first;
      if (free_units < pod.gpu_units) break;
      if (feasible(static_cast<std::uint32_t>(it->second))) return static_cast<std::uint32_t>(it->second);
    }
    return std::nullopt;
  }
  void node_changed(std::uint32_t node) override { indexes_.node_changed(node); }
  std::int64_t max_free_units(ResourceId resource) override {
    const auto& order = indexes_.get(resource).order();
    if (order.empty()) return 0;
    return MostFreeFirst ? -order.begin()->first : order.rbegin()->first;
  }

 private:
  PerResource<Index> indexes_;
};

}  // namespace

std::unique_ptr<PlacementPolicy> make_binpack(const Cluster& cluster) {
  return std::make_unique<OrderedPlacement<false>>(cluster);
}
std::unique_ptr<PlacementPolicy> make_spread(const Cluster& cluster) {
  return std::make_unique<OrderedPlacement<true>>(cluster);
}

}  // namespace sharesim
