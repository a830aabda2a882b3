#pragma once
// Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity): "500m", "2",
// "0.5" CPUs; "16Gi", "512Mi", "1G", "1e9" bytes.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace sharesim {

// The quantity times `scale`, rounded up (as the scheduler rounds a request up to its
// smallest unit); nullopt when `value` is not a quantity (a number or a string of one).
std::optional<std::int64_t> parse_quantity(const nlohmann::ordered_json& value, double scale);

inline std::optional<std::int64_t> cpu_milli_of(const nlohmann::ordered_json& value) {
  return parse_quantity(value, 1000.0);
}
inline std::optional<std::int64_t> memory_mib_of(const nlohmann::ordered_json& value) {
  return parse_quantity(value, 1.0 / (1024.0 * 1024.0));
}

}  // namespace sharesim
