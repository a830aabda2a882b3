#include "sim/core/growing_array.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "sim/core/huge_pages.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sharesim {

#if defined(__linux__)

void* grow_mapping(void* data, std::size_t old_bytes, std::size_t new_bytes) {
  void* grown = data == nullptr
                    ? mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                    : mremap(data, old_bytes, new_bytes, MREMAP_MAYMOVE);
  if (grown == MAP_FAILED && data != nullptr) {
    // mremap wants the old range to be one region of one kind (EFAULT otherwise); should it
    // not be, a fresh mapping and a copy do the same.
    grown = mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (grown != MAP_FAILED) {
      std::memcpy(grown, data, old_bytes);
      munmap(data, old_bytes);
    }
  }
  if (grown == MAP_FAILED) throw std::bad_alloc();
  // Before the new pages are touched, so that they are faulted in as huge pages; the pages
  // already there keep what they were. The whole mapping, which is ours and page-aligned, not
  // only the whole huge pages inside it (advise_huge_pages): advice on part of it split it into
  // regions of different flags, and the next mremap of the whole failed with EFAULT whenever
  // it had grown in place from an address off a 2 MiB boundary (`size` and `sweep -j 2` on
  // scenarios/architect-h100.json said "out of memory" 8 times in 9).
#if defined(MADV_HUGEPAGE)
  if (new_bytes >= kHugePageBytes) madvise(grown, new_bytes, MADV_HUGEPAGE);
#endif
  return grown;
}

void release_mapping(void* data, std::size_t bytes) { munmap(data, bytes); }

#else

void* grow_mapping(void* data, std::size_t /*old_bytes*/, std::size_t new_bytes) {
  void* grown = std::realloc(data, new_bytes);
  if (grown == nullptr) throw std::bad_alloc();
  return grown;
}

void release_mapping(void* data, std::size_t /*bytes*/) { std::free(data); }

#endif

}  // namespace sharesim
