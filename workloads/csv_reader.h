#pragma once
// A streaming CSV reader (RFC 4180: comma separated, optional double quotes, "" escapes a
// quote) that knows its header, so errors can name the file, the line and the column.
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sim_time.h"

namespace sharesim {

// Spreadsheet programs and editors save text as UTF-8 with a byte order mark, which would
// otherwise become part of the first line's first field: removes it from a file's first line.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
void strip_byte_order_mark(std::string& line);

class CsvReader {
 public:
  // Opens the file and reads the header; throws InputError when unreadable or when a
  // column in `required` is missing from the header.
  CsvReader(const std::string& path, const std::vector<std::string>& required);
  // For files published without a header line (Alibaba PAI's tables): when the first line
  // does not name the first required column, `columns` is the header and that line is data.
  CsvReader(const std::string& path, const std::vector<std::string>& required, const std::vector<std::string>& columns);

  // Throws InputError at line 1 when an optional column is absent but the header has a near
  // miss of it ("gpu_spc" for "gpu_spec"): a misspelt optional column would otherwise be ignored
  // silently.
  // Columns in `known` (the required ones, say) are no candidates either: "gpu_milli" is near
  // "cpu_milli".
  void reject_misspelt_columns(const std::vector<std::string>& optional_columns,
                               const std::vector<std::string>& known = {}) const;

  // Reads the next non-empty row; false at end of file.
  bool next_row();

  // Field of the current row by column name (must be a known column).
  const std::string& field(std::string_view column) const;
  bool has_column(std::string_view column) const { return column_index(column) >= 0; }
  std::int64_t integer(std::string_view column, std::int64_t min_value,
                       std::int64_t max_value = std::numeric_limits<std::int64_t>::max()) const;
  double number(std::string_view column, double min_value) const;
  // Non-negative decimal seconds, read exactly to the nanosecond ("12.000000001").
  SimTime seconds(std::string_view column) const;

  // Throws InputError at the current line and the given column.
  [[noreturn]] void fail(std::string_view column, const std::string& problem) const;
  // Where fail points: "line 12, column gpus" (the current line).
  std::string place(std::string_view column) const;

  std::size_t line_number() const { return line_number_; }
  const std::vector<std::string>& columns() const { return header_; }
  const std::string& path() const { return path_; }

 private:
  int column_index(std::string_view column) const;
  void reject_repeated_columns() const;  // throws InputError at line 1
  void split(const std::string& line);  // throws InputError at line_number_ on an unclosed quote

  std::string path_;
  std::ifstream file_;
  std::vector<std::string> header_;
  std::vector<std::string> fields_;
  std::string line_;
  std::size_t line_number_ = 0;
  bool pending_ = false;  // line_ holds a data row not yet returned (headerless files)
  bool headerless_ = false;  // the file has no header line: header_ is the caller's columns
};

}  // namespace sharesim
