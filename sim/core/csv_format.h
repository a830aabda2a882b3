#pragma once
// Deterministic, locale-free number formatting for the CSV outputs.
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "sim/core/sim_time.h"

namespace sharesim {

// Each formatter below writes at most kMaxNumberChars characters at `p` and returns the end, so
// that a number is formatted in place and appended once (string::append(first, last), which the
// append_* helpers used to call, goes through replace()).
inline constexpr std::size_t kMaxNumberChars = 32;

// "00" to "99": two decimal digits per table lookup.
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
inline char* two_digits(char* p, std::uint32_t value) {
  p[0] = kDigitPairs[2 * value];
  p[1] = kDigitPairs[2 * value + 1];
  return p + 2;
}

// Exact decimal seconds of an integer-nanosecond time, trailing zeros trimmed: "12.5", "3".
// The nine digits of the fraction are written in pairs and the zeros cut off the end (a digit
// per division and a copy were a third of jobs.csv's formatting instructions).
inline char* format_seconds(char* p, SimTime t) {
  if (t < 0) {
    *p++ = '-';
    t = -t;
  }
  p = std::to_chars(p, p + 20, t / kSecond).ptr;
  auto frac = static_cast<std::uint32_t>(t % kSecond);
  if (frac == 0) return p;
  *p++ = '.';
  *p++ = static_cast<char>('0' + frac / 100'000'000);
  frac %= 100'000'000;
  const std::uint32_t high = frac / 10'000, low = frac % 10'000;
  p = two_digits(two_digits(two_digits(two_digits(p, high / 100), high % 100), low / 100), low % 100);
  while (p[-1] == '0') --p;  // stops at the first nonzero digit: the fraction is not zero
  return p;
}

// Shortest text that reads back to the same double (std::to_chars, no locale). Whole numbers
// from 0 to 9999 are that text as integers too (fixed notation is never longer than
// scientific there, and to_chars prefers fixed on a tie), and written so: jobs.csv's
// slowdown is exactly 1 for every job that ran alone, and to_chars of a double was 7% of
// its formatting instructions.
inline char* format_double(char* p, double value) {
  // signbit rules out negatives and -0 (to_chars writes "-0"); NaN fails <=: the cast is defined.
  if (!std::signbit(value) && value <= 9999 && value == static_cast<double>(static_cast<int>(value))) {
    return std::to_chars(p, p + 4, static_cast<int>(value)).ptr;
  }
  return std::to_chars(p, p + 24, value).ptr;
}

template <typename Integer>
inline char* format_integer(char* p, Integer value) {
  return std::to_chars(p, p + 21, value).ptr;
}

inline void append_seconds(std::string& out, SimTime t) {
  char buf[kMaxNumberChars];
  out.append(buf, static_cast<std::size_t>(format_seconds(buf, t) - buf));
}
inline void append_double(std::string& out, double value) {
  char buf[kMaxNumberChars];
  out.append(buf, static_cast<std::size_t>(format_double(buf, value) - buf));
}
template <typename Integer>
inline void append_integer(std::string& out, Integer value) {
  char buf[kMaxNumberChars];
  out.append(buf, static_cast<std::size_t>(format_integer(buf, value) - buf));
}

// Whether a character makes a field need quotes (RFC 4180: comma, quote, newline), by value.
inline constexpr auto kCsvSpecial = [] {
  std::array<bool, 256> special{};
  special[static_cast<unsigned char>(',')] = special[static_cast<unsigned char>('"')] =
      special[static_cast<unsigned char>('\n')] = true;
  return special;
}();
inline bool is_csv_special(char c) { return kCsvSpecial[static_cast<unsigned char>(c)]; }

// Whether a field holds a comma, quote or newline. One pass with a table lookup per
// character: string_view::find_first_of calls memchr on the three-character set for every
// character of the field (8% of a million-job M/M/8 run's samples under perf), and a loop
// written for vectorising cost more than it saved on fields this short.
inline bool needs_csv_quotes(std::string_view field) {
  for (const char c : field) {
    if (is_csv_special(c)) return true;
  }
  return false;
}
// Quotes a field when it needs it.
inline void append_csv_field(std::string& out, std::string_view field) {
  if (!needs_csv_quotes(field)) {
    out += field;
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// One CSV row appended to `out`: each field call puts a comma before every field but the
// first, and end() closes the row. Text fields are quoted only when they need it. Fields are
// gathered in a buffer on the stack and appended to `out` by the row's end (or by the
// destructor, for a row left open), or earlier when a field does not fit: a call into
// libstdc++ per field was a fifth of a million-row jobs.csv's time under perf.
class CsvRow {
 public:
  explicit CsvRow(std::string& out) : out_(out) {}
  CsvRow(const CsvRow&) = delete;
  CsvRow& operator=(const CsvRow&) = delete;
  ~CsvRow() { flush(); }

  CsvRow& text(std::string_view field) {
    if (field.size() <= kShortField) {
      // Copied and checked in one pass; a field that needs quotes is written again below.
      char* const start = separated(field.size());
      char* p = start;
      bool special = false;
      for (const char c : field) {
        special |= is_csv_special(c);
        *p++ = c;
      }
      if (!special) {
        end_ = p;
        return *this;
      }
      end_ = start;
    } else {
      end_ = separated(0);
    }
    flush();
    append_csv_field(out_, field);
    return *this;
  }
  // Fields already in CSV form (quoted where they need it; several may be comma-joined),
  // copied as they are: for text that repeats from row to row, checked once by the caller.
  CsvRow& csv(std::string_view fields) {
    if (fields.size() <= kShortField) {
      char* const p = separated(fields.size());
      std::memcpy(p, fields.data(), fields.size());
      end_ = p + fields.size();
      return *this;
    }
    end_ = separated(0);
    flush();
    out_ += fields;
    return *this;
  }
  // One field: text that needs no quotes, at most kShortField characters (checked by the
  // caller), followed by a number, as a job's name "jobs-12".
  template <typename Integer>
  CsvRow& plain_text_and_integer(std::string_view plain, Integer value) {
    char* const p = separated(kShortField + kMaxNumberChars);
    std::memcpy(p, plain.data(), plain.size());
    end_ = format_integer(p + plain.size(), value);
    return *this;
  }
  template <typename Integer>
  CsvRow& integer(Integer value) {
    end_ = format_integer(separated(kMaxNumberChars), value);
    return *this;
  }
  CsvRow& seconds(SimTime t) {
    end_ = format_seconds(separated(kMaxNumberChars), t);
    return *this;
  }
  // Seconds when `known`, an empty field otherwise (a job that has not started yet...).
  CsvRow& seconds_if(bool known, SimTime t) {
    char* p = separated(kMaxNumberChars);
    end_ = known ? format_seconds(p, t) : p;
    return *this;
  }
  CsvRow& number(double value) {
    end_ = format_double(separated(kMaxNumberChars), value);
    return *this;
  }
  // A number when `known`, an empty field otherwise.
  CsvRow& number_if(bool known, double value) {
    char* p = separated(kMaxNumberChars);
    end_ = known ? format_double(p, value) : p;
    return *this;
  }
  void end() {
    *room(1) = '\n';
    ++end_;
    flush();
  }

 private:
  static constexpr std::size_t kShortField = 63;
  // Where the next `size` characters go, flushing the buffer first when they would not fit.
  char* room(std::size_t size) {
    if (static_cast<std::size_t>(buffer_ + sizeof buffer_ - end_) < size) flush();
    return end_;
  }
  // Room for a separator and a field of up to `size` characters; returns where the field goes.
  char* separated(std::size_t size) {
    char* p = room(size + 1);
    if (started_) *p++ = ',';
    started_ = true;
    return p;
  }
  void flush() {
    if (end_ == buffer_) return;
    out_.append(buffer_, static_cast<std::size_t>(end_ - buffer_));
    end_ = buffer_;
  }
  std::string& out_;
  bool started_ = false;
  char buffer_[256];  // room for a separator and the longest field: 1 + kShortField + kMaxNumberChars
  char* end_ = buffer_;
};

}  // namespace sharesim
