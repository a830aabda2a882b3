#include "sim/core/prefault_ahead.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sharesim {
namespace {

constexpr std::uintptr_t kPage = 4096;

std::uintptr_t page_up(std::uintptr_t address) { return (address + kPage - 1) & ~(kPage - 1); }

// Maps [begin, end) (page-aligned) for writing. False when the kernel cannot.
bool populate_for_write(std::uintptr_t begin, std::uintptr_t end) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  return end <= begin || madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
#else
  (void)begin;
  (void)end;
  return false;
#endif
}

}  // namespace

bool PrefaultAhead::available() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // An empty range at an aligned address: the kernel checks the advice before the range, so
  // this answers 0 where the advice is known and EINVAL where it is not, touching nothing.
  return madvise(reinterpret_cast<void*>(kPage), 0, MADV_POPULATE_WRITE) == 0;
#else
  return false;
#endif
}

void PrefaultAhead::start(void* data, std::size_t item_bytes, std::size_t capacity, std::size_t lead) {
  stop();
  stop_.store(false);
  used_.store(0, std::memory_order_relaxed);
  faulted_.store(0, std::memory_order_relaxed);
  if (data == nullptr || item_bytes == 0 || capacity == 0 || lead == 0 || !available()) return;
  thread_ = std::thread(
      [this, data, item_bytes, capacity, lead] { fault_in(static_cast<char*>(data), item_bytes, capacity, lead); });
}

void PrefaultAhead::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void PrefaultAhead::fault_in(char* data, std::size_t item_bytes, std::size_t capacity, std::size_t lead) {
  // Only whole pages inside the buffer: the pages at its ends may hold other objects, and their
  // owners fault them in themselves. A 2 MiB step is one transparent huge page where those apply.
  const auto base = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = page_up(base);
  const std::uintptr_t last = (base + capacity * item_bytes) & ~(kPage - 1);
  const std::size_t step_items = std::max<std::size_t>(1, (std::size_t{2} << 20) / item_bytes);
  std::uintptr_t mapped = first;
  std::size_t done = 0;
  while (done < capacity && !stop_.load(std::memory_order_relaxed)) {
    const std::size_t allowed = std::min(capacity, used_.load(std::memory_order_relaxed) + lead);
    if (done >= allowed) {
      // `lead` items ahead: wait. A million-job run adds about 1,000 items a millisecond, so a
      // lead of many thousands leaves room for a coarse wait (each wake-up costs CPU time).
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    const std::size_t next = std::min(allowed, done + step_items);
    const std::uintptr_t until = std::min(last, std::max(first, page_up(base + next * item_bytes)));
    if (!populate_for_write(mapped, std::max(mapped, until))) return;
    mapped = std::max(mapped, until);
    done = next;
    faulted_.store(done, std::memory_order_release);
  }
}

}  // namespace sharesim
