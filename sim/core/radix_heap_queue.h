#pragma once
// A radix heap (Ahuja, Mehlhorn, Orlin & Tarjan, "Faster algorithms for the shortest path
// problem", JACM 1990) as the pending-event set, with 6-bit digits. Simulated time never goes
// backwards, so every key pushed is >= the last minimum removed. A key that differs from that
// minimum first in digit position `level` lives in bucket (level, its digit there); buckets
// order all keys: lower level first, then lower digit. A push is an append; when bucket zero
// (keys equal to the minimum) runs dry, the lowest non-empty bucket is scanned for its
// minimum and its keys are redistributed into lower levels. Each key moves at most once per
// digit position it differs in (4 moves for a key 2^20 ns ahead, where a binary radix heap
// needs up to 20), and all accesses are sequential appends and scans, which is why it beats
// the d-ary heap once the pending set outgrows the caches (tests/bench/event_queue_bench.cpp).
//
// Ties: keys equal to the minimum are ordered by priority and insertion sequence when bucket 0
// is refilled; a later push at that time goes to the end (a larger sequence), or, when Urgent,
// ahead of the Normal keys waiting there, so equal times run Urgent first, then FIFO.
// A push below the current minimum (possible only after peek_time() looked past a run's
// stop time) rebuilds the buckets around the new minimum: rare and O(n).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/event_queue.h"
#include "sim/core/huge_pages.h"

namespace sharesim {

class RadixHeapQueue final : public EventQueue {
 public:
  RadixHeapQueue() = default;
  // Buckets point into blocks the queue owns: neither copied nor moved (it lives behind a
  // std::unique_ptr<EventQueue>).
  RadixHeapQueue(const RadixHeapQueue&) = delete;
  RadixHeapQueue& operator=(const RadixHeapQueue&) = delete;
  ~RadixHeapQueue() override = default;

  using EventQueue::push;
  EventId push(SimTime time, EventHandler* handler, std::uint32_t arg, EventPriority priority) override;
  bool cancel(EventId id) override;
  bool pop(ScheduledEvent& out) override;
  SimTime peek_time() override;
  bool pop_until(SimTime limit, ScheduledEvent& out) override;
  std::size_t size() const override { return live_; }
  unsigned next_hints(ScheduledEvent& next, ScheduledEvent& after) const override;

 private:
  static constexpr unsigned kSlotBits = 28;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::uint64_t kMaxSequence = (std::uint64_t{1} << (63 - kSlotBits)) - 1;  // bit 63: priority
  static constexpr unsigned kDigitBits = 6;
  static constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;        // buckets per level
  static constexpr std::size_t kLevels = (64 + kDigitBits - 1) / kDigitBits;  // 11

  // A key is 16 bytes: its time and sequence-and-slot, all a move between buckets copies (a key
  // moves once per digit position it differs in, so the bytes moved are most of the work once
  // the pending set outgrows the caches; with the handler and argument in the key, 32 bytes, a
  // hold at 1e6 pending took 1.4 times as long: docs/ci.md, 2026-11-26). The rest of the event
  // sits in its slot, read once when the event runs.
  struct Key {
    SimTime time;
    std::uint64_t seq_slot;  // priority in bit 63 (kNormalPriorityBit), sequence in the next 35, slot in the low 28
  };
  struct Slot {
    // Null once the event is cancelled: a slot is reused only after its key left the buckets,
    // so its key is live while its handler is set.
    EventHandler* handler = nullptr;
    std::uint32_t arg = 0;
    std::uint32_t generation = 0;  // bumped when the slot's event runs or is cancelled
  };
  // A bucket is a chain of fixed-size blocks, not a growing array: a refill hands each block
  // it has read back to a free list, and the keys it places take their blocks from there, so
  // a move writes into memory it just read (in the cache) instead of into a bucket's own
  // large, cold buffer, and no bucket ever reallocates and copies its keys. With a std::vector
  // per bucket, a quarter of the samples of the hold benchmark at 1e6 pending were page faults
  // and copies of growing buckets (perf, docs/ci.md 2026-11-27).
  static constexpr std::size_t kBlockKeys = 63;  // 63 keys and the link: 1 KiB
  static constexpr std::size_t kChunkBytes = kHugePageBytes;  // blocks are allocated a huge page at a time
  struct alignas(64) Block {
    std::array<Key, kBlockKeys> keys;
    // The next block of the chain, or of the free list. Unset in a bucket's tail block (a walk
    // stops at the tail), and never initialised: a chunk is left untouched until its blocks
    // are used, so that its pages are faulted in as huge pages.
    Block* next;
  };
  static constexpr std::size_t kChunkBlocks = kChunkBytes / sizeof(Block);
  struct Bucket {
    Block* head = nullptr;
    Block* tail = nullptr;
    std::size_t tail_used = kBlockKeys;  // keys in the tail block; kBlockKeys when there is none
    bool empty() const { return head == nullptr; }
  };
  static std::uint32_t slot_of(const Key& key) { return static_cast<std::uint32_t>(key.seq_slot & kSlotMask); }

