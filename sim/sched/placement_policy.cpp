#include "sim/sched/placement_policy.h"

#include <set>
#include <utility>

#include "sim/sched/free_units_index.h"

namespace sharesim {
namespace {

// One lazily built index per GPU resource name that pods actually request.
template <typename Index>
class PerResource {
 public:
  explicit PerResource(const Cluster& cluster) : cluster_(cluster) {}

  Index& get(ResourceId resource) {
    if (resource >= indexes_.size()) indexes_.resize(resource + 1u);
    if (!indexes_[resource]) {
      indexes_[resource] = std::make_unique<Index>(cluster_.nodes().size());
      for (const Node& node : cluster_.nodes()) indexes_[resource]->set(node.index, node.free_resource(resource));
    }
    return *indexes_[resource];
  }
  void node_changed(std::uint32_t node) {
    for (std::size_t r = 0; r < indexes_.size(); ++r) {
      if (indexes_[r]) indexes_[r]->set(node, cluster_.node(node).free_resource(static_cast<ResourceId>(r)));
    }
  }

 private:
  const Cluster& cluster_;
  std::vector<std::unique_ptr<Index>> indexes_;
};

class FirstFit final : public PlacementPolicy {
 public:
  explicit FirstFit(const Cluster& cluster) : indexes_(cluster) {}
  std::string_view name() const override { return "first-fit"; }
  std::optional<std::uint32_t> choose(const PodShape& pod, const std::function<bool(std::uint32_t)>& feasible) override {
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
  bool most_free_first() const { return most_free_first_; }

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
  std::optional<std::uint32_t> choose(const PodShape& pod, const std::function<bool(std::uint32_t)>& feasible) override {
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

std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view name, const Cluster& cluster) {
  if (name == "first-fit") return std::make_unique<FirstFit>(cluster);
  if (name == "binpack") return std::make_unique<OrderedPlacement<false>>(cluster);
  if (name == "spread") return std::make_unique<OrderedPlacement<true>>(cluster);
  return nullptr;
}

std::vector<std::string> placement_policy_names() { return {"first-fit", "binpack", "spread"}; }

}  // namespace sharesim
