#include "sim/sched/preemption.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace sharesim {

bool more_important(const PreemptionVictim& a, const PreemptionVictim& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.start != b.start) return a.start < b.start;
  return a.job < b.job;
}

VictimSelection select_victims_on_node(std::int32_t priority, std::span<const PreemptionVictim> on_node,
                                       NodeTrial& trial) {
  // isPreemptionAllowed: only pods of strictly lower priority may be evicted.
  std::vector<PreemptionVictim> potential;
  for (const PreemptionVictim& pod : on_node) {
    if (pod.priority < priority) potential.push_back(pod);
  }
  VictimSelection selection;
  if (potential.empty()) return selection;
  for (const PreemptionVictim& pod : potential) trial.take_off(pod);
  if (!trial.pod_fits()) {
    selection.result = VictimSearch::kDoesNotFit;
    return selection;
  }
  // Reprieve the most important first: each stays if the pod still fits with it.
  std::sort(potential.begin(), potential.end(), more_important);
  for (const PreemptionVictim& pod : potential) {
    trial.give_back(pod);
    if (trial.pod_fits()) continue;
    trial.take_off(pod);
    selection.victims.push_back(pod);
  }
  selection.result = VictimSearch::kFits;
  return selection;
}

namespace {

// GetEarliestPodStartTime: the earliest start among the victims of the highest priority.
SimTime earliest_start_of_highest(const std::vector<PreemptionVictim>& victims) {
  std::int32_t highest = victims.front().priority;
  SimTime earliest = victims.front().start;
  for (const PreemptionVictim& victim : victims) {
    if (victim.priority > highest) {
      highest = victim.priority;
      earliest = victim.start;
    } else if (victim.priority == highest) {
      earliest = std::min(earliest, victim.start);
    }
  }
  return earliest;
}

}  // namespace

std::size_t pick_one_node_for_preemption(std::span<const PreemptionCandidate> candidates) {
  // Each criterion scores the remaining candidates; those with the highest score go on to the
  // next criterion; one left wins; after the last, the first remaining wins.
  using Score = std::function<std::int64_t(const PreemptionCandidate&)>;
  const Score criteria[] = {
      // (1, the fewest PDB violations: no PDBs are modelled, so every node ties.)
      // 2. The lowest priority of the most important victim.
      [](const PreemptionCandidate& c) { return -static_cast<std::int64_t>(c.victims.front().priority); },
      // 3. The smallest sum of priorities, each shifted by 2^31 to be >= 0 (so that more victims of
      //    a negative priority do not look better than fewer).
      [](const PreemptionCandidate& c) {
        std::int64_t sum = 0;
        for (const PreemptionVictim& v : c.victims)
          sum += static_cast<std::int64_t>(v.priority) + std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
        return -sum;
      },
      // 4. The fewest victims.
      [](const PreemptionCandidate& c) { return -static_cast<std::int64_t>(c.victims.size()); },
      // 5. The latest start of the highest-priority victims (disturb the most recent work).
      [](const PreemptionCandidate& c) { return static_cast<std::int64_t>(earliest_start_of_highest(c.victims)); },
  };
  std::vector<std::size_t> remaining(candidates.size());
  for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  for (const Score& score : criteria) {
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    std::vector<std::size_t> kept;
    for (std::size_t i : remaining) {
      const std::int64_t s = score(candidates[i]);
      if (s > best) {
        best = s;
        kept.clear();
      }
      if (s == best) kept.push_back(i);
    }
    if (kept.size() == 1) return kept.front();
    remaining = std::move(kept);
  }
  return remaining.front();
}

}  // namespace sharesim
