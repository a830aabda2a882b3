#pragma once
// Simulated time: signed 64-bit nanoseconds (DESIGN.md "Time"). A month is 2.6e15 ns,
// far below the 9.2e18 limit, and integer time keeps runs bit-for-bit reproducible.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace sharesim {

using SimTime = std::int64_t;

inline constexpr SimTime kNanosecond = 1;
inline constexpr SimTime kMicrosecond = 1'000;
inline constexpr SimTime kMillisecond = 1'000'000;
inline constexpr SimTime kSecond = 1'000'000'000;
inline constexpr SimTime kMinute = 60 * kSecond;
inline constexpr SimTime kHour = 60 * kMinute;
inline constexpr SimTime kDay = 24 * kHour;
inline constexpr SimTime kTimeNever = std::numeric_limits<SimTime>::max();

// Parses a human duration: a non-negative decimal number followed by one unit,
// ns, us, ms, s, m (minutes), h, d or w ("90s", "2.5ms", "7d"). Returns nullopt on
// anything else (no unit, unknown unit, negative, overflow past int64 nanoseconds).
std::optional<SimTime> parse_duration(std::string_view text);

// Whole-or-fractional seconds to SimTime, rounded to the nearest nanosecond (half away from
// zero); values beyond +-292 years saturate at +-kTimeNever.
SimTime seconds_to_time(double seconds);
inline double time_to_seconds(SimTime t) { return static_cast<double>(t) / 1e9; }

// Shortest exact-ish human form, e.g. "1.5s", "7d", "250ms".
std::string format_duration(SimTime t);

}  // namespace sharesim
