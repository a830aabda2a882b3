#include "sim/core/huge_pages.h"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sharesim {

void advise_huge_pages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  // Only whole huge pages inside the buffer: never advise memory that is not ours.
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

void* allocate_huge_aligned(std::size_t bytes) {
  void* data = ::operator new(bytes, std::align_val_t{kHugePageBytes});
  advise_huge_pages(data, bytes);
  return data;
}

void free_huge_aligned(void* data) { ::operator delete(data, std::align_val_t{kHugePageBytes}); }

}  // namespace sharesim
