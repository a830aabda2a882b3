#include "sim/core/sim_time.h"

#include <gtest/gtest.h>

namespace sharesim {
namespace {

TEST(ParseDuration, AcceptsEveryUnit) {
  EXPECT_EQ(parse_duration("90s"), 90 * kSecond);
  EXPECT_EQ(parse_duration("2.5ms"), 2'500'000);
  EXPECT_EQ(parse_duration("7d"), 7 * kDay);
  EXPECT_EQ(parse_duration("1w"), 7 * kDay);
  EXPECT_EQ(parse_duration("3h"), 3 * kHour);
  EXPECT_EQ(parse_duration("15m"), 15 * kMinute);
  EXPECT_EQ(parse_duration("250us"), 250'000);
  EXPECT_EQ(parse_duration("12ns"), 12);
  EXPECT_EQ(parse_duration("0s"), 0);
  EXPECT_EQ(parse_duration("0.000000001s"), 1);
  EXPECT_EQ(parse_duration(".5s"), 500'000'000);
}

TEST(ParseDuration, RejectsMalformedText) {
  EXPECT_FALSE(parse_duration(""));
  EXPECT_FALSE(parse_duration("90"));                     // no unit
  EXPECT_FALSE(parse_duration("s"));                      // no number
  EXPECT_FALSE(parse_duration("-5s"));                    // negative
  EXPECT_FALSE(parse_duration("5 s"));                    // space
  EXPECT_FALSE(parse_duration("5sec"));                   // unknown unit
  EXPECT_FALSE(parse_duration("1.2.3s"));                 // two points
  EXPECT_FALSE(parse_duration("99999999999999999999d"));  // overflow
  EXPECT_FALSE(parse_duration("200000w"));                // > int64 ns
}

TEST(FormatDuration, RoundTripsWholeUnits) {
  EXPECT_EQ(format_duration(7 * kDay), "7d");
  EXPECT_EQ(format_duration(90 * kSecond), "1.5m");
  for (SimTime t : {SimTime{1}, 1'500 * kMillisecond, 90 * kSecond, 36 * kHour, 1'024'000 * kNanosecond}) {
    EXPECT_EQ(parse_duration(format_duration(t)), t) << format_duration(t);
  }
  EXPECT_EQ(format_duration(1'500 * kMillisecond), "1.5s");
  EXPECT_EQ(format_duration(0), "0s");
}

TEST(SecondsToTime, SaturatesBeyondTheInt64Range) {
  EXPECT_EQ(seconds_to_time(1e12), kTimeNever);  // ~31,700 years
  EXPECT_EQ(seconds_to_time(-1e12), -kTimeNever);
  EXPECT_EQ(seconds_to_time(9.0e9), 9'000'000'000'000'000'000);
}

TEST(SecondsToTime, RoundsToNearestNanosecond) {
  EXPECT_EQ(seconds_to_time(1.5), 1'500'000'000);
  EXPECT_EQ(seconds_to_time(1e-9), 1);
  EXPECT_DOUBLE_EQ(time_to_seconds(2 * kSecond), 2.0);
}

}  // namespace
}  // namespace sharesim
