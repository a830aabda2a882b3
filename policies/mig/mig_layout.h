#pragma once
// A MIG layout: the GPU instances one GPU is partitioned into, each at a placement (first memory
// slice). Parsed from a named layout ("all-balanced") or an explicit list of profile names,
// each optionally pinned with "@<start>" ("1g.10gb@6"), and checked against the model's
// placement rules (policies/mig/mig_profiles.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policies/mig/mig_profiles.h"

namespace sharesim {

struct MigInstance {
  const MigProfile* profile = nullptr;
  int start = 0;  // first memory slice
};

struct MigLayout {
  std::vector<MigInstance> instances;  // sorted by start
};

// `names_or_single_layout_name` is either one layout name of the model ("all-1g.10gb") or a
// list of profile names, each optionally with "@<start>". Instances without a start get one by
// a deterministic search (largest first, starts tried in ascending order, backtracking).
// Returns the layout, or nullopt with `problem` set to one sentence saying what is wrong and why.
// Checks, in order: the names, the pinned starts against the allowed placements, each profile's
// instance limit, the compute and memory slice totals (7 and 8), overlaps between pinned
// instances, and finally whether a placement without overlapping memory slices exists.
std::optional<MigLayout> parse_mig_layout(const MigGpuProfiles& gpu,
                                          const std::vector<std::string>& names_or_single_layout_name,
                                          std::string& problem);

// "1g.10gb@0, 1g.10gb@1, 2g.20gb@2, 3g.40gb@4": the layout in the form parse_mig_layout reads.
std::string format_mig_layout(const MigLayout& layout);

int mig_layout_sm_count(const MigLayout& layout);
int mig_layout_compute_slices(const MigLayout& layout);
std::int64_t mig_layout_memory_mib(const MigLayout& layout);

}  // namespace sharesim
