#include "sim/core/prefetch_lines.h"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace sharesim {
namespace {

// A job record is 128 bytes: two lines where it starts on one, three where it does not (a
// prefetch of its first and last byte alone would miss the middle one).
TEST(CacheLinesOf, CountsEveryLineAnObjectTouches) {
  EXPECT_EQ(cache_lines_of(0x1000, 128).count, 2u);
  EXPECT_EQ(cache_lines_of(0x1000, 128).first, 0x1000u);
  EXPECT_EQ(cache_lines_of(0x1010, 128).count, 3u);
  EXPECT_EQ(cache_lines_of(0x1010, 128).first, 0x1000u);
  EXPECT_EQ(cache_lines_of(0x103f, 2).count, 2u);  // the last byte of one line and the first of the next
  EXPECT_EQ(cache_lines_of(0x1040, 64).count, 1u);
  EXPECT_EQ(cache_lines_of(0x1041, 1).count, 1u);
  EXPECT_EQ(cache_lines_of(0x1041, 0).count, 0u);
  EXPECT_EQ(cache_lines_of(0x1000, 1024).count, 16u);  // an event-queue block
}

// A hint neither reads nor writes: on pages that allow no access at all, where a load or a
// store would end the process with SIGSEGV, every line of an object is prefetched, for reading
// and for writing. (A "prefetch" written as a touch of each line, which some code does to warm
// a buffer, would fault here.)
TEST(PrefetchLines, NeitherReadsNorWritesEvenWhereNoAccessIsAllowed) {
  constexpr std::size_t kBytes = 3 * 4096;
  void* mapped = mmap(nullptr, kBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  const auto* bytes = static_cast<const unsigned char*>(mapped);
  prefetch_lines(bytes + 3, 250);
  prefetch_lines(bytes + 4096 - 64, 128);  // across a page boundary
  prefetch_lines_for_write(bytes + 1, kBytes - 1);
  prefetch_lines(nullptr, 128);
  EXPECT_EQ(munmap(mapped, kBytes), 0);
}

}  // namespace
}  // namespace sharesim
