#include "sim/core/sim_time.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace sharesim {
namespace {

struct Unit {
  std::string_view suffix;
  SimTime ns;
};
// Longest suffixes first so "ms" is not read as "m" followed by junk.
constexpr std::array<Unit, 8> kUnits{{{"ns", kNanosecond},
                                      {"us", kMicrosecond},
                                      {"ms", kMillisecond},
                                      {"s", kSecond},
                                      {"m", kMinute},
                                      {"h", kHour},
                                      {"d", kDay},
                                      {"w", 7 * kDay}}};

}  // namespace

std::optional<SimTime> parse_duration(std::string_view text) {
  std::size_t digits_end = 0;
  bool seen_digit = false, seen_point = false;
  while (digits_end < text.size()) {
    const char c = text[digits_end];
    if (c >= '0' && c <= '9') {
      seen_digit = true;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
    ++digits_end;
  }
  if (!seen_digit) return std::nullopt;
  const std::string_view number = text.substr(0, digits_end);
  const std::string_view suffix = text.substr(digits_end);
  for (const Unit& unit : kUnits) {
    if (suffix != unit.suffix) continue;
    // Integer part and fraction handled separately so "7d" stays exact.
    const std::size_t point = number.find('.');
    const std::string_view whole = number.substr(0, point);
    const std::string_view frac = point == std::string_view::npos ? std::string_view{} : number.substr(point + 1);
    SimTime value = 0;
    for (char c : whole) {
      const SimTime digit = c - '0';
      if (value > (kTimeNever - digit) / 10) return std::nullopt;
      value = value * 10 + digit;
    }
    if (value > kTimeNever / unit.ns) return std::nullopt;
    value *= unit.ns;
    // Fraction: accumulate digit * unit / 10^k in long double, then round.
    long double fraction_ns = 0;
    long double scale = static_cast<long double>(unit.ns);
    for (char c : frac) {
      scale /= 10;
      fraction_ns += static_cast<long double>(c - '0') * scale;
    }
    const auto rounded = static_cast<SimTime>(std::llround(fraction_ns));
    if (value > kTimeNever - rounded) return std::nullopt;
    return value + rounded;
  }
  return std::nullopt;
}

SimTime seconds_to_time(double seconds) {
  // Round half away from zero, as llround, without its libm call: this runs for every drawn
  // duration and arrival (two per job). Saturates instead of overflowing: a heavy-tailed draw
  // can exceed the 292 years int64 nanoseconds hold.
  constexpr double kLimit = 9.2e18;  // just below 2^63 - 1 ns
  const double ns = seconds * 1e9;
  if (!(ns < kLimit)) return ns != ns ? 0 : kTimeNever;  // NaN (never from validated input) -> 0
  if (!(ns > -kLimit)) return -kTimeNever;
  return ns >= 0 ? static_cast<SimTime>(ns + 0.5) : -static_cast<SimTime>(0.5 - ns);
}

std::string format_duration(SimTime t) {
  if (t == 0) return "0s";
  const bool negative = t < 0;
  const SimTime magnitude = negative ? -t : t;
  constexpr std::array<std::pair<SimTime, const char*>, 7> kFormats{{{kDay, "d"},
                                                                     {kHour, "h"},
                                                                     {kMinute, "m"},
                                                                     {kSecond, "s"},
                                                                     {kMillisecond, "ms"},
                                                                     {kMicrosecond, "us"},
                                                                     {kNanosecond, "ns"}}};
  for (const auto& [unit, name] : kFormats) {
    if (magnitude >= unit) {
      char buf[64];
      if (magnitude % unit == 0) {
        std::snprintf(buf, sizeof buf, "%s%lld%s", negative ? "-" : "", static_cast<long long>(magnitude / unit), name);
      } else {
        std::snprintf(buf, sizeof buf, "%s%.6g%s", negative ? "-" : "",
                      static_cast<double>(magnitude) / static_cast<double>(unit), name);
      }
      return buf;
    }
  }
  return "0s";
}

}  // namespace sharesim
