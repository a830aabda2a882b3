#include "sim/core/growing_array.h"

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "sim/core/prefault_ahead.h"

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

#if defined(__linux__)
// From a mapping of kPrefaultFromBytes (8 MiB) on, a grow hands the fresh half to a second thread
// that maps its pages before any value is written there (prefault_ahead.h): the mapping's last
// page, far past the last value, becomes resident. Without that thread it stays unmapped until
// written.
// A mapping that starts off a 2 MiB boundary and grows in place past 2 MiB: the huge-page advice
// once covered only the whole huge pages inside it, which split it into regions of different
// flags, and the next mremap of the whole range failed (EFAULT), read as "out of memory": `size`
// and `sweep -j 2` on scenarios/architect-h100.json failed 8 times in 9 (docs/architect.md).
TEST(GrowingArray, AMappingOffAHugePageBoundaryGrowsInPlacePastIt) {
  constexpr std::size_t kPage = 4096;
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  // Free address space with room to grow: a reservation given back, then one page placed a page
  // past a 2 MiB boundary inside it, so that the growth stays in place (nothing is mapped after).
  void* reserved = mmap(nullptr, 32 * kHuge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(reserved, MAP_FAILED);
  const auto aligned = (reinterpret_cast<std::uintptr_t>(reserved) + kHuge - 1) & ~(kHuge - 1);
  ASSERT_EQ(munmap(reserved, 32 * kHuge), 0);
  void* first = mmap(reinterpret_cast<void*>(aligned + kPage), kPage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_NE(first, MAP_FAILED);
  void* data = first;
  std::size_t bytes = kPage;
  static_cast<unsigned char*>(data)[0] = 42;
  while (bytes < 16 * kHuge) {
    ASSERT_NO_THROW(data = grow_mapping(data, bytes, 2 * bytes)) << "growing " << bytes << " bytes";
    bytes *= 2;
    static_cast<unsigned char*>(data)[bytes - 1] = 7;  // the new end is ours
  }
  EXPECT_EQ(static_cast<unsigned char*>(data)[0], 42);  // the first value moved along
  release_mapping(data, bytes);
}

TEST(GrowingArray, FaultsInTheFreshHalfOfALargeMappingAhead) {
  if (!PrefaultAhead::available()) GTEST_SKIP() << "this kernel does not offer MADV_POPULATE_WRITE";
  GrowingArray<std::uint64_t> array;
  constexpr std::size_t kPage = 4096;
  constexpr std::size_t kMappingBytes = GrowingArray<std::uint64_t>::kPrefaultFromBytes;
  const std::size_t half = kMappingBytes / 2 / sizeof(std::uint64_t);
  for (std::size_t i = 0; i <= half; ++i) array.push_back(i);  // one value past the 4 MiB mapping
  ASSERT_EQ(array.capacity() * sizeof(std::uint64_t), kMappingBytes);
  auto* last_page = reinterpret_cast<unsigned char*>(array.values().data()) + kMappingBytes - kPage;
  unsigned char resident = 0;
  // Not a timing goal: the thread's few milliseconds are given up to 30 s on a loaded machine.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    ASSERT_EQ(mincore(last_page, kPage, &resident), 0);
    if ((resident & 1) != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(resident & 1, 1) << "the fresh half's last page was never mapped";
  EXPECT_EQ(array.values()[half], half);  // the values are untouched
  EXPECT_EQ(array.values()[0], 0u);
}
#endif

}  // namespace
}  // namespace sharesim
