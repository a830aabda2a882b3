#pragma once
// A contiguous array of plain values that grows without copying them: its memory is a
// private anonymous mapping that doubles by remapping (mremap moves page-table entries, not
// the values), and its pages from 2 MiB up are advised as huge pages (huge_pages.h). It stays
// one span, which a selection can reorder in place: the runtime's per-request samples (4.0 M
// latencies in the inference benchmark) are summarised where they lie instead of being
// copied into fresh vectors first (docs/ci.md 2026-11-27, "Request samples where they lie").
// A std::vector that doubles copies everything it holds each time; chunks that never move
// (the previous design) are not one span. Other systems than Linux: realloc.
//
// The kernel zeroes each fresh page on its first write: with the inference benchmark's two
// samples of 4.0 M values (its finished requests' latencies and slowdowns, 64 MB), that
// clearing was 8 to 11% of the simulation thread's samples (perf, docs/ci.md 2026-11-28).
// From kPrefaultFromBytes on, a grow hands the fresh half of the mapping to a second thread
// that faults its pages in (prefault_ahead.h), so the pushes find them mapped; it is stopped
// before the mapping moves or goes.
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

#include "sim/core/prefault_ahead.h"

namespace sharesim {

// Memory of `new_bytes` holding the first `old_bytes` of `data` (null with 0 bytes for the
// first mapping); throws std::bad_alloc. The old address is invalid afterwards.
void* grow_mapping(void* data, std::size_t old_bytes, std::size_t new_bytes);
void release_mapping(void* data, std::size_t bytes);

template <typename T>
class GrowingArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  GrowingArray() = default;
  // A moved-from array is empty.
  GrowingArray(GrowingArray&& other) noexcept { take(other); }
  GrowingArray& operator=(GrowingArray&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  GrowingArray(const GrowingArray&) = delete;
  GrowingArray& operator=(const GrowingArray&) = delete;
  ~GrowingArray() { release(); }

  void push_back(const T& value) {
    if (size_ == capacity_) grow();
    data_[size_++] = value;
  }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }  // values the mapping holds
  bool empty() const { return size_ == 0; }
  std::span<T> values() { return {data_, size_}; }
  std::span<const T> values() const { return {data_, size_}; }

  // A mapping of 8 MiB and more: the half a grow adds is 4 MiB or more, worth a thread for the
  // few milliseconds its faults take; smaller samples (most services' and notebooks') never
  // start one.
  static constexpr std::size_t kPrefaultFromBytes = std::size_t{8} << 20;

 private:
  static constexpr std::size_t kFirstBytes = 4096;  // one page: a short sample stays small

  void grow() {
    if (prefault_ != nullptr) prefault_->stop();  // the mapping is about to move
    const std::size_t old_capacity = capacity_;
    const std::size_t bytes = capacity_ == 0 ? kFirstBytes : 2 * capacity_ * sizeof(T);
    data_ = static_cast<T*>(grow_mapping(data_, capacity_ * sizeof(T), bytes));
    capacity_ = bytes / sizeof(T);
    if (bytes >= kPrefaultFromBytes) {
      if (prefault_ == nullptr) prefault_ = std::make_unique<PrefaultAhead>();
      // The whole fresh half at once (a lead of all of it): the thread ends when it is mapped.
      const std::size_t fresh = capacity_ - old_capacity;
      prefault_->start(data_ + old_capacity, sizeof(T), fresh, fresh);
    }
  }
  void release() {
    if (prefault_ != nullptr) prefault_->stop();
    if (data_ != nullptr) release_mapping(data_, capacity_ * sizeof(T));
  }
  void take(GrowingArray& other) {
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    prefault_ = std::move(other.prefault_);  // its thread works on the mapping, which stays put
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::unique_ptr<PrefaultAhead> prefault_;  // made at the first grow to kPrefaultFromBytes
};

}  // namespace sharesim
