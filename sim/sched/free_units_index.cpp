#include "sim/sched/free_units_index.h"

#include <algorithm>

namespace sharesim {

FreeUnitsIndex::FreeUnitsIndex(std::size_t node_count) : count_(node_count) {
  while (leaves_ < node_count) leaves_ *= 2;
  tree_.assign(2 * leaves_, -1);  // padding leaves stay -1 so they never satisfy a request
  for (std::size_t n = 0; n < node_count; ++n) tree_[leaves_ + n] = 0;
  for (std::size_t i = leaves_ - 1; i >= 1; --i) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
}

void FreeUnitsIndex::set(std::size_t node, std::int64_t free_units) {
  std::size_t i = leaves_ + node;
  tree_[i] = free_units;
  for (i /= 2; i >= 1; i /= 2) {
    const std::int64_t value = std::max(tree_[2 * i], tree_[2 * i + 1]);
    if (tree_[i] == value) break;  // ancestors already agree
    tree_[i] = value;
  }
}

std::size_t FreeUnitsIndex::first_at_least(std::int64_t need, std::size_t from) const {
  if (from >= count_) return SIZE_MAX;
  // Walk up from the leaf `from`, looking right for a subtree whose max suffices, then down.
  std::size_t i = leaves_ + from;
  if (tree_[i] >= need) return from;
  while (true) {
    // Move to the next subtree to the right at the lowest level possible.
    while (i % 2 == 1) {
      i /= 2;
      if (i == 0) return SIZE_MAX;
    }
    ++i;  // right sibling
    if (tree_[i] >= need) break;
    if ((i & (i + 1)) == 0) return SIZE_MAX;  // i was the rightmost node of its level
  }
  while (i < leaves_) i = tree_[2 * i] >= need ? 2 * i : 2 * i + 1;
  const std::size_t node = i - leaves_;
  return node < count_ ? node : SIZE_MAX;
}

}  // namespace sharesim
