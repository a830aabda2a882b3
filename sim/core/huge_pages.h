#pragma once
// Asks the kernel to back a large, not yet touched buffer with 2 MiB transparent huge pages
// (madvise(MADV_HUGEPAGE); effective where /sys/kernel/mm/transparent_hugepage/enabled is
// "madvise" or "always"). A million-job run touches a few hundred MiB of job tables once;
// with 4 KiB pages that is tens of thousands of page faults, a measurable share of the run
// (README, "Performance"). A hint only: nothing changes where it is ignored.
#include <cstddef>

namespace sharesim {

void advise_huge_pages(const void* data, std::size_t bytes);

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Memory for a buffer of `bytes` (a multiple of kHugePageBytes) aligned to a huge page and
// advised as huge pages before anything touches it, so that all of it is faulted in as huge
// pages (a buffer of the heap is advised only in the whole huge pages it happens to span).
// Released with free_huge_aligned, or owned by a std::unique_ptr<T, HugeAlignedDelete>.
void* allocate_huge_aligned(std::size_t bytes);
void free_huge_aligned(void* data);
struct HugeAlignedDelete {
  void operator()(void* data) const { free_huge_aligned(data); }
};

}  // namespace sharesim
