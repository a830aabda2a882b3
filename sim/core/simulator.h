#pragma once
// The run loop: a clock and a pending-event set. Components schedule events on themselves
// (EventHandler) and the loop hands each one back at its time, in (time, priority, insertion)
// order.
#include <cstdint>
#include <functional>
#include <memory>

#include "sim/core/event_queue.h"
#include "sim/core/sim_time.h"

namespace sharesim {

class Simulator {
 public:
  explicit Simulator(std::unique_ptr<EventQueue> queue = make_default_event_queue());

  SimTime now() const { return now_; }
  // Throws std::logic_error when `time` is in the past: that is a model bug, not input.
  // Events at one time run Urgent first, then in the order scheduled (EventPriority).
  EventId schedule_at(SimTime time, EventHandler& handler, std::uint32_t arg = 0,
                      EventPriority priority = EventPriority::Normal);
  EventId schedule_in(SimTime delay, EventHandler& handler, std::uint32_t arg = 0) {
    return schedule_at(now_ + delay, handler, arg);
  }
  bool cancel(EventId id) { return queue_->cancel(id); }

  // Runs events with time <= until. Returns when none is left, when stop() was called, or
  // when the next event lies beyond `until` (the clock is then set to `until`).
  void run(SimTime until = kTimeNever);
  void stop() { stop_requested_ = true; }

  std::uint64_t events_processed() const { return events_processed_; }
  std::size_t pending_events() const { return queue_->size(); }

  // Called between events every `every_events` events (progress display); never changes
  // what the simulation does.
  void set_progress_hook(std::function<void(SimTime)> hook, std::uint64_t every_events);

 private:
  // Pending events above which run() asks the queue for the next two events and lets their
  // handlers prefetch (EventHandler::prefetch, prefetch_followed; prefetch_ahead()).
  static constexpr std::size_t kPrefetchPending = 1024;
  void prefetch_ahead();
  ScheduledEvent previous_after_;  // the event after next at the last prefetch_ahead(), or none
  std::unique_ptr<EventQueue> queue_;
  SimTime now_ = 0;
  std::uint64_t events_processed_ = 0;
  bool stop_requested_ = false;
  std::function<void(SimTime)> progress_hook_;
  std::uint64_t progress_every_ = 0;
};

}  // namespace sharesim
