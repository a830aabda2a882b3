#include "workloads/trace_import.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/core/checked_conversion.h"
#include "sim/core/csv_format.h"
#include "sim/input/input_error.h"

namespace sharesim {

void SkipReport::add(const std::string& where, const std::string& problem) {
  // Group by column and the kind of problem: the found value is cut off.
  std::string column = where;
  if (const std::size_t comma = where.find(", column "); comma != std::string::npos) {
    column = where.substr(comma + 2);
  } else if (where.rfind("line ", 0) == 0) {
    column = "row";
  }
  const std::string kind = problem.substr(0, problem.find(", found"));
  Reason& reason = reasons[column + ": " + kind];
  if (reason.count++ == 0) reason.first = where + ": " + problem;
  ++skipped;
}

std::string SkipReport::text() const {
  std::string out = path + ": skipped " + std::to_string(skipped) + " bad row" + (skipped == 1 ? "" : "s") + " of " +
                    std::to_string(skipped + read) + " (skip_bad_rows)";
  std::string sep = ": ";
  for (const auto& [key, reason] : reasons) {
    out += sep + std::to_string(reason.count) + " x " + key.substr(0, key.find(':')) + ", first " + reason.first;
    sep = "; ";
  }
  return out;
}

ImportedTraceSource::ImportedTraceSource(std::unique_ptr<TraceRowReader> reader, TraceImportOptions options,
                                         WorkloadContext& context)
    : reader_(std::move(reader)), options_(std::move(options)), context_(context) {
  origin_ = context_.intern_origin(options_.origin, options_.kind);
  report_.path = reader_->path();
  if (options_.sort) {
    TraceRecord record;
    while (read_record(record)) sorted_.push_back(std::move(record));
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [](const TraceRecord& a, const TraceRecord& b) { return a.submit < b.submit; });
    if (!sorted_.empty() && reader_->shift_to_first()) {
      have_zero_ = true;
      zero_ = sorted_.front().submit;
    }
  }
}

ImportedTraceSource::~ImportedTraceSource() {
  // A run that stops at `until` never reaches the end of the trace: report what was seen. A
  // source nobody read from (validate builds the run's sources, then reads its own) stays quiet,
  // so the skipped rows of a sorted trace (read whole when built) are reported once.
  try {
    if (started_) finish();
  } catch (...) {  // a failing report callback must not escape a destructor
  }
}

void ImportedTraceSource::finish() {
  if (reported_) return;
  reported_ = true;
  if (report_.skipped > 0) context_.note(report_.text());
  if (const std::string note = reader_->end_note(); !note.empty()) context_.note(reader_->path() + ": " + note);
}

bool ImportedTraceSource::read_record(TraceRecord& record) {
  while (true) {
    try {
      if (!reader_->next(record)) return false;
      if (record.gpu_model_id.empty() && record.gpus_per_pod > 0) record.gpu_model_id = options_.gpu_product;
      // The shape must be valid and must fit the cluster: a row that could never run is bad.
      const std::string where = "line " + std::to_string(record.line) + ", column " + reader_->gpu_column();
      const std::uint32_t shape = context_.shape_from_values(record.gpus_per_pod, record.cpu_milli, record.memory_mib,
                                                             record.gpu_model_id, reader_->path(), where);
      if (!context_.capacity_problem(shape, record.pods).empty()) {
        context_.fail_capacity(shape, record.pods, reader_->path(), where);
      }
      return true;
    } catch (const InputError& error) {
      if (!options_.skip_bad_rows || error.file() != reader_->path() || error.where().rfind("line ", 0) != 0 ||
          error.where() == "line 1") {
        throw;  // unreadable files and bad headers are never skipped
      }
      report_.add(error.where(), error.problem());
    }
  }
}

bool ImportedTraceSource::next(JobSpec& out) {
  started_ = true;
  TraceRecord& record = last_;
  SimTime submit = 0;
  while (true) {
    if (options_.sort) {
      if (sorted_next_ == sorted_.size()) {
        finish();
        return false;
      }
      record = std::move(sorted_[sorted_next_++]);
    } else {
      if (!read_record(record)) {
        finish();
        return false;
      }
      if (!have_zero_ && reader_->shift_to_first()) {
        have_zero_ = true;
        zero_ = record.submit;
      }
    }
    const std::string line = "line " + std::to_string(record.line) + ", column ";
    std::string where = line + reader_->submit_column(), problem;
    // Calendar dates from 1678 to 2261 are each a SimTime, but two of them may be further apart
    // than one holds: the offset from the first job must fit too.
    if (__builtin_sub_overflow(record.submit, have_zero_ ? zero_ : 0, &submit)) {
      problem = "expected a trace that spans at most " + std::to_string(kMaxTimeSeconds) +
                " s (about 292 years, what int64 nanoseconds hold) from its first job, found a job " +
                std::to_string(record.submit / kSecond - zero_ / kSecond) + " s after it";
    } else if (submit < last_submit_) {
      std::string previous, found = submit < 0 ? "-" : "";
      append_seconds(previous, last_submit_);
      append_seconds(found, submit < 0 ? -submit : submit);
      problem = "expected rows in non-decreasing submission order, found a job at " + found + " s after one at " +
                previous + " s (times from the trace start); set \"sort\": true in the trace to sort it";
    } else if (problem = end_beyond_time_problem(submit, record.duration); !problem.empty()) {
      where = line + reader_->duration_column();
    } else {
      break;
    }
    if (!options_.skip_bad_rows) throw InputError(reader_->path(), where, problem);
    report_.add(where, problem);
  }
  last_submit_ = submit;
  out = JobSpec{};
  out.arrival = submit;
  out.work = record.duration;
  out.pods = record.pods;
  out.priority = record.priority;
  out.origin = origin_;
  out.sequence = sequence_++;
  // Interned again (cheap, hashed) so the sorted path need not keep shape ids.
  out.shape = context_.with_gpu_fraction(
      context_.shape_from_values(record.gpus_per_pod, record.cpu_milli, record.memory_mib, record.gpu_model_id,
                                 reader_->path(), "line " + std::to_string(record.line)),
      record.gpu_milli);
  ++report_.read;
  return true;
}

