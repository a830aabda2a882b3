#pragma once
// The pending-event set behind one small interface (DESIGN.md "Event queue"): the radix heap
// (the default) and the d-ary heap implement it, and the same tests run against both.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sim/core/sim_time.h"

namespace sharesim {

// Whatever reacts to an event: a generator, the cluster runtime, a sampler. The 32-bit
// argument says which of its things the event is about (a job index, a GPU index...).
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void on_event(std::uint32_t arg) = 0;
  // The event (this, arg) is probably one of the next two to run: a handler may prefetch what
  // on_event will read first. A hint only: it changes no state, and the guess may be wrong (the
  // event cancelled meanwhile). Simulator::run calls it before the event in hand runs, so the
  // cache miss overlaps that work.
  virtual void prefetch(std::uint32_t /*arg*/) const {}
  // The event (this, arg) is probably the next to run, and prefetch(arg) was called one event
  // earlier: what that asked for is in the cache by now, so a handler may read it and prefetch
  // what it points to (a job's record, then the job's pod, device and GPU). Same rules as
  // prefetch(): a hint that changes no state and may be wrong.
  virtual void prefetch_followed(std::uint32_t /*arg*/) const {}
};

// Handle for cancellation: slab slot plus the generation the slot had when scheduled.
struct EventId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

// The order of events at one instant: every Urgent event runs before every Normal one, and
// events of one priority run in the order they were pushed (SimPy's URGENT and NORMAL event
// priorities). A job's work running out is Urgent, so that a job whose work ends at t has
// completed before anything else at t (an arrival, a requeue, a fault) can preempt it, OOM-kill
// it or find its GPU taken (docs/models.md, "Events and the run loop").
enum class EventPriority : std::uint8_t { Urgent, Normal };

// Both queues break ties between equal times on one 64-bit word: this bit set for a Normal
// event (so Urgent sorts first), then the insertion sequence, then the event's slab slot.
inline constexpr std::uint64_t kNormalPriorityBit = std::uint64_t{1} << 63;
inline constexpr std::uint64_t priority_bit(EventPriority priority) {
  return priority == EventPriority::Normal ? kNormalPriorityBit : 0;
}

struct ScheduledEvent {
  SimTime time = 0;
  EventHandler* handler = nullptr;
  std::uint32_t arg = 0;
};

class EventQueue {
 public:
  virtual ~EventQueue() = default;
  // Events at equal times come out Urgent first, then in the order they were pushed. `handler`
  // may not be null (std::logic_error): the radix heap marks a cancelled event by clearing its
  // handler.
  virtual EventId push(SimTime time, EventHandler* handler, std::uint32_t arg, EventPriority priority) = 0;
  EventId push(SimTime time, EventHandler* handler, std::uint32_t arg) {
    return push(time, handler, arg, EventPriority::Normal);
  }
  // O(1): marks the event dead; returns false when it already ran or was cancelled.
  virtual bool cancel(EventId id) = 0;
  // Removes the earliest live event into `out`; false when none is left.
  virtual bool pop(ScheduledEvent& out) = 0;
  // Time of the earliest live event, kTimeNever when none.
  virtual SimTime peek_time() = 0;
  // pop() if the earliest live event's time is <= limit; false (nothing removed) otherwise.
  virtual bool pop_until(SimTime limit, ScheduledEvent& out) { return peek_time() <= limit && pop(out); }
  virtual std::size_t size() const = 0;  // live events
  // Guesses at the next two events to pop, found without moving anything, for prefetching:
  // returns how many it found, 0 when the queue has no cheap guess, 1 (`next` set) or 2 (`next`
  // and `after`). They may be wrong (a cancelled event, or an event pushed later that runs
  // first); nothing may depend on them but speed.
  virtual unsigned next_hints(ScheduledEvent& /*next*/, ScheduledEvent& /*after*/) const { return 0; }
};

std::unique_ptr<EventQueue> make_default_event_queue();

}  // namespace sharesim
