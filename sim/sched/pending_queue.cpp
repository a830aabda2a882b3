#include "sim/sched/pending_queue.h"

#include <algorithm>

namespace sharesim {

void PendingQueue::push(std::uint32_t job, std::int32_t priority, std::uint64_t arrival_sequence) {
  const Entry entry{job, priority, arrival_sequence};
  if (!by_priority_) {
    entries_.push_back(entry);
    return;
  }
  const auto position = std::upper_bound(entries_.begin(), entries_.end(), entry, [](const Entry& a, const Entry& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.sequence < b.sequence;
  });
  entries_.insert(position, entry);
}

}  // namespace sharesim
