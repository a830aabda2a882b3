#pragma once
// Range-checked conversions of numbers read from input (trace columns, JSON values, calendar
// dates) into the simulator's integer types. Every importer converts through these, so a value
// that does not fit (a date in year 9999 in int64 nanoseconds, plan_cpu = 1e30 in int64
// millicores) is a located input error instead of undefined behaviour. Each returns nullopt
// when the value is not finite or falls outside the target type; the caller words the error.
#include <cmath>
#include <cstdint>
#include <optional>

#include "sim/core/sim_time.h"

namespace sharesim {

// The largest magnitude of seconds SimTime holds: about 292 years (2^63 - 1 ns).
inline constexpr std::int64_t kMaxTimeSeconds = kTimeNever / kSecond;

// Whole seconds (e.g. since 1970) to SimTime.
inline std::optional<SimTime> checked_seconds_to_time(std::int64_t seconds) {
  if (seconds > kMaxTimeSeconds || seconds < -kMaxTimeSeconds) return std::nullopt;
  return seconds * kSecond;
}

// Decimal seconds to SimTime, rounded to the nearest nanosecond.
inline std::optional<SimTime> checked_seconds_to_time(double seconds) {
  if (!std::isfinite(seconds) || std::fabs(seconds) >= static_cast<double>(kMaxTimeSeconds)) return std::nullopt;
  return seconds_to_time(seconds);
}

// a + b, nullopt when the sum leaves int64 (times and durations summed from input).
inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// A double to int64 after rounding up (ceil) or to nearest; nullopt beyond int64 or not finite.
inline std::optional<std::int64_t> checked_to_int64(double value) {
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!std::isfinite(value) || value >= kTwoTo63 || value < -kTwoTo63) return std::nullopt;
  return static_cast<std::int64_t>(value);
}
inline std::optional<std::int64_t> checked_ceil_to_int64(double value) { return checked_to_int64(std::ceil(value)); }
inline std::optional<std::int64_t> checked_round_to_int64(double value) { return checked_to_int64(std::round(value)); }

}  // namespace sharesim
