#include "sim/cluster/resource_names.h"

#include <stdexcept>

namespace sharesim {

ResourceId ResourceNames::intern(std::string_view name) {
  const int existing = find(name);
  if (existing >= 0) return static_cast<ResourceId>(existing);
  if (names_.size() >= UINT16_MAX) throw std::length_error("too many distinct extended resource names");
  names_.emplace_back(name);
  return static_cast<ResourceId>(names_.size() - 1);
}

int ResourceNames::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace sharesim
