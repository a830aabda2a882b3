#pragma once
// Kubernetes extended-resource names interned to small integers, so that per-node and
// per-GPU accounting is array indexing rather than string lookups. The names are the ones
// the real device plugins advertise (DESIGN.md "Sharing policy", question 1).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

using ResourceId = std::uint16_t;

class ResourceNames {
 public:
  ResourceId intern(std::string_view name);
  // Returns the id or -1 when the name was never interned.
  int find(std::string_view name) const;
  const std::string& name(ResourceId id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
};

inline constexpr std::string_view kNvidiaGpu = "nvidia.com/gpu";

}  // namespace sharesim
