#pragma once
// Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity): "500m", "2",
// "0.5" CPUs; "16Gi", "512Mi", "1G", "1e9" bytes.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sharesim {

// The largest count a quantity may become (millicores, MiB, thousandths of a device): 2^53, up
// to which a double (what a quantity is read through) holds every integer exactly, and far
// enough below the int64 range that a pod's sum over its containers cannot overflow.
inline constexpr std::int64_t kMaxQuantityCount = std::int64_t{1} << 53;

struct Quantity {
  std::optional<std::int64_t> count;  // the quantity times the scale, rounded up; nullopt: see below
  bool too_large = false;             // a quantity, but past kMaxQuantityCount once scaled
};

// The quantity times `scale`, rounded up (as the scheduler rounds a request up to its smallest
// unit); no count when `value` is not a quantity (a number or a string of one) or is too large.
Quantity parse_quantity(const nlohmann::ordered_json& value, double scale);

inline Quantity cpu_milli_of(const nlohmann::ordered_json& value) { return parse_quantity(value, 1000.0); }
inline Quantity memory_mib_of(const nlohmann::ordered_json& value) {
  return parse_quantity(value, 1.0 / (1024.0 * 1024.0));
}

// Why `value` gave no count, for an InputError: "expected EXPECTED, found X", or, for a
// quantity too large, "expected at most 9007199254740992 UNIT (2^53), found X, too large".
std::string quantity_problem(const Quantity& quantity, const nlohmann::ordered_json& value, const std::string& expected,
                             const std::string& unit);

}  // namespace sharesim
