#include "sim/core/radix_heap_queue.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>

#include "sim/core/prefetch_lines.h"

namespace sharesim {

std::uint32_t RadixHeapQueue::take_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (slots_.size() > kSlotMask) throw std::length_error("event queue: more than 2^28 pending events");
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

EventId RadixHeapQueue::push(SimTime time, EventHandler* handler, std::uint32_t arg, EventPriority priority) {
  if (time < 0) throw std::logic_error("event queue: negative time");
  if (handler == nullptr) throw std::logic_error("event queue: no handler");
  if (next_sequence_ > kMaxSequence) throw std::length_error("event queue: sequence space exhausted");
  const std::uint32_t slot = take_slot();
  Slot& entry = slots_[slot];
  entry.handler = handler;
  entry.arg = arg;
  const Key key{time, priority_bit(priority) | (next_sequence_++ << kSlotBits) | slot};
  if (time < minimum_) rebuild(time);
  if (time == minimum_ && !zero_.empty() && key.seq_slot < zero_.back().seq_slot) {
    insert_in_bucket_zero(key);
  } else {
    place(key);
  }
  ++live_;
  return EventId{slot, entry.generation};
}

void RadixHeapQueue::insert_in_bucket_zero(const Key& key) {
  const auto first = zero_.begin() + static_cast<std::ptrdiff_t>(bucket_zero_head_);
  zero_.insert(
      std::upper_bound(first, zero_.end(), key, [](const Key& a, const Key& b) { return a.seq_slot < b.seq_slot; }),
      key);
}

bool RadixHeapQueue::cancel(EventId id) {
  // A slot is reused only after its key left the buckets, so a matching generation means
  // the event is still pending.
  if (id.slot >= slots_.size()) return false;
  Slot& entry = slots_[id.slot];
  if (entry.handler == nullptr || entry.generation != id.generation) return false;
  entry.handler = nullptr;  // the key stays in its bucket, dead; its slot is freed when it surfaces
  ++entry.generation;
  --live_;
  ++dead_;
  // Dead keys are dropped when met; if they pile up, sweep them out.
  if (dead_ > 64 && dead_ > live_) rebuild(minimum_);
  return true;
}

RadixHeapQueue::Block* RadixHeapQueue::new_block() {
  if (chunk_blocks_used_ == kChunkBlocks) {
    block_chunks_.emplace_back(static_cast<Block*>(allocate_huge_aligned(kChunkBytes)));
    chunk_blocks_used_ = 0;
  }
  return block_chunks_.back().get() + chunk_blocks_used_++;
}

template <typename Visit>
void RadixHeapQueue::drain(Bucket& bucket, Visit&& visit) {
  if (bucket.empty()) return;
  // Copied field by field and the bucket emptied first: the Bucket copied whole went through
  // the stack (a store-forwarding stall on every refill, perf annotate).
  Block* block = bucket.head;
  Block* const tail = bucket.tail;
  const std::size_t tail_used = bucket.tail_used;
  bucket = Bucket{};
  while (true) {
    const bool last = block == tail;
    Block* next = nullptr;  // the tail's link is not set
    if (!last) {
      next = block->next;
      prefetch_lines(next, sizeof(Block));
    }
    const std::size_t used = last ? tail_used : kBlockKeys;
    for (std::size_t i = 0; i < used; ++i) visit(block->keys[i]);
    release_block(block);
    if (last) return;
    block = next;
  }
}

bool RadixHeapQueue::refill_bucket_zero() {
  while (true) {
    while (bucket_zero_head_ < zero_.size()) {
      const Key& key = zero_[bucket_zero_head_];
      if (live(key)) return true;
      release_dead(key);
      ++bucket_zero_head_;
      --dead_;
    }
    zero_.clear();
    bucket_zero_head_ = 0;
    if (level_mask_ == 0) return false;
    const std::size_t bucket = lowest_bucket();
    const std::size_t level = bucket / kDigits;
    const std::size_t digit = bucket % kDigits;
    auto& words = digit_mask_[level];
    words[digit / 64] &= ~(std::uint64_t{1} << (digit % 64));
    bool level_empty = true;
    for (std::uint64_t w : words) level_empty = level_empty && w == 0;
    if (level_empty) level_mask_ &= ~(std::uint64_t{1} << level);
    // Liveness is not looked up here (that would be a random slab access per key): dead keys
    // move along and are dropped when they surface in bucket 0.
    minimum_ = bucket_min_[bucket];
    bucket_min_[bucket] = kTimeNever;
    Bucket& source = buckets_[bucket];
    if (source.head == source.tail && source.tail_used == 1) {
      // A lone key is the new minimum: straight into bucket zero. With events sparse in time
      // (a cluster's arrivals and completions, a service's requests) most refills find one key,
      // and place() would only find its bucket to be bucket zero.
      zero_.push_back(source.head->keys[0]);
      release_block(source.head);
      source = Bucket{};
      continue;
    }
    // Every key goes strictly lower (it shares more high bits with the new minimum), never
    // back into the source.
    drain(source, [this](const Key& key) { place(key); });
    if (zero_.size() > 1) {
      std::sort(zero_.begin(), zero_.end(), [](const Key& a, const Key& b) { return a.seq_slot < b.seq_slot; });
    }
  }
}

bool RadixHeapQueue::pop(ScheduledEvent& out) {
  if (!refill_bucket_zero()) return false;
  pop_bucket_zero_head(out);
  return true;
}

bool RadixHeapQueue::pop_until(SimTime limit, ScheduledEvent& out) {
  if (!refill_bucket_zero() || minimum_ > limit) return false;
  pop_bucket_zero_head(out);
  return true;
}

// Precondition: refill_bucket_zero() returned true (the head of bucket zero is live).
void RadixHeapQueue::pop_bucket_zero_head(ScheduledEvent& out) {
  const Key key = zero_[bucket_zero_head_++];
  const std::uint32_t slot = slot_of(key);
  Slot& entry = slots_[slot];
  out = ScheduledEvent{key.time, entry.handler, entry.arg};
  ++entry.generation;
  free_slots_.push_back(slot);
  --live_;
}

std::size_t RadixHeapQueue::least_keys(std::array<const Key*, kHintedKeys>& out) const {
  std::size_t found = 0;
  for (std::size_t i = bucket_zero_head_; i < zero_.size() && found < out.size(); ++i) out[found++] = &zero_[i];
  if (level_mask_ == 0) return found;
  for (std::size_t bucket = lowest_bucket(); found < out.size() && bucket != kZero; bucket = bucket_after(bucket)) {
    const Bucket& keys = buckets_[bucket];
    if (keys.head != keys.tail || keys.tail_used > kShortBucketKeys) break;
    // Sorted by time, by insertion: at most four keys.
    std::array<const Key*, kShortBucketKeys> sorted{};
    for (std::size_t i = 0; i < keys.tail_used; ++i) {
      const Key* key = &keys.head->keys[i];
      std::size_t j = i;
      for (; j > 0 && sorted[j - 1]->time > key->time; --j) sorted[j] = sorted[j - 1];
      sorted[j] = key;
    }
    for (std::size_t i = 0; i < keys.tail_used && found < out.size(); ++i) out[found++] = sorted[i];
  }
  return found;
}

std::size_t RadixHeapQueue::bucket_after(std::size_t bucket) const {
  std::size_t level = bucket / kDigits;
  const std::size_t digit = bucket % kDigits + 1;
  // The rest of this level first, then the lowest non-empty bucket of a higher level.
  for (std::size_t word = digit / 64; digit < kDigits && word < kMaskWords; ++word) {
    std::uint64_t bits = digit_mask_[level][word];
    if (word == digit / 64) bits &= ~std::uint64_t{0} << (digit % 64);
    if (bits != 0) return level * kDigits + word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
  }
  const std::uint64_t higher = level + 1 < 64 ? level_mask_ & (~std::uint64_t{0} << (level + 1)) : 0;
  if (higher == 0) return kZero;
  level = static_cast<std::size_t>(std::countr_zero(higher));
  const auto& words = digit_mask_[level];
  std::size_t word = 0;
  while (words[word] == 0) ++word;
  return level * kDigits + word * 64 + static_cast<std::size_t>(std::countr_zero(words[word]));
}

unsigned RadixHeapQueue::next_hints(ScheduledEvent& next, ScheduledEvent& after) const {
  // The third key's slot is asked for now: two events later that key is the next one, and one
  // event later the one after it, whose slot is read here to hint at its handler. With events
  // sparse in time (a cluster's arrivals and completions), an event's slot was last touched when
  // the event was pushed, long before, and waiting for the next event's slot here was 7% of a
  // 10M-job run on 100,000 GPUs (perf annotate, docs/ci.md 2026-11-28).
  std::array<const Key*, kHintedKeys> keys{};
  const std::size_t found = least_keys(keys);
  if (found == kHintedKeys) __builtin_prefetch(&slots_[slot_of(*keys[2])]);
  unsigned hints = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(found, 2); ++i) {
    const Slot& slot = slots_[slot_of(*keys[i])];
    if (slot.handler == nullptr) break;
    (i == 0 ? next : after) = ScheduledEvent{keys[i]->time, slot.handler, slot.arg};
    ++hints;
  }
  return hints;
}

