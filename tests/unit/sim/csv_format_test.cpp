// The CSV number formatting and row building every output file uses (sim/core/csv_format.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "sim/core/csv_format.h"

namespace sharesim {
namespace {

std::string seconds(SimTime t) {
  std::string out;
  append_seconds(out, t);
  return out;
}

TEST(CsvFormat, SecondsAreExactWithTrailingZerosTrimmed) {
  EXPECT_EQ(seconds(0), "0");
  EXPECT_EQ(seconds(3 * kSecond), "3");
  EXPECT_EQ(seconds(12 * kSecond + kSecond / 2), "12.5");
  EXPECT_EQ(seconds(1), "0.000000001");
  EXPECT_EQ(seconds(5'589'241'089), "5.589241089");
  EXPECT_EQ(seconds(-1'500'000'000), "-1.5");
  EXPECT_EQ(seconds(std::numeric_limits<SimTime>::max()), "9223372036.854775807");
}

TEST(CsvFormat, NumbersReadBackAndIntegersKeepTheirSign) {
  std::string out;
  append_double(out, 0.1);
  out += ' ';
  append_double(out, -1.2345678901234567e-308);
  out += ' ';
  append_integer(out, std::numeric_limits<std::int64_t>::min());
  out += ' ';
  append_integer(out, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(out, "0.1 -1.2345678901234567e-308 -9223372036854775808 18446744073709551615");
}

TEST(CsvFormat, RowSeparatesFieldsAndQuotesOnlyWhatNeedsIt) {
  std::string out;
  const std::string long_plain(100, 'x');
  const std::string long_quoted = std::string(70, 'y') + ",z";
  CsvRow(out)
      .text("plain")
      .text("a,b")
      .text("say \"hi\"")
      .text("")
      .text(long_plain)
      .text(long_quoted)
      .integer(-7)
      .seconds(kSecond / 4)
      .seconds_if(false, kSecond)
      .number(2.5)
      .number_if(false, 1.0)
      .end();
  EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",," + long_plain + ",\"" + long_quoted + "\",-7,0.25,,2.5,\n");
}

TEST(CsvFormat, AJobNameIsOneFieldQuotedWhenItsOriginNeedsIt) {
  std::string out;
  CsvRow(out).text("jobs-42").text("a,b-7").integer(1).end();
  EXPECT_EQ(out, "jobs-42,\"a,b-7\",1\n");
}

TEST(CsvFormat, FirstFieldHasNoSeparatorWhateverItsKind) {
  std::string a, b, c;
  CsvRow(a).seconds(kSecond).end();
  CsvRow(b).integer(3).end();
  CsvRow(c).text("n-0").end();
  EXPECT_EQ(a, "1\n");
  EXPECT_EQ(b, "3\n");
  EXPECT_EQ(c, "n-0\n");
}

// A row is gathered on the stack: one longer than its buffer, and one left open (never ended),
// still reach the text whole and in order.
TEST(CsvFormat, LongRowsAndOpenRowsReachTheTextInOrder) {
  std::string out, expected;
  {
    CsvRow row(out);
    for (int i = 0; i < 40; ++i) {
      row.text("field-of-some-length").seconds(i * kSecond + 1);
      expected += std::string(i == 0 ? "" : ",") + "field-of-some-length," + std::to_string(i) + ".000000001";
    }
    row.end();
  }
  expected += '\n';
  EXPECT_EQ(out, expected);
  std::string open;
  { CsvRow(open).text("a").integer(1); }
  EXPECT_EQ(open, "a,1");
}

}  // namespace
}  // namespace sharesim
