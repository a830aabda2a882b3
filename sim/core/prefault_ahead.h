#pragma once
// Faults in a large, reserved buffer's pages on a second thread, a little ahead of the thread
// that fills it. The kernel zeroes each fresh page on its first write, inside that write's page
// fault: as a million-job run's job table grew (128 bytes a job), the clearing of fresh pages
// under the arrivals was 19% of the samples of the M/M/8 run and 12% of the run on 10,000 GPUs
// (perf, docs/ci.md), on the simulation's thread. Here the faults are taken by
// madvise(MADV_POPULATE_WRITE) (Linux 5.14; it fills page tables as a write would, without
// changing a byte), so the simulation's thread finds the pages mapped. Where the call is missing
// or refused the thread stops and nothing else changes; the buffer's contents never depend on it.
//
// The thread stays at most `lead` items ahead of advance()'s count, so a run that ends early (an
// `until`) does not map the whole reservation. GrowingArray (growing_array.h) gives a lead of
// the whole fresh half of its mapping and never advances: that thread ends once it is mapped.
#include <atomic>
#include <cstddef>
#include <thread>

namespace sharesim {

class PrefaultAhead {
 public:
  PrefaultAhead() = default;
  PrefaultAhead(const PrefaultAhead&) = delete;
  PrefaultAhead& operator=(const PrefaultAhead&) = delete;
  ~PrefaultAhead() { stop(); }

  // Starts faulting in the pages of [data, data + capacity * item_bytes), in order, up to `lead`
  // items past the last advance(). Stops a thread already running first.
  void start(void* data, std::size_t item_bytes, std::size_t capacity, std::size_t lead);
  // The filling thread has written `items` items.
  void advance(std::size_t items) { used_.store(items, std::memory_order_relaxed); }
  // Waits for the thread to stop. Call before the buffer is freed or moved.
  void stop();
  // Whether this kernel offers MADV_POPULATE_WRITE; start() does nothing where it does not.
  static bool available();
  // Items whose pages the thread has faulted in so far (for tests).
  std::size_t faulted_items() const { return faulted_.load(std::memory_order_acquire); }

 private:
  void fault_in(char* data, std::size_t item_bytes, std::size_t capacity, std::size_t lead);

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> used_{0};
  std::atomic<std::size_t> faulted_{0};
};

}  // namespace sharesim
