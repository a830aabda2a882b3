#include "sim/sched/placement_policy.h"

#include <algorithm>
#include <array>

#include "sim/sched/placement/first_fit.h"
#include "sim/sched/placement/ordered_by_free_units.h"
#include "sim/sched/placement/scored_placement.h"

namespace sharesim {
namespace {

struct PlacementEntry {
  const char* name;
  std::unique_ptr<PlacementPolicy> (*make)(const Cluster&);
};

// The score plugins this build knows: one line each (their code lives in placement/).
constexpr std::array<PlacementEntry, 9> kPlacements{{
    {"first-fit", make_first_fit},
    {"binpack", make_binpack},
    {"spread", make_spread},
    {"dot-product", make_dot_product_placement},
    {"best-fit", make_best_fit_placement},
    {"gpu-packing", make_gpu_packing_placement},
    {"gpu-clustering", make_gpu_clustering_placement},
    {"gpu-clustering-milli", make_gpu_clustering_milli_placement},
    {"fgd", make_fgd_placement},
}};

}  // namespace

std::int64_t max_free_units_of_any_node(const Cluster& cluster, ResourceId resource) {
  std::int64_t most = 0;
  for (const Node& node : cluster.nodes()) most = std::max(most, node.free_resource(resource));
  return most;
}

std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view name, const Cluster& cluster) {
  const std::string canonical = canonical_placement_name(name);
  for (const PlacementEntry& entry : kPlacements) {
    if (canonical == entry.name) return entry.make(cluster);
  }
  return nullptr;
}

std::string canonical_placement_name(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kAliases{{
      {"dotprod", "dot-product"},
      {"bestfit", "best-fit"},
      {"gpupacking", "gpu-packing"},
      {"gpuclustering", "gpu-clustering"},
  }};
  for (const auto& [alias, canonical] : kAliases) {
    if (name == alias) return std::string(canonical);
  }
  return std::string(name);
}

std::vector<std::string> placement_policy_names() {
  std::vector<std::string> names;
  for (const PlacementEntry& entry : kPlacements) names.emplace_back(entry.name);
  return names;
}

}  // namespace sharesim
