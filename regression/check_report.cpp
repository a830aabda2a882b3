#include "regression/check_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <ostream>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_set.h"

namespace sharesim {
namespace {

// `text` as a Markdown code span: fenced by one backtick more than its longest run of them
// (CommonMark 6.1), padded with a space when it starts or ends with one; '|' escaped for the table.
std::string markdown_code(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  std::string body;
  for (const char c : text) body += c == '|' ? std::string("\\|") : std::string(1, c);
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// "jobs.completed moved from 10 to 9 (-10.00%)".
std::string moved_text(const MetricRow& row) {
  std::string text = row.name + " moved from " + row.baseline + " to " + row.current;
  if (!row.change.empty()) text += " (" + row.change + ")";
  return text;
}

std::string failure_message(const MetricRow& row) {
  if (row.status == MetricRow::Status::missing) return row.name + " is in the baseline but not in the run";
  std::string text = moved_text(row) + ", tolerance " + row.tolerance;
  if (!row.p_value.empty()) text += ", Welch p = " + row.p_value;
  return text;
}

std::vector<const MetricRow*> moved_rows(const CheckReport& report) {
  std::vector<const MetricRow*> out;
  for (const MetricRow& row : report.rows) {
    if (row.status != MetricRow::Status::same) out.push_back(&row);
  }
  return out;
}

std::string verdict_line(const CheckReport& report) {
  const std::string unchecked =
      report.unchecked() > 0 ? std::to_string(report.unchecked()) + " moved without a tolerance, " : "";
  return std::to_string(report.rows.size()) + " metrics, " + std::to_string(report.moved()) + " moved, " + unchecked +
         std::to_string(report.failures()) + " beyond tolerance: " + (report.failures() > 0 ? "FAIL" : "PASS");
}

}  // namespace

void require_report_paths(const std::vector<std::pair<std::string, std::string>>& reports) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, fs::path>> seen;  // option, the path as the file system resolves it
  for (const auto& [option, path] : reports) {
    if (path.empty()) throw InputError(option, "", "expected a file path, found an empty one");
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw InputError(path, "", "cannot write: it is a directory, not a file");
    // The directories on the way are made when missing: the nearest one that exists must be one.
    for (fs::path dir = fs::path(path).parent_path(); !dir.empty(); dir = dir.parent_path()) {
      const fs::file_status status = fs::status(dir, ec);
      if (fs::exists(status)) {
        if (!fs::is_directory(status)) {
          throw InputError(path, "", "cannot create its directory: " + dir.string() + " is a file, not a directory");
        }
        break;
      }
      if (dir == dir.parent_path()) break;
    }
    const fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
    for (const auto& [other_option, other] : seen) {
      if (!resolved.empty() && resolved == other) {
        throw InputError(option, path, "expected a file of its own, found the file of " + other_option);
      }
    }
    seen.emplace_back(option, resolved);
  }
}

std::size_t CheckReport::failures() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const MetricRow& r) { return r.failed(); }));
}

std::size_t CheckReport::moved() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const MetricRow& r) { return r.status != MetricRow::Status::same; }));
}

std::size_t CheckReport::unchecked() const {
  return static_cast<std::size_t>(std::count_if(
      rows.begin(), rows.end(), [](const MetricRow& r) { return r.status == MetricRow::Status::unchecked; }));
}

