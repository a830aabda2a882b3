#pragma once
// The scheduler's queue of jobs waiting for placement. FIFO orders by arrival; priority
// orders by priority (higher first) then arrival, as kube-scheduler's PrioritySort plugin.
// Jobs that do not fit stay in place (no head-of-line blocking: a later job that fits runs).
#include <cstdint>
#include <vector>

namespace sharesim {

class PendingQueue {
 public:
  explicit PendingQueue(bool by_priority = false) : by_priority_(by_priority) {}

  void push(std::uint32_t job, std::int32_t priority, std::uint64_t arrival_sequence);
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

  // Visits jobs in queue order; `try_start(job)` returns true when the job was placed, and
  // it then leaves the queue.
  template <typename TryStart>
  void drain(TryStart&& try_start) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (!try_start(entries_[i].job)) entries_[kept++] = entries_[i];
    }
    entries_.resize(kept);
  }
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (const Entry& e : entries_) visit(e.job);
  }

 private:
  struct Entry {
    std::uint32_t job;
    std::int32_t priority;
    std::uint64_t sequence;
  };
  std::vector<Entry> entries_;
  bool by_priority_;
};

}  // namespace sharesim
