#include "workloads/csv_reader.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include "sim/core/checked_conversion.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"

namespace sharesim {
void strip_byte_order_mark(std::string& line) {
  if (std::string_view(line).substr(0, kByteOrderMark.size()) == kByteOrderMark) line.erase(0, kByteOrderMark.size());
}

CsvReader::CsvReader(const std::string& path, const std::vector<std::string>& required)
    : path_(path), file_((require_regular_file(path), path)) {
  if (!file_) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  if (!std::getline(file_, line_)) throw InputError(path, "line 1", "expected a header line, found an empty file");
  line_number_ = 1;
  strip_byte_order_mark(line_);
  split(line_);
  header_ = fields_;
  reject_repeated_columns();
  for (const std::string& column : required) {
    if (column_index(column) < 0) {
      std::string found;
      for (const std::string& h : header_) found += (found.empty() ? "" : ",") + h;
      throw InputError(path, "line 1", "expected a column \"" + column + "\" in the header, found \"" + found + "\"");
    }
  }
}

CsvReader::CsvReader(const std::string& path, const std::vector<std::string>& required,
                     const std::vector<std::string>& columns)
    : path_(path), file_((require_regular_file(path), path)) {
  if (!file_) throw InputError(path, "", std::string("cannot read file: ") + std::strerror(errno));
  if (!std::getline(file_, line_)) throw InputError(path, "line 1", "expected a first line, found an empty file");
  line_number_ = 1;
  strip_byte_order_mark(line_);
  split(line_);
  header_ = fields_;
  if (column_index(required.front()) < 0) {
    header_ = columns;  // no header line: the first line is a row
    pending_ = true;
    headerless_ = true;
  } else {
    reject_repeated_columns();
  }
  for (const std::string& column : required) {
    if (column_index(column) < 0) {
      throw InputError(path, "line 1", "expected a column \"" + column + "\" in the header");
    }
  }
}

void CsvReader::reject_misspelt_columns(const std::vector<std::string>& optional_columns,
                                        const std::vector<std::string>& known) const {
  // Candidates: header columns that are not themselves optional columns (creation_time is
  // close to deletion_time, yet a file may have one without the other).
  std::vector<std::string> unknown;
  for (const std::string& name : header_) {
    if (std::find(optional_columns.begin(), optional_columns.end(), name) == optional_columns.end() &&
        std::find(known.begin(), known.end(), name) == known.end())
      unknown.push_back(name);
  }
  for (const std::string& column : optional_columns) {
    if (has_column(column)) continue;
    if (const std::optional<std::string> near = closest_match(column, unknown); near) {
      throw InputError(path_, "line 1",
                       "expected a column \"" + column + "\" (or none), found \"" + *near + "\" in the header");
    }
  }
}

void CsvReader::reject_repeated_columns() const {
  // A field is read by its column's name: of two columns with one name, the second would be
  // ignored without a word.
  for (std::size_t i = 0; i < header_.size(); ++i) {
    for (std::size_t j = i + 1; j < header_.size(); ++j) {
      if (header_[i] == header_[j]) {
        throw InputError(path_, "line 1",
                         "expected each column once in the header, found \"" + header_[i] + "\" as columns " +
                             std::to_string(i + 1) + " and " + std::to_string(j + 1));
      }
    }
  }
}

void CsvReader::split(const std::string& line) {
  fields_.clear();
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields_.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields_.push_back(std::move(field));
  if (quoted) {
    // A field may not span lines here (no sharesim input needs one).
    throw InputError(path_, "line " + std::to_string(line_number_),
                     "expected a closing quote (\") before the end of the line, found none");
  }
}

bool CsvReader::next_row() {
  while (pending_ || std::getline(file_, line_)) {
    if (!pending_) ++line_number_;
    pending_ = false;
    if (line_.empty() || line_ == "\r") continue;
    split(line_);
    if (fields_.size() != header_.size()) {
      // A file without a header line has no header to point at: name its columns instead.
      std::string columns;
      for (const std::string& column : header_) columns += (columns.empty() ? "" : ",") + column;
      throw InputError(path_, "line " + std::to_string(line_number_),
                       "expected " + std::to_string(header_.size()) +
                           (headerless_ ? " fields (" + columns + "; the file has no header line)"
                                        : std::string(" fields as in the header")) +
                           ", found " + std::to_string(fields_.size()));
    }
    return true;
  }
  return false;
}

int CsvReader::column_index(std::string_view column) const {
  for (std::size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == column) return static_cast<int>(i);
  }
  return -1;
}

const std::string& CsvReader::field(std::string_view column) const {
  return fields_[static_cast<std::size_t>(column_index(column))];
}

void CsvReader::fail(std::string_view column, const std::string& problem) const {
  throw InputError(path_, place(column), problem);
}

std::string CsvReader::place(std::string_view column) const {
  return "line " + std::to_string(line_number_) + ", column " + std::string(column);
}

std::int64_t CsvReader::integer(std::string_view column, std::int64_t min_value, std::int64_t max_value) const {
  const std::string& text = field(column);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < min_value || value > max_value) {
    fail(column, "expected an integer from " + std::to_string(min_value) + " to " + std::to_string(max_value) +
                     ", found \"" + text + "\"");
  }
  return value;
}

double CsvReader::number(std::string_view column, double min_value) const {
  const std::string& text = field(column);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value) || value < min_value) {
    char bound[32];
    const auto [end, ec2] = std::to_chars(bound, bound + sizeof bound, min_value);
    fail(column, "expected a number >= " + std::string(bound, end) + ", found \"" + text + "\"");
  }
  return value;
}

SimTime CsvReader::seconds(std::string_view column) const {
  const std::string& text = field(column);
  // Exact decimal: whole seconds, then at most nine fraction digits.
  const auto bad = [&]() {
    fail(column, "expected seconds (a decimal number >= 0 with at most 9 decimals), found \"" + text + "\"");
  };
  const std::size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  if ((whole.empty() && fraction.empty()) || fraction.size() > 9) bad();
  std::int64_t whole_seconds = 0;
  for (char c : whole) {
    if (c < '0' || c > '9' || whole_seconds > kMaxTimeSeconds / 10) bad();
    whole_seconds = whole_seconds * 10 + (c - '0');
  }
  const std::optional<SimTime> whole_time = checked_seconds_to_time(whole_seconds);
  if (!whole_time) bad();
  SimTime fraction_ns = 0, scale = kSecond;
  for (char c : fraction) {
    if (c < '0' || c > '9') bad();
    scale /= 10;
    fraction_ns += (c - '0') * scale;
  }
  // Up to the last nanosecond SimTime holds, so a saturated duration (a "never ends" draw)
  // written by `sharesim generate` reads back exactly.
  const std::optional<SimTime> value = checked_add(*whole_time, fraction_ns);
  if (!value) bad();
  return *value;
}

}  // namespace sharesim
