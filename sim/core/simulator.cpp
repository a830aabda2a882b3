#include "sim/core/simulator.h"

#include <stdexcept>
#include <string>

#include "sim/core/assert.h"

namespace sharesim {

Simulator::Simulator(std::unique_ptr<EventQueue> queue) : queue_(std::move(queue)) {}

EventId Simulator::schedule_at(SimTime time, EventHandler& handler, std::uint32_t arg, EventPriority priority) {
  if (time < now_) {
    throw std::logic_error("event scheduled in the past: at " + std::to_string(time) + " ns, now " +
                           std::to_string(now_) + " ns");
  }
  return queue_->push(time, &handler, arg, priority);
}

void Simulator::set_progress_hook(std::function<void(SimTime)> hook, std::uint64_t every_events) {
  progress_hook_ = std::move(hook);
  progress_every_ = every_events;
}

// Two events deep: the event after next gets prefetch() (its record, say), and the next event,
// when it was the event after next one event ago, prefetch_followed() (what that record points
// to), so that each load has a whole event's work to hide behind. With one level only, a job's
// end waited on its pod and GPU, asked for when the completion started: ClusterRuntime::vacate
// was 8.6% of the samples of 3M jobs on 100,000 GPUs (docs/ci.md, 2026-11-28).
void Simulator::prefetch_ahead() {
  ScheduledEvent next;
  ScheduledEvent after;
  const unsigned hints = queue_->next_hints(next, after);
  if (hints == 2) after.handler->prefetch(after.arg);
  if (hints >= 1) {
    const bool followed = next.time == previous_after_.time && next.handler == previous_after_.handler &&
                          next.arg == previous_after_.arg;
    if (followed) {
      next.handler->prefetch_followed(next.arg);
    } else {
      next.handler->prefetch(next.arg);
    }
  }
  previous_after_ = hints == 2 ? after : ScheduledEvent{};
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
    if (queue_->size() > kPrefetchPending) prefetch_ahead();
    event.handler->on_event(event.arg);
    if (progress_every_ != 0 && events_processed_ % progress_every_ == 0) progress_hook_(now_);
  }
}

}  // namespace sharesim