  // Index into buckets_ (level * kDigits + digit), or kZero for a key equal to minimum_.
  std::size_t bucket_of(SimTime time) const {
    const auto diff = static_cast<std::uint64_t>(time) ^ static_cast<std::uint64_t>(minimum_);
    if (diff == 0) return kZero;
    const auto level = static_cast<std::size_t>(63 - std::countl_zero(diff)) / kDigitBits;
    const auto digit =
        static_cast<std::size_t>(static_cast<std::uint64_t>(time) >> (level * kDigitBits)) & (kDigits - 1);
    return level * kDigits + digit;
  }
  static constexpr std::size_t kZero = kLevels * kDigits;
  static constexpr std::array<SimTime, kLevels * kDigits> filled_with_never() {
    std::array<SimTime, kLevels * kDigits> times{};
    times.fill(kTimeNever);
    return times;
  }
  // Inline on purpose: called out of line, the key built in push() is stored field by field
  // and reloaded as 16-byte words, a store-forwarding stall that cost a fifth of a whole
  // M/M/8 run's cycles (perf annotate).
  // Each bucket's least key is kept as keys arrive, so a refill reads its source bucket once
  // (moving the keys), not twice. A key that reaches level 0 runs within 64 ns of simulated
  // time, a few pops away: its slot (the one random access per event, in pop) is prefetched
  // then, so that access finds the cache line there (issue 16: hold at 1e6 pending).
  void place(const Key& key) {
    const std::size_t bucket = bucket_of(key.time);
    if (bucket == kZero) {
      zero_.push_back(key);
      return;
    }
    append(buckets_[bucket], key);
    const std::size_t level = bucket / kDigits;
    const std::size_t digit = bucket % kDigits;
    level_mask_ |= std::uint64_t{1} << level;
    digit_mask_[level][digit / 64] |= std::uint64_t{1} << (digit % 64);
    bucket_min_[bucket] = std::min(bucket_min_[bucket], key.time);
    if (level == 0) __builtin_prefetch(&slots_[slot_of(key)], 1);
  }
  // An Urgent key pushed at the minimum's time goes ahead of the Normal keys waiting there.
  void insert_in_bucket_zero(const Key& key);
  void append(Bucket& bucket, const Key& key) {
    if (bucket.tail_used == kBlockKeys) {
      Block* block = take_block();
      if (bucket.tail == nullptr) {
        bucket.head = block;
      } else {
        bucket.tail->next = block;
      }
      bucket.tail = block;
      bucket.tail_used = 0;
    }
    bucket.tail->keys[bucket.tail_used++] = key;
  }
  Block* take_block() {
    Block* block = free_blocks_;
    if (block == nullptr) return new_block();
    free_blocks_ = block->next;
    return block;
  }
  Block* new_block();
  void release_block(Block* block) {
    block->next = free_blocks_;
    free_blocks_ = block;
  }
  // Calls visit(key) for every key of `bucket`, in order, and empties it. Each block goes back
  // to the free list once read, so keys that visit() places write into it while it is in the
  // cache; the next block is prefetched while one is read (a chain's blocks are not adjacent
  // in memory, so the hardware does not fetch it).
  template <typename Visit>
  void drain(Bucket& bucket, Visit&& visit);
  // The lowest non-empty bucket other than bucket zero. Precondition: level_mask_ != 0.
  std::size_t lowest_bucket() const {
    const auto level = static_cast<std::size_t>(std::countr_zero(level_mask_));
    const auto& words = digit_mask_[level];
    std::size_t word = 0;
    while (words[word] == 0) ++word;
    return level * kDigits + word * 64 + static_cast<std::size_t>(std::countr_zero(words[word]));
  }
  // Up to kHintedKeys least keys, in order (keys of equal times in no particular order), found
  // without moving anything: bucket zero's from its head, then those of the lowest buckets up
  // to the first that is not short (more than kShortBucketKeys keys, or more than one block).
  // Keys of short buckets are those of events sparse in time, the case where a prefetch has a
  // whole event's work to hide behind. Returns how many it found.
  static constexpr std::size_t kHintedKeys = 3;
  static constexpr std::size_t kShortBucketKeys = 4;
  std::size_t least_keys(std::array<const Key*, kHintedKeys>& out) const;
  // The lowest non-empty bucket above `bucket` (not bucket zero), or kZero when there is none.
  std::size_t bucket_after(std::size_t bucket) const;
  bool live(const Key& key) const { return slots_[slot_of(key)].handler != nullptr; }
  void release_dead(const Key& key) { free_slots_.push_back(slot_of(key)); }
  // Makes bucket 0 hold the live minimum keys; false when no live key is left.
  bool refill_bucket_zero();
  void rebuild(SimTime new_minimum);
  std::uint32_t take_slot();
  void pop_bucket_zero_head(ScheduledEvent& out);

  std::array<Bucket, kLevels * kDigits> buckets_;
  std::vector<Key> zero_;  // bucket zero: keys equal to minimum_, in sequence order
  std::array<SimTime, kLevels * kDigits> bucket_min_ = filled_with_never();  // least key time of each bucket
  std::uint64_t level_mask_ = 0;                                 // bit l: some bucket of level l holds keys
  static constexpr std::size_t kMaskWords = (kDigits + 63) / 64;
  // bit d of level l: bucket (l, d) holds keys
  std::array<std::array<std::uint64_t, kMaskWords>, kLevels> digit_mask_{};
  std::size_t bucket_zero_head_ = 0;  // next unread key of zero_
  Block* free_blocks_ = nullptr;      // linked through Block::next
  std::vector<std::unique_ptr<Block, HugeAlignedDelete>> block_chunks_;  // every block, owned
  std::size_t chunk_blocks_used_ = kChunkBlocks;        // blocks handed out of the last chunk
  SimTime minimum_ = 0;
  std::vector<Slot> slots_;  // indexed by a key's slot
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t next_sequence_ = 0;
  std::size_t live_ = 0;
  std::size_t dead_ = 0;  // cancelled keys still in the buckets
};

}  // namespace sharesim
