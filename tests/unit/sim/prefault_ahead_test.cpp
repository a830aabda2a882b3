#include "sim/core/prefault_ahead.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

namespace sharesim {
namespace {

constexpr std::size_t kPage = 4096;

// A fresh anonymous mapping: none of its pages is mapped until written or prefaulted.
struct FreshPages {
  explicit FreshPages(std::size_t pages) : count(pages) {
    void* mapped = mmap(nullptr, count * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = mapped == MAP_FAILED ? nullptr : static_cast<unsigned char*>(mapped);
  }
  ~FreshPages() {
    if (data != nullptr) munmap(data, count * kPage);
  }
  std::size_t resident() const {
    std::vector<unsigned char> in_core(count);
    if (mincore(data, count * kPage, in_core.data()) != 0) return SIZE_MAX;
    std::size_t pages = 0;
    for (unsigned char page : in_core) pages += page & 1;
    return pages;
  }
  std::size_t count;
  unsigned char* data = nullptr;
};

// Polls until the thread has faulted in `items` (a bound for a stuck thread, not a timing goal).
bool wait_for(const PrefaultAhead& prefault, std::size_t items) {
  for (int i = 0; i < 30'000 && prefault.faulted_items() < items; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return prefault.faulted_items() >= items;
}

TEST(PrefaultAhead, MapsThePagesAheadOfTheFillerNoFurtherThanItsLeadAndChangesNoByte) {
  if (!PrefaultAhead::available()) GTEST_SKIP() << "this kernel lacks madvise(MADV_POPULATE_WRITE) (Linux 5.14)";
  constexpr std::size_t kItems = 64;
  constexpr std::size_t kLead = 16;
  FreshPages pages(kItems);  // one item a page
  ASSERT_NE(pages.data, nullptr);
  ASSERT_EQ(pages.resident(), 0U);
  pages.data[0] = 0xab;  // the filler's first item, written before the thread starts
  PrefaultAhead prefault;
  prefault.start(pages.data, kPage, kItems, kLead);
  ASSERT_TRUE(wait_for(prefault, kLead));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(prefault.faulted_items(), kLead) << "went past its lead";
  EXPECT_EQ(pages.resident(), kLead);
  pages.data[kPage] = 0xcd;  // the filler writes its second item
  prefault.advance(2);
  ASSERT_TRUE(wait_for(prefault, kLead + 2));
  prefault.advance(kItems);
  ASSERT_TRUE(wait_for(prefault, kItems));
  prefault.stop();
  EXPECT_EQ(pages.resident(), kItems);
  EXPECT_EQ(pages.data[0], 0xab);
  EXPECT_EQ(pages.data[kPage], 0xcd);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < kItems * kPage; ++i) nonzero += pages.data[i] != 0 ? 1 : 0;
  EXPECT_EQ(nonzero, 2U);
}

TEST(PrefaultAhead, StopsWhileWaitingForTheFillerAndMapsNoMore) {
  if (!PrefaultAhead::available()) GTEST_SKIP() << "this kernel lacks madvise(MADV_POPULATE_WRITE) (Linux 5.14)";
  FreshPages pages(8);
  ASSERT_NE(pages.data, nullptr);
  PrefaultAhead prefault;
  prefault.start(pages.data, kPage, 8, 1);
  ASSERT_TRUE(wait_for(prefault, 1));
  prefault.stop();  // the thread is waiting for advance(): it must notice and end
  prefault.advance(8);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(prefault.faulted_items(), 1U);
  EXPECT_EQ(pages.resident(), 1U);
}

TEST(PrefaultAhead, WithNoLeadMapsNothing) {
  FreshPages pages(4);
  ASSERT_NE(pages.data, nullptr);
  PrefaultAhead prefault;
  prefault.start(pages.data, kPage, 4, 0);
  prefault.stop();
  EXPECT_EQ(prefault.faulted_items(), 0U);
  EXPECT_EQ(pages.resident(), 0U);
}

}  // namespace
}  // namespace sharesim
