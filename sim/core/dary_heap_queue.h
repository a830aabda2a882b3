#pragma once
// Array-based d-ary min-heap keyed by (time, priority, insertion sequence). Payloads live in a slab
// and the heap holds 16-byte keys that point into it by index, so sifting moves small
// entries. Cancellation bumps the slot's generation: the dead key stays in the heap and is
// skipped when it reaches the top, and the heap is compacted when dead keys outnumber live.
#include <cstdint>
#include <vector>

#include "sim/core/event_queue.h"

namespace sharesim {

template <unsigned Arity>
class DaryHeapQueue final : public EventQueue {
  static_assert(Arity >= 2);

 public:
  using EventQueue::push;
  EventId push(SimTime time, EventHandler* handler, std::uint32_t arg, EventPriority priority) override;
  bool cancel(EventId id) override;
  bool pop(ScheduledEvent& out) override;
  SimTime peek_time() override;
  std::size_t size() const override { return live_; }

 private:
  // Priority in bit 63 (kNormalPriorityBit), sequence in the next 35 bits, slab slot in the low
  // 28: comparing (time, key) orders equal times Urgent first, then by insertion, without a
  // third field.
  static constexpr unsigned kSlotBits = 28;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::uint64_t kMaxSequence = (std::uint64_t{1} << (63 - kSlotBits)) - 1;

  struct Key {
    SimTime time;
    std::uint64_t seq_slot;
    bool operator<(const Key& other) const {
      return time < other.time || (time == other.time && seq_slot < other.seq_slot);
    }
  };
  struct Payload {
    EventHandler* handler = nullptr;  // nullptr while the slot is dead or free
    std::uint32_t arg = 0;
    std::uint32_t generation = 0;
  };

  std::uint32_t take_slot();
  void sift_up(std::size_t index);
  void sift_down(std::size_t index);
  void remove_top();
  void drop_dead_top();
  void compact();

  std::vector<Key> heap_;
  std::vector<Payload> slab_;
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t next_sequence_ = 0;
  std::size_t live_ = 0;
};

extern template class DaryHeapQueue<4>;
extern template class DaryHeapQueue<8>;
extern template class DaryHeapQueue<2>;

}  // namespace sharesim