SimTime RadixHeapQueue::peek_time() { return refill_bucket_zero() ? minimum_ : kTimeNever; }

void RadixHeapQueue::rebuild(SimTime new_minimum) {
  std::vector<Key> keys;
  keys.reserve(live_);
  auto keep_if_live = [&](const Key& key) {
    if (live(key)) {
      keys.push_back(key);
    } else {
      release_dead(key);
    }
  };
  for (std::size_t i = bucket_zero_head_; i < zero_.size(); ++i) keep_if_live(zero_[i]);
  zero_.clear();
  for (Bucket& bucket : buckets_) drain(bucket, keep_if_live);
  bucket_zero_head_ = 0;
  level_mask_ = 0;
  for (auto& words : digit_mask_) words.fill(0);
  bucket_min_.fill(kTimeNever);
  dead_ = 0;
  minimum_ = new_minimum;
  // Bucket zero must be in sequence order: keys equal to the minimum, sorted.
  std::sort(keys.begin(), keys.end(),
            [](const Key& a, const Key& b) { return a.time != b.time ? a.time < b.time : a.seq_slot < b.seq_slot; });
  for (const Key& key : keys) place(key);
}

}  // namespace sharesim

namespace sharesim {

// The radix heap is the default: it is the faster of the two in the hold-model benchmark
// at every size measured (README, "Performance").
std::unique_ptr<EventQueue> make_default_event_queue() { return std::make_unique<RadixHeapQueue>(); }

}  // namespace sharesim
