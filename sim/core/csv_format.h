#pragma once
// Deterministic, locale-free number formatting for the CSV outputs.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/sim_time.h"

namespace sharesim {

// Each formatter below writes at most kMaxNumberChars characters at `p` and returns the end, so
// that a number is formatted in place and appended once (string::append(first, last), which the
// append_* helpers used to call, goes through replace()).
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
    if (field.size() <= kShortField && !needs_csv_quotes(field)) {
      char* p = separated(field.size());
      for (const char c : field) *p++ = c;
      end_ = p;
      return *this;
    }
    end_ = separated(0);
    flush();
    append_csv_field(out_, field);
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
  char buffer_[256];
  char* end_ = buffer_;
};

}  // namespace sharesim
