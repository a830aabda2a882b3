#include "sim/sched/placement_policy.h"

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

std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view name, const Cluster& cluster) {
  for (const PlacementEntry& entry : kPlacements) {
    if (name == entry.name) return entry.make(cluster);
  }
  return nullptr;
}

std::vector<std::string> placement_policy_names() {
  std::vector<std::string> names;
  for (const PlacementEntry& entry : kPlacements) names.emplace_back(entry.name);
  return names;
}

}  // namespace sharesim
