#pragma once
// Deterministic, locale-free number formatting for the CSV outputs.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/sim_time.h"

namespace sharesim {

// Each formatter writes at most kMaxNumberChars characters at `p` and returns the end. A CSV
// field is formatted into a local buffer and appended once: string::append(first, last) goes
// through replace(), and one append per digit group showed as 10% of a million-job run's
// jobs.csv time under perf.
inline constexpr std::size_t kMaxNumberChars = 32;

// Exact decimal seconds of an integer-nanosecond time, trailing zeros trimmed: "12.5", "3".
inline char* format_seconds(char* p, SimTime t) {
  if (t < 0) {
    *p++ = '-';
    t = -t;
  }
  p = std::to_chars(p, p + 20, t / kSecond).ptr;
  SimTime frac = t % kSecond;
  if (frac == 0) return p;
  char digits[9];
  for (int i = 8; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  int last = 8;
  while (digits[last] == '0') --last;
  *p++ = '.';
  for (int i = 0; i <= last; ++i) *p++ = digits[i];
  return p;
}

// Shortest text that reads back to the same double (std::to_chars, no locale).
inline char* format_double(char* p, double value) { return std::to_chars(p, p + 24, value).ptr; }

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

// Whether a field holds a comma, quote or newline (RFC 4180). One pass over the field:
// string_view::find_first_of calls memchr on the three-character set for every character of
// the field, 8% of a million-job M/M/8 run's samples under perf.
inline bool needs_csv_quotes(std::string_view field) {
  for (const char c : field) {
    if (c == ',' || c == '"' || c == '\n') return true;
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
// first, and end() closes the row. Text fields are quoted only when they need it.
class CsvRow {
 public:
  explicit CsvRow(std::string& out) : out_(out) {}
  CsvRow& text(std::string_view field) {
    // A short field that needs no quotes goes out with its separator in one append (each
    // append and push_back is a call into libstdc++).
    char buf[kShortField + 1];
    if (field.size() <= kShortField && !needs_csv_quotes(field)) {
      char* p = buf;
      if (started_) *p++ = ',';
      started_ = true;
      for (const char c : field) *p++ = c;
      out_.append(buf, static_cast<std::size_t>(p - buf));
      return *this;
    }
    separate();
    append_csv_field(out_, field);
    return *this;
  }
  // "<name>-<number>" as one field (a job's name: its origin and sequence), without building a
  // string per row: the number's digits never need quotes, so the field needs them only when
  // `name` does.
  CsvRow& name_and_number(std::string_view name, std::uint64_t number) {
    separate();
    if (needs_csv_quotes(name)) {
      std::string field(name);
      field += '-';
      append_integer(field, number);
      append_csv_field(out_, field);
      return *this;
    }
    out_ += name;
    out_ += '-';
    append_integer(out_, number);
    return *this;
  }
  template <typename Integer>
  CsvRow& integer(Integer value) {
    return formatted([value](char* p) { return format_integer(p, value); });
  }
  CsvRow& seconds(SimTime t) {
    return formatted([t](char* p) { return format_seconds(p, t); });
  }
  // Seconds when `known`, an empty field otherwise (a job that has not started yet...).
  CsvRow& seconds_if(bool known, SimTime t) {
    return formatted([known, t](char* p) { return known ? format_seconds(p, t) : p; });
  }
  CsvRow& number(double value) {
    return formatted([value](char* p) { return format_double(p, value); });
  }
  // A number when `known`, an empty field otherwise.
  CsvRow& number_if(bool known, double value) {
    return formatted([known, value](char* p) { return known ? format_double(p, value) : p; });
  }
  void end() { out_ += '\n'; }

 private:
  void separate() {
    if (started_) out_ += ',';
    started_ = true;
  }
  // The separator and a number, formatted by `format` (one of the format_* above), in one append.
  template <typename Format>
  CsvRow& formatted(const Format& format) {
    char buf[kMaxNumberChars + 1];
    char* p = buf;
    if (started_) *p++ = ',';
    started_ = true;
    out_.append(buf, static_cast<std::size_t>(format(p) - buf));
    return *this;
  }
  static constexpr std::size_t kShortField = 63;
  std::string& out_;
  bool started_ = false;
};

}  // namespace sharesim
