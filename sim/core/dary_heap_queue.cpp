#include "sim/core/dary_heap_queue.h"

#include <algorithm>
#include <stdexcept>

namespace sharesim {

template <unsigned Arity>
std::uint32_t DaryHeapQueue<Arity>::take_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (slab_.size() > kSlotMask) throw std::length_error("event queue: more than 2^28 pending events");
  slab_.emplace_back();
  return static_cast<std::uint32_t>(slab_.size() - 1);
}

template <unsigned Arity>
EventId DaryHeapQueue<Arity>::push(SimTime time, EventHandler* handler, std::uint32_t arg, EventPriority priority) {
  if (handler == nullptr) throw std::logic_error("event queue: no handler");
  if (next_sequence_ > kMaxSequence) throw std::length_error("event queue: sequence space exhausted");
  const std::uint32_t slot = take_slot();
  Payload& payload = slab_[slot];
  payload.handler = handler;
  payload.arg = arg;
  heap_.push_back(Key{time, priority_bit(priority) | (next_sequence_++ << kSlotBits) | slot});
  sift_up(heap_.size() - 1);
  ++live_;
  return EventId{slot, payload.generation};
}

template <unsigned Arity>
bool DaryHeapQueue<Arity>::cancel(EventId id) {
  if (id.slot >= slab_.size()) return false;
  Payload& payload = slab_[id.slot];
  if (payload.generation != id.generation || payload.handler == nullptr) return false;
  payload.handler = nullptr;
  ++payload.generation;  // the key stays in the heap; pop() frees the slot when it surfaces
  --live_;
  if (heap_.size() > 64 && heap_.size() - live_ > live_) compact();
  return true;
}

template <unsigned Arity>
void DaryHeapQueue<Arity>::drop_dead_top() {
  while (!heap_.empty()) {
    const auto slot = static_cast<std::uint32_t>(heap_.front().seq_slot & kSlotMask);
    if (slab_[slot].handler != nullptr) return;
    free_slots_.push_back(slot);
    remove_top();
  }
}

template <unsigned Arity>
bool DaryHeapQueue<Arity>::pop(ScheduledEvent& out) {
  drop_dead_top();
  if (heap_.empty()) return false;
  const Key top = heap_.front();
  const auto slot = static_cast<std::uint32_t>(top.seq_slot & kSlotMask);
  Payload& payload = slab_[slot];
  out = ScheduledEvent{top.time, payload.handler, payload.arg};
  payload.handler = nullptr;
  ++payload.generation;
  free_slots_.push_back(slot);
  --live_;
  remove_top();
  return true;
}

template <unsigned Arity>
SimTime DaryHeapQueue<Arity>::peek_time() {
  drop_dead_top();
  return heap_.empty() ? kTimeNever : heap_.front().time;
}

template <unsigned Arity>
void DaryHeapQueue<Arity>::remove_top() {
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
}

template <unsigned Arity>
void DaryHeapQueue<Arity>::sift_up(std::size_t index) {
  const Key moving = heap_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / Arity;
    if (!(moving < heap_[parent])) break;
    heap_[index] = heap_[parent];
    index = parent;
  }
  heap_[index] = moving;
}

template <unsigned Arity>
void DaryHeapQueue<Arity>::sift_down(std::size_t index) {
  const Key moving = heap_[index];
  const std::size_t count = heap_.size();
  while (true) {
    const std::size_t first_child = index * Arity + 1;
    if (first_child >= count) break;
    const std::size_t last_child = std::min(first_child + Arity, count);
    std::size_t best = first_child;
    for (std::size_t child = first_child + 1; child < last_child; ++child) {
      if (heap_[child] < heap_[best]) best = child;
    }
    if (!(heap_[best] < moving)) break;
    heap_[index] = heap_[best];
    index = best;
  }
  heap_[index] = moving;
}

template <unsigned Arity>
void DaryHeapQueue<Arity>::compact() {
  std::size_t kept = 0;
  for (const Key& key : heap_) {
    const auto slot = static_cast<std::uint32_t>(key.seq_slot & kSlotMask);
    if (slab_[slot].handler != nullptr) {
      heap_[kept++] = key;
    } else {
      free_slots_.push_back(slot);
    }
  }
  heap_.resize(kept);
  // Floyd's bottom-up heap construction, O(n).
  if (kept > 1) {
    for (std::size_t i = (kept - 2) / Arity + 1; i-- > 0;) sift_down(i);
  }
}

template class DaryHeapQueue<2>;
template class DaryHeapQueue<4>;
template class DaryHeapQueue<8>;

}  // namespace sharesim