std::string format_metric_value(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string format_change(double baseline, double current) {
  char buffer[40];
  if (baseline == current) return "";
  if (baseline == 0) {
    std::snprintf(buffer, sizeof buffer, "%+.6g", current - baseline);
  } else {
    std::snprintf(buffer, sizeof buffer, "%+.2f%%", (current - baseline) / std::fabs(baseline) * 100);
  }
  return buffer;
}

const char* status_name(MetricRow::Status status) {
  switch (status) {
    case MetricRow::Status::same:
      return "same";
    case MetricRow::Status::within:
      return "within";
    case MetricRow::Status::regressed:
      return "REGRESSED";
    case MetricRow::Status::missing:
      return "MISSING";
    case MetricRow::Status::added:
      return "added";
    case MetricRow::Status::unchecked:
      return "unchecked";
  }
  return "";
}

std::string format_report_text(const CheckReport& report) {
  std::string out;
  const auto rows = moved_rows(report);
  if (!rows.empty()) {
    const bool samples = std::any_of(rows.begin(), rows.end(), [](const MetricRow* r) { return !r->p_value.empty(); });
    std::size_t name_width = 6;
    std::size_t value_width = 8;
    for (const MetricRow* r : rows) {
      name_width = std::max(name_width, r->name.size());
      value_width = std::max({value_width, r->baseline.size(), r->current.size()});
    }
    // std::string, not a fixed buffer: a configuration label can be any length.
    const auto left = [](const std::string& text, std::size_t width) {
      return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
    };
    const auto right = [](const std::string& text, std::size_t width) {
      return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
    };
    const auto line = [&](const std::string& name, const std::string& base, const std::string& cur,
                          const std::string& change, const std::string& tol, const std::string& p,
                          const std::string& status) {
      std::string text = left(name, name_width) + "  " + right(base, value_width) + "  " + right(cur, value_width) +
                         "  " + right(change, 9) + "  " + right(tol, 8);
      if (samples) text += "  " + right(p, 8);
      return text + "  " + status + "\n";
    };
    out += line("metric", "baseline", "run", "change", "tol", "p", "status");
    for (const MetricRow* r : rows) {
      out += line(r->name, r->baseline, r->current, r->change, r->tolerance, r->p_value, status_name(r->status));
    }
  }
  for (const std::string& note : report.notes) out += "note: " + note + "\n";
  out += "check: " + verdict_line(report) + "\n";
  return out;
}

std::string format_report_markdown(const CheckReport& report) {
  std::string out = "## " + report.suite + ": " + (report.failures() > 0 ? "FAIL" : "PASS") + "\n\n";
  out += markdown_cell(report.subject) + ": " + verdict_line(report) + ".\n\n";
  for (const std::string& note : report.notes) out += "- " + markdown_cell(note) + "\n";
  if (!report.notes.empty()) out += "\n";
  const auto rows = moved_rows(report);
  if (rows.empty()) return out;
  out += "| metric | baseline | run | change | tolerance | p | status |\n|---|---:|---:|---:|---:|---:|---|\n";
  for (const MetricRow* r : rows) {
    out += "| " + markdown_code(r->name) + " | " + markdown_cell(r->baseline) + " | " + markdown_cell(r->current) +
           " | " + r->change + " | " + r->tolerance + " | " + r->p_value + " | " +
           (r->failed() ? "**" + std::string(status_name(r->status)) + "**" : status_name(r->status)) + " |\n";
  }
  return out;
}

std::string format_report_junit(const CheckReport& report) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string counts =
      " tests=\"" + std::to_string(report.rows.size()) + "\" failures=\"" + std::to_string(report.failures()) + "\"";
  out += "<testsuites name=\"" + xml_escaped(report.suite) + "\"" + counts + ">\n";
  out += "  <testsuite name=\"" + xml_escaped(report.suite) + "\"" + counts + " errors=\"0\" skipped=\"" +
         std::to_string(report.unchecked()) + "\">\n";
  if (!report.notes.empty()) {
    out += "    <properties>\n";
    for (const std::string& note : report.notes) {
      out += "      <property name=\"note\" value=\"" + xml_escaped(note) + "\"/>\n";
    }
    out += "    </properties>\n";
  }
  for (const MetricRow& r : report.rows) {
    out += "    <testcase classname=\"" + xml_escaped(report.suite) + "\" name=\"" + xml_escaped(r.name) + "\"";
    if (r.status == MetricRow::Status::unchecked) {
      out += ">\n      <skipped message=\"" + xml_escaped(moved_text(r) + "; no tolerance applies") +
             "\"/>\n    </testcase>\n";
      continue;
    }
    if (!r.failed()) {
      out += "/>\n";
      continue;
    }
    out += ">\n      <failure message=\"" + xml_escaped(failure_message(r)) + "\" type=\"" + status_name(r.status) +
           "\"/>\n    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace sharesim
