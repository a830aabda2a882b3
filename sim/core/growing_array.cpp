#include "sim/core/growing_array.h"

#include <cstdlib>
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
  if (grown == MAP_FAILED) throw std::bad_alloc();
  // Before the new pages are touched, so that they are faulted in as huge pages; the pages
  // already there keep what they were (the advice covers only whole huge pages inside).
  if (new_bytes >= kHugePageBytes) advise_huge_pages(grown, new_bytes);
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
