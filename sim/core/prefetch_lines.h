#pragma once
// Asks for every cache line of an object at once, so that their misses overlap instead of
// coming one after another as the object is read. Used where a record of a large table is
// about to be read and is most likely not in the caches (a job's record before its completion,
// a GPU's usage record, the event queue's next block of keys). A hint only: it never faults,
// whatever the address.
#include <cstddef>
#include <cstdint>

namespace sharesim {

inline constexpr std::size_t kCacheLineBytes = 64;

// The cache lines that [address, address + bytes) touches: the first one's address and how
// many. An object of two lines' size that does not start on a line touches three.
struct CacheLines {
  std::uintptr_t first = 0;
  std::size_t count = 0;
};
constexpr CacheLines cache_lines_of(std::uintptr_t address, std::size_t bytes) {
  constexpr std::uintptr_t kLineMask = ~std::uintptr_t{kCacheLineBytes - 1};
  if (bytes == 0) return {address & kLineMask, 0};
  const std::uintptr_t first = address & kLineMask;
  const std::uintptr_t last = (address + bytes - 1) & kLineMask;
  return {first, static_cast<std::size_t>((last - first) / kCacheLineBytes + 1)};
}

namespace detail {
// GCC 12 at -O3 deletes a loop whose body is nothing but __builtin_prefetch once it can count
// the loop's trips: a first version of this function compiled to a bare `ret`, and without the
// job record's prefetch `e2e/1M-jobs-10k-gpus` ran 25 to 35% slower (docs/ci.md). The empty asm
// statement, which takes the line's address, makes every trip something the compiler must keep.
template <int kForWrite>
inline void prefetch_lines(const void* address, std::size_t bytes) {
  const CacheLines lines = cache_lines_of(reinterpret_cast<std::uintptr_t>(address), bytes);
  for (std::size_t i = 0; i < lines.count; ++i) {
    const std::uintptr_t line = lines.first + i * kCacheLineBytes;
    __builtin_prefetch(reinterpret_cast<const void*>(line), kForWrite);
    asm volatile("" : : "r"(line));
  }
}
}  // namespace detail

// Every cache line of [address, address + bytes), for reading.
inline void prefetch_lines(const void* address, std::size_t bytes) { detail::prefetch_lines<0>(address, bytes); }
// The same for an object that will be written: the lines are fetched for ownership.
inline void prefetch_lines_for_write(const void* address, std::size_t bytes) {
  detail::prefetch_lines<1>(address, bytes);
}

}  // namespace sharesim