std::string end_beyond_time_problem(SimTime arrival, SimTime duration) {
  if (duration < kTimeNever - arrival || duration == kTimeNever) return "";
  std::string at, lasting;
  append_seconds(at, arrival);
  append_seconds(lasting, duration);
  return "expected a job that ends within " + std::to_string(kMaxTimeSeconds) +
         " s (about 292 years, what int64 nanoseconds hold) from the trace start, found one arriving at " + at +
         " s and running " + lasting + " s";
}

std::optional<std::int64_t> parse_calendar_seconds(std::string_view text) {
  // YYYY-MM-DD HH:MM:SS
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  const auto number = [&](std::size_t at, std::size_t len) -> std::optional<int> {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + at, text.data() + at + len, value);
    if (ec != std::errc() || ptr != text.data() + at + len) return std::nullopt;
    return value;
  };
  const auto y = number(0, 4), m = number(5, 2), d = number(8, 2), hh = number(11, 2), mm = number(14, 2),
             ss = number(17, 2);
  if (!y || !m || !d || !hh || !mm || !ss || *m < 1 || *m > 12 || *d < 1 || *hh > 23 || *mm > 59 || *ss > 60) {
    return std::nullopt;
  }
  // No 31 April or 30 February: the day must exist in its month (Gregorian leap years).
  const bool leap = (*y % 4 == 0 && *y % 100 != 0) || *y % 400 == 0;
  constexpr int kDaysIn[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (*d > kDaysIn[*m - 1] + (*m == 2 && leap ? 1 : 0)) return std::nullopt;
  // Days from the civil date (proleptic Gregorian), H. Hinnant's days_from_civil algorithm
  // (http://howardhinnant.github.io/date_algorithms.html).
  const int year = *y - (*m <= 2 ? 1 : 0);
  const int era = (year >= 0 ? year : year - 399) / 400;
  const int yoe = year - era * 400;
  const int doy = (153 * (*m + (*m > 2 ? -3 : 9)) + 2) / 5 + *d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = std::int64_t{era} * 146097 + doe - 719468;
  return days * 86400 + *hh * 3600 + *mm * 60 + *ss;
}

SimTime calendar_time(std::int64_t seconds, const std::string& path, const std::string& where) {
  const std::optional<SimTime> time = checked_seconds_to_time(seconds);
  if (!time) {
    throw InputError(path, where,
                     "expected a date from 1678 to 2261 (what int64 nanoseconds since 1970 hold), found one " +
                         std::string(seconds < 0 ? "before" : "after") + " that range");
  }
  return *time;
}

std::optional<SimTime> parse_decimal_seconds(std::string_view text) {
  const std::size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? "" : text.substr(point + 1);
  const auto digits = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!text.empty() && text != "." && digits(whole) && digits(fraction)) {
    // Exact: whole seconds, then the fraction to the nanosecond, rounded half up.
    std::int64_t seconds = 0;
    for (char c : whole) {
      seconds = seconds * 10 + (c - '0');
      if (seconds > kMaxDecimalSeconds) return std::nullopt;
    }
    SimTime nanos = 0, scale = kSecond;
    for (std::size_t i = 0; i < fraction.size() && i < 10; ++i) {
      scale /= 10;
      nanos += (fraction[i] - '0') * (i < 9 ? scale : 0);
      if (i == 9 && fraction[i] >= '5') ++nanos;
    }
    const SimTime time = seconds * kSecond + nanos;
    if (time > kMaxDecimalSeconds * kSecond) return std::nullopt;
    return time;
  }
  // Other forms Python prints (an exponent, "1e-05"), through a double.
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value) || value < 0 ||
      value > static_cast<double>(kMaxDecimalSeconds)) {
    return std::nullopt;
  }
  return seconds_to_time(value);
}

}  // namespace sharesim
