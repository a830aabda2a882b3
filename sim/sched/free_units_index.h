#pragma once
// A max segment tree over nodes of the free units of one extended resource. It answers
// "the first node at or after i with at least k free units" in O(log n), so placement never
// scans every node per pod (issue #2: 1M pods on 10,000 GPUs).
#include <cstdint>
#include <vector>

namespace sharesim {

class FreeUnitsIndex {
 public:
  explicit FreeUnitsIndex(std::size_t node_count);  // every node starts with 0 free units

  void set(std::size_t node, std::int64_t free_units);
  std::int64_t get(std::size_t node) const { return tree_[leaves_ + node]; }
  std::int64_t max_free() const { return tree_[1]; }
  // Smallest node index >= from whose free units are >= need; SIZE_MAX when none.
  std::size_t first_at_least(std::int64_t need, std::size_t from) const;

 private:
  std::size_t leaves_ = 1;
  std::size_t count_ = 0;
  std::vector<std::int64_t> tree_;  // 1-based heap layout; unused leaves hold -1
};

}  // namespace sharesim
