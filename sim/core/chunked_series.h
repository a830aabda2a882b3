#pragma once
// An append-only sequence of plain values kept in chunks that never move: an append never
// copies what is stored. A std::vector that doubles copies everything it holds each time and
// faults in fresh pages for the copy: the runtime's two per-request vectors (latency and
// slowdown, 6.7 M values each in the inference benchmark) cost about a seventh of that run's
// samples that way (perf, docs/ci.md 2026-11-27). Chunks double from 4 KiB (a short series stays small) up to a huge page;
// those of a huge page are allocated aligned and advised as huge pages (sim/core/huge_pages.h).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/core/huge_pages.h"

namespace sharesim {

template <typename T>
class ChunkedSeries {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  ChunkedSeries() = default;
  // A moved-from series is empty (its chunks went with the move; it must not write into them).
  ChunkedSeries(ChunkedSeries&& other) noexcept { take(other); }
  ChunkedSeries& operator=(ChunkedSeries&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }
  ChunkedSeries(const ChunkedSeries&) = delete;
  ChunkedSeries& operator=(const ChunkedSeries&) = delete;
  ~ChunkedSeries() = default;

  void push_back(const T& value) {
    if (tail_used_ == tail_capacity_) add_chunk();
    tail_[tail_used_++] = value;
    ++size_;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Calls f(value) for every value, in the order appended.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t c = 0; c < chunks_.size(); ++c) {
      const std::size_t used = c + 1 == chunks_.size() ? tail_used_ : chunks_[c].capacity;
      const T* values = chunks_[c].values();
      for (std::size_t i = 0; i < used; ++i) f(values[i]);
    }
  }

 private:
  static constexpr std::size_t kFirstChunkBytes = 4096;
  struct Chunk {
    std::unique_ptr<T[]> small;                     // chunks below a huge page
    std::unique_ptr<void, HugeAlignedDelete> huge;  // chunks of a huge page
    std::size_t capacity = 0;
    T* values() const { return small ? small.get() : static_cast<T*>(huge.get()); }
  };
  void take(ChunkedSeries& other) {
    chunks_ = std::move(other.chunks_);
    other.chunks_.clear();
    tail_ = std::exchange(other.tail_, nullptr);
    tail_used_ = std::exchange(other.tail_used_, 0);
    tail_capacity_ = std::exchange(other.tail_capacity_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  void add_chunk() {
    const std::size_t bytes =
        chunks_.empty() ? kFirstChunkBytes : std::min(kHugePageBytes, 2 * chunks_.back().capacity * sizeof(T));
    Chunk chunk;
    chunk.capacity = bytes / sizeof(T);
    if (bytes == kHugePageBytes) {
      chunk.huge.reset(allocate_huge_aligned(bytes));
    } else {
      chunk.small = std::make_unique_for_overwrite<T[]>(chunk.capacity);
    }
    tail_ = chunk.values();
    tail_capacity_ = chunk.capacity;
    tail_used_ = 0;
    chunks_.push_back(std::move(chunk));
  }

  std::vector<Chunk> chunks_;
  T* tail_ = nullptr;
  std::size_t tail_used_ = 0;
  std::size_t tail_capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace sharesim
