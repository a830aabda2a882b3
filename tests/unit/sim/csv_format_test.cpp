// The CSV number formatting and row building every output file uses (sim/core/csv_format.h).
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
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

// Every fraction digit position, zeros inside and at the end, against a plain reference: the
// integer part, a point and the nine digits of the fraction with the trailing zeros cut.
TEST(CsvFormat, SecondsMatchAPlainReferenceAtEveryDigitPosition) {
  const auto reference = [](SimTime t) {
    std::string text = t < 0 ? "-" : "";
    const SimTime magnitude = t < 0 ? -t : t;
    text += std::to_string(magnitude / kSecond);
    std::string frac = std::to_string(magnitude % kSecond);
    if (frac == "0") return text;
    frac = std::string(9 - frac.size(), '0') + frac;
    return text + "." + frac.substr(0, frac.find_last_not_of('0') + 1);
  };
  std::uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // Knuth's MMIX LCG
    const auto digit_count = static_cast<int>((state >> 33) % 10);   // 0 to 9 fraction digits
    SimTime unit = 1;  // the last 9 - digit_count digits are zeros
    for (int d = digit_count; d < 9; ++d) unit *= 10;
    const SimTime frac = static_cast<SimTime>((state >> 20) % kSecond) / unit * unit;
    const SimTime t = static_cast<SimTime>((state >> 50) % 100000) * kSecond + frac;
    ASSERT_EQ(seconds(t), reference(t)) << t;
    ASSERT_EQ(seconds(-t), reference(-t)) << -t;
  }
  for (const SimTime t : {SimTime{100'000'000}, SimTime{10}, SimTime{999'999'999}, SimTime{1'000'000'001},
                          SimTime{10'000}, SimTime{7 * kSecond + 10'010'000}}) {
    EXPECT_EQ(seconds(t), reference(t)) << t;
  }
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

// format_double writes small whole numbers as integers: the same text as to_chars's shortest
// form, checked on each of them and on the values around them.
TEST(CsvFormat, DoublesMatchToCharsAroundTheWholeNumberShortcut) {
  const auto shortest = [](double value) {
    char buf[kMaxNumberChars];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
  };
  const auto formatted = [](double value) {
    std::string out;
    append_double(out, value);
    return out;
  };
  for (int i = 0; i <= 10001; ++i) {
    const double value = i;
    ASSERT_EQ(formatted(value), shortest(value)) << i;
    ASSERT_EQ(formatted(-value), shortest(-value)) << -i;
    ASSERT_EQ(formatted(value + 0.5), shortest(value + 0.5)) << i;
    ASSERT_EQ(formatted(std::nextafter(value, 1e9)), shortest(std::nextafter(value, 1e9))) << i;
  }
  for (const double value : {-0.0, 1e5, 1e16, 1e300, std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(formatted(value), shortest(value)) << value;
  }
  EXPECT_EQ(formatted(-0.0), "-0");
  EXPECT_EQ(formatted(1e5), "1e+05");
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

TEST(CsvFormat, FieldsAlreadyInCsvFormAreCopiedAsTheyAre) {
  // csv() takes text checked once by its caller (jobs.csv's origin and kind, a node's name),
  // plain_text_and_integer() a job's name from its origin's prefix; long fields and fields
  // after them keep their order.
  std::string out;
  const std::string long_fields = std::string(80, 'x') + ",\"y,z\"";
  CsvRow(out)
      .plain_text_and_integer("jobs-", 4294967295u)
      .csv("jobs,training")
      .csv("")
      .csv(long_fields)
      .plain_text_and_integer(std::string(63, 'p'), -12)
      .integer(3)
      .end();
  EXPECT_EQ(out, "jobs-4294967295,jobs,training,," + long_fields + "," + std::string(63, 'p') + "-12,3\n");
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
