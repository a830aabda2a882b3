#include "sim/core/growing_array.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace sharesim {
namespace {

TEST(GrowingArray, StartsEmpty) {
  const GrowingArray<std::int64_t> array;
  EXPECT_TRUE(array.empty());
  EXPECT_EQ(array.size(), 0u);
  EXPECT_TRUE(array.values().empty());
}

// 1,000,000 values of 8 bytes: the mapping doubles from one page past 2 MiB (where it is
// advised as huge pages) and is remapped each time; every value is still there, in order.
TEST(GrowingArray, KeepsEveryValueInOrderThroughGrowth) {
  GrowingArray<std::int64_t> array;
  constexpr std::int64_t kCount = 1'000'000;
  for (std::int64_t i = 0; i < kCount; ++i) array.push_back(i * 7 - 3);
  ASSERT_EQ(array.size(), static_cast<std::size_t>(kCount));
  const std::span<const std::int64_t> values = std::as_const(array).values();
  bool in_order = true;
  for (std::int64_t i = 0; i < kCount; ++i) in_order = in_order && values[static_cast<std::size_t>(i)] == i * 7 - 3;
  EXPECT_TRUE(in_order);
}

// One span: it can be reordered in place (as compute_run_metrics selects percentiles).
TEST(GrowingArray, ItsValuesAreOneSpanThatCanBeReordered) {
  GrowingArray<double> array;
  for (int i = 0; i < 5'000; ++i) array.push_back(static_cast<double>((i * 7919) % 5'000));
  std::sort(array.values().begin(), array.values().end());
  const std::span<double> values = array.values();
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_EQ(values.front(), 0.0);
  EXPECT_EQ(values.back(), 4'999.0);
}

TEST(GrowingArray, AMovedArrayKeepsItsValuesAndLeavesAnEmptyOne) {
  GrowingArray<double> array;
  for (int i = 0; i < 5'000; ++i) array.push_back(i * 0.5);
  std::vector<GrowingArray<double>> holder;
  holder.push_back(std::move(array));
  EXPECT_TRUE(array.empty());  // NOLINT(bugprone-use-after-move): a moved-from array is empty
  array.push_back(1.5);        // and usable, apart from the moved one
  ASSERT_EQ(holder[0].size(), 5'000u);
  EXPECT_EQ(holder[0].values()[4'999], 4'999 * 0.5);
  EXPECT_EQ(array.size(), 1u);
  GrowingArray<double> other;
  other.push_back(9.0);
  other = std::move(holder[0]);  // the old mapping of `other` is released
  EXPECT_EQ(other.size(), 5'000u);
  EXPECT_EQ(other.values()[1], 0.5);
}

}  // namespace
}  // namespace sharesim
