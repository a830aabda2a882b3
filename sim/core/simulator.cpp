#include "sim/core/simulator.h"

#include <stdexcept>
#include <string>

#include "sim/core/assert.h"

namespace sharesim {

Simulator::Simulator(std::unique_ptr<EventQueue> queue) : queue_(std::move(queue)) {}

EventId Simulator::schedule_at(SimTime time, EventHandler& handler, std::uint32_t arg) {
  if (time < now_) {
    throw std::logic_error("event scheduled in the past: at " + std::to_string(time) + " ns, now " +
                           std::to_string(now_) + " ns");
  }
  return queue_->push(time, &handler, arg);
}

void Simulator::set_progress_hook(std::function<void(SimTime)> hook, std::uint64_t every_events) {
  progress_hook_ = std::move(hook);
  progress_every_ = every_events;
}

void Simulator::run(SimTime until) {
  stop_requested_ = false;
  ScheduledEvent event;
  while (!stop_requested_) {
    if (!queue_->pop_until(until, event)) {
      if (until != kTimeNever && until > now_) now_ = until;
      return;
    }
    SHARESIM_ASSERT(event.time >= now_, "the event queue handed back an event before the current time");
    now_ = event.time;
    ++events_processed_;
    // With few events pending, few things are in flight and their data stays in the caches: the
    // hint cost more than it saved (about 7% of e2e/MM8-1M-jobs: 8 GPUs, a handful pending). With
    // thousands pending: 1M jobs on 10,000 GPUs were faster with it in 7 of 8 alternating pairs
    // (medians 2.17 and 2.46 s); an earlier 4 runs and 3M jobs on 100,000 GPUs showed no gain
    // (docs/ci.md, 2026-11-26 and -27).
    if (ScheduledEvent next; queue_->size() > kPrefetchPending && queue_->next_hint(next)) {
      next.handler->prefetch(next.arg);
    }
    event.handler->on_event(event.arg);
    if (progress_every_ != 0 && events_processed_ % progress_every_ == 0) progress_hook_(now_);
  }
}

}  // namespace sharesim
