#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/core/chunked_series.h"
#include "sim/core/huge_pages.h"

namespace sharesim {
namespace {

TEST(ChunkedSeries, AnEmptySeriesVisitsNothing) {
  const ChunkedSeries<std::int64_t> series;
  EXPECT_TRUE(series.empty());
  EXPECT_EQ(series.size(), 0u);
  std::size_t visited = 0;
  series.for_each([&](std::int64_t) { ++visited; });
  EXPECT_EQ(visited, 0u);
}

// 1,000,000 values of 8 bytes span the doubling chunks (4 KiB up to 2 MiB) and several chunks
// of 2 MiB; every value comes back once, in the order appended.
TEST(ChunkedSeries, KeepsEveryValueInOrderAcrossChunks) {
  ChunkedSeries<std::int64_t> series;
  constexpr std::int64_t kCount = 1'000'000;
  for (std::int64_t i = 0; i < kCount; ++i) series.push_back(i * 7 - 3);
  EXPECT_EQ(series.size(), static_cast<std::size_t>(kCount));
  std::int64_t next = 0;
  bool in_order = true;
  series.for_each([&](std::int64_t value) {
    in_order = in_order && value == next * 7 - 3;
    ++next;
  });
  EXPECT_TRUE(in_order);
  EXPECT_EQ(next, kCount);
}

TEST(ChunkedSeries, AMovedSeriesKeepsItsValues) {
  ChunkedSeries<double> series;
  for (int i = 0; i < 5'000; ++i) series.push_back(i * 0.5);
  std::vector<ChunkedSeries<double>> holder;
  holder.push_back(std::move(series));
  holder.emplace_back();  // may move the first element again
  std::vector<double> seen;
  holder.front().for_each([&](double value) { seen.push_back(value); });
  ASSERT_EQ(seen.size(), 5'000u);
  EXPECT_EQ(seen.back(), 4'999 * 0.5);
  holder.front().push_back(-1.0);
  EXPECT_EQ(holder.front().size(), 5'001u);
  // The moved-from series is empty and writes into chunks of its own.
  EXPECT_TRUE(series.empty());  // NOLINT(bugprone-use-after-move): what a move leaves is specified here
  series.push_back(2.0);
  EXPECT_EQ(series.size(), 1u);
  EXPECT_EQ(holder.front().size(), 5'001u);
  std::size_t visited = 0;
  holder.front().for_each([&](double) { ++visited; });
  EXPECT_EQ(visited, 5'001u);
}

TEST(HugePages, AHugeAlignedBufferStartsOnAHugePage) {
  void* data = allocate_huge_aligned(kHugePageBytes);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(data) % kHugePageBytes, 0u);
  static_cast<char*>(data)[kHugePageBytes - 1] = 1;  // all of it is ours
  free_huge_aligned(data);
}

}  // namespace
}  // namespace sharesim
