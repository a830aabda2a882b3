#include "sim/core/prefetch_lines.h"

#include <gtest/gtest.h>

#include <array>
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

// A hint never changes memory.
TEST(PrefetchLines, LeavesMemoryAsItWas) {
  std::array<std::uint8_t, 300> bytes{};
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
  prefetch_lines(bytes.data() + 3, 250);
  prefetch_lines_for_write(bytes.data() + 1, 299);
  for (std::size_t i = 0; i < bytes.size(); ++i) EXPECT_EQ(bytes[i], static_cast<std::uint8_t>(i));
}

}  // namespace
}  // namespace sharesim
