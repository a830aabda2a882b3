#pragma once
// Deterministic, locale-free number formatting for the CSV outputs.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/sim_time.h"

namespace sharesim {

// Exact decimal seconds of an integer-nanosecond time, trailing zeros trimmed: "12.5", "3".
inline void append_seconds(std::string& out, SimTime t) {
  if (t < 0) {
    out += '-';
    t = -t;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, t / kSecond);
  out.append(buf, end);
  SimTime frac = t % kSecond;
  if (frac == 0) return;
  char digits[10] = {'.', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
  for (int i = 9; i >= 1; --i) {
    digits[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  int last = 9;
  while (digits[last] == '0') --last;
  out.append(digits, static_cast<std::size_t>(last) + 1);
}

// Shortest text that reads back to the same double (std::to_chars, no locale).
inline void append_double(std::string& out, double value) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, end);
}

template <typename Integer>
inline void append_integer(std::string& out, Integer value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, end);
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
    separate();
    append_csv_field(out_, field);
    return *this;
  }
  template <typename Integer>
  CsvRow& integer(Integer value) {
    separate();
    append_integer(out_, value);
    return *this;
  }
  CsvRow& seconds(SimTime t) {
    separate();
    append_seconds(out_, t);
    return *this;
  }
  // Seconds when `known`, an empty field otherwise (a job that has not started yet...).
  CsvRow& seconds_if(bool known, SimTime t) {
    separate();
    if (known) append_seconds(out_, t);
    return *this;
  }
  CsvRow& number(double value) {
    separate();
    append_double(out_, value);
    return *this;
  }
  // A number when `known`, an empty field otherwise.
  CsvRow& number_if(bool known, double value) {
    separate();
    if (known) append_double(out_, value);
    return *this;
  }
  void end() { out_ += '\n'; }

 private:
  void separate() {
    if (started_) out_ += ',';
    started_ = true;
  }
  std::string& out_;
  bool started_ = false;
};

}  // namespace sharesim
