#pragma once
// A GPU's residents, in the order they joined (round-robin policies use it). The first
// kInPlace are held inside the list, and so inside the GPU record (cluster.h): a job's start
// and end find them at an address known from the GPU's index, where a heap array is known
// only once the record has arrived from memory (issue 16: on 100,000 GPUs that second cache
// miss was most of ClusterRuntime::vacate; docs/ci.md "2026-11-27, fourth stop"). With more
// residents all of them move to a heap array, and back in place when they are few again.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

class ResidentList {
 public:
  // One: an exclusive GPU never holds more, and a shared one is most often alone or empty.
  static constexpr std::size_t kInPlace = 1;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Resident* data() { return in_place() ? in_place_.data() : spilled_.data(); }
  const Resident* data() const { return in_place() ? in_place_.data() : spilled_.data(); }
  Resident* begin() { return data(); }
  Resident* end() { return data() + size_; }
  const Resident* begin() const { return data(); }
  const Resident* end() const { return data() + size_; }
  Resident& operator[](std::size_t i) { return data()[i]; }
  const Resident& operator[](std::size_t i) const { return data()[i]; }
  Resident& back() { return data()[size_ - 1]; }
  const Resident& back() const { return data()[size_ - 1]; }

  void push_back(const Resident& resident) {
    if (size_ < kInPlace) {
      in_place_[size_++] = resident;
      return;
    }
    if (size_ == kInPlace) spilled_.assign(in_place_.begin(), in_place_.end());
    spilled_.push_back(resident);
    ++size_;
  }
  // Removes the residents `remove` holds true for; the others keep their order. Returns how many.
  template <typename Predicate>
  std::size_t erase_if(Predicate remove) {
    Resident* const gone = std::remove_if(begin(), end(), remove);
    const auto removed = static_cast<std::size_t>(end() - gone);
    truncate(size_ - removed);
    return removed;
  }
  void clear() { truncate(0); }

 private:
  bool in_place() const { return size_ <= kInPlace; }
  // Keeps the first `count` residents.
  void truncate(std::size_t count) {
    const bool was_spilled = !in_place();
    size_ = static_cast<std::uint32_t>(count);
    if (!was_spilled) return;
    if (in_place()) {
      std::copy_n(spilled_.begin(), size_, in_place_.begin());
      spilled_.clear();  // keeps its capacity for the next time the GPU fills up
    } else {
      spilled_.resize(size_);
    }
  }

  std::uint32_t size_ = 0;
  std::array<Resident, kInPlace> in_place_;
  std::vector<Resident> spilled_;  // every resident while there are more than kInPlace
};

}  // namespace sharesim
