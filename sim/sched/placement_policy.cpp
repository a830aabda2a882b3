#include "sim/sched/placement_policy.h"

#include <array>

#include "sim/sched/placement/first_fit.h"
#include "sim/sched/placement/ordered_by_free_units.h"

namespace sharesim {
namespace {

struct PlacementEntry {
  const char* name;
  std::unique_ptr<PlacementPolicy> (*make)(const Cluster&);
};

// The score plugins this build knows: one line each (their code lives in placement/).
constexpr std::array<PlacementEntry, 3> kPlacements{{
    {"first-fit", make_first_fit},
    {"binpack", make_binpack},
    {"spread", make_spread},
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
