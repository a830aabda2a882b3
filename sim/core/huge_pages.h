#pragma once
// Asks the kernel to back a large, not yet touched buffer with 2 MiB transparent huge pages
// (madvise(MADV_HUGEPAGE); effective where /sys/kernel/mm/transparent_hugepage/enabled is
// "madvise" or "always"). A million-job run touches a few hundred MiB of job tables once;
// with 4 KiB pages that is tens of thousands of page faults, a measurable share of the run
// (README, "Performance"). A hint only: nothing changes where it is ignored.
#include <cstddef>

namespace sharesim {

void advise_huge_pages(const void* data, std::size_t bytes);

}  // namespace sharesim
