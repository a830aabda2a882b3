#pragma once
// A mix of job classes with weights: each generated job draws its shape, gang size, priority
// and (optionally) its own duration law from entry i with probability weight_i / sum(weight).
#include <optional>
#include <vector>

#include "sim/core/random_stream.h"
#include "workloads/duration_distribution.h"

namespace sharesim {

struct MixEntry {
  double weight = 1;
  std::uint32_t shape = 0;
  std::uint32_t pods = 1;
  std::int32_t priority = 0;
  bool preempts = true;                          // its PriorityClass's preemptionPolicy is not Never
  std::optional<DurationDistribution> duration;  // absent: the generator's
};

// Index of the entry drawn: one uniform, compared with the cumulative weights.
inline std::size_t draw_mix_entry(const std::vector<MixEntry>& mix, double total_weight, RandomStream& rng) {
  double u = rng.uniform01() * total_weight;
  for (std::size_t i = 0; i + 1 < mix.size(); ++i) {
    if (u < mix[i].weight) return i;
    u -= mix[i].weight;
  }
  return mix.size() - 1;
}

}  // namespace sharesim
