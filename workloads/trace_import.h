#pragma once
// What every trace importer shares (docs/traces.md): a format reader turns one row (or JSON
// record) of a public trace into a TraceRecord, throwing InputError for a bad row after it has
// moved past it; ImportedTraceSource turns records into jobs for a run, checks their order
// and that they fit the cluster, and skips bad rows when asked, counting them by reason and
// reporting the count once (never silently).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/runtime/job_source.h"
#include "workloads/workload_context.h"

namespace sharesim {

// The most GPUs of one pod a trace may ask for: what a native trace row holds (gpus_per_pod), so
// that `trace convert` writes only rows the native reader reads back. openb and PAI cap here too.
inline constexpr std::int64_t kMaxTraceGpusPerPod = 64;

// One job as a trace describes it, before its shape is interned.
struct TraceRecord {
  SimTime submit = 0;    // as read; readers of calendar times return seconds since 1970
  SimTime duration = 0;  // standalone run time
  std::uint32_t pods = 1;
  std::int64_t gpus_per_pod = 0;  // whole nvidia.com/gpu per pod
  // Share of one GPU in thousandths when a pod asks for part of a GPU (openb gpu_milli,
  // PAI plan_gpu < 100); 1000 otherwise. gpus_per_pod is then 1: policies that hand out whole
  // devices run the pod on one GPU, and the fractional policy (hami) on its fraction of one
  // (WorkloadContext::with_gpu_fraction, docs/traces.md).
  std::int64_t gpu_milli = 1000;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::string gpu_model_id;  // catalog id selector; empty = any GPU model
  std::int32_t priority = 0;
  std::string name;  // the trace's own job id, for messages and conversion
  std::size_t line = 0;
};

// A reader of one trace format. next() returns false at the end; on a bad row it throws
// InputError naming the file, the line and the column, positioned after that row so that
// the next call reads on.
class TraceRowReader {
 public:
  virtual ~TraceRowReader() = default;
  virtual bool next(TraceRecord& out) = 0;
  virtual const std::string& path() const = 0;
  // Whether submit times are calendar or epoch-shifted times to be moved so that the first
  // job arrives at 0 (Philly, Helios, PAI), rather than times since the trace start.
  virtual bool shift_to_first() const { return false; }
  // The column whose order is checked, for the out-of-order message.
  virtual std::string submit_column() const { return "submit"; }
  // The column a "no node could ever hold this pod" problem is reported at.
  virtual std::string gpu_column() const { return "gpus"; }
  // The column a run time that ends beyond representable time is reported at.
  virtual std::string duration_column() const { return "duration"; }
  // What the user should know once the trace is read (mappings that loosened a row); "" if none.
  virtual std::string end_note() const { return ""; }
};

// Bad rows skipped, by reason ("column: problem kind"), with the first example of each.
struct SkipReport {
  std::string path;
  std::size_t skipped = 0;
  std::size_t read = 0;  // jobs kept
  struct Reason {
    std::size_t count = 0;
    std::string first;  // "line 12: expected ..."
  };
  std::map<std::string, Reason> reasons;
  void add(const std::string& where, const std::string& problem);
  // "FILE: skipped 3 bad rows of 10 (2 x column a: first at line 4: ...; 1 x ...)".
  std::string text() const;
};

struct TraceImportOptions {
  std::string origin = "trace";  // job names are "<origin>-<n>", n counting kept rows from 0
  std::string kind = "training";
  bool skip_bad_rows = false;
  bool sort = false;        // read everything first and sort by submission (stable)
  std::string gpu_product;  // catalog id for rows whose trace names no GPU model ("" = any)
};

// A job source that reads a trace file row by row (native or imported): what it knows of the row
// behind the job it returned last, for `sharesim trace` and for errors found after the row was
// read (load scaling, ScaledTraceSource).
class TraceRowSource : public JobSource {
 public:
  // The last job's pods' share of one GPU in thousandths: below 1000 for a pod on part of one
  // GPU, 1000 for whole GPUs, 0 for CPU-only pods.
  virtual std::int64_t last_gpu_milli() const = 0;
  virtual const std::string& path() const = 0;
  // "line N, column C" of the last job's submission time.
  virtual std::string last_submit_where() const = 0;
};

// Problem text when a job arriving at `arrival` runs `duration` past the last nanosecond SimTime
// holds (about 292 years; kTimeNever means never): it would stay 'running' forever. "" if it ends,
// and for a duration of kTimeNever itself: a "never ends" draw that `sharesim generate` writes.
std::string end_beyond_time_problem(SimTime arrival, SimTime duration);

class ImportedTraceSource final : public TraceRowSource {
 public:
  ImportedTraceSource(std::unique_ptr<TraceRowReader> reader, TraceImportOptions options, WorkloadContext& context);
  ~ImportedTraceSource() override;
  bool next(JobSpec& out) override;
  const SkipReport& skip_report() const { return report_; }
  // The record behind the job last returned by next() (for conversion and statistics).
  const TraceRecord& last_record() const { return last_; }
  std::int64_t last_gpu_milli() const override { return last_.gpus_per_pod > 0 ? last_.gpu_milli : 0; }
  const std::string& path() const override { return reader_->path(); }
  std::string last_submit_where() const override {
    return "line " + std::to_string(last_.line) + ", column " + reader_->submit_column();
  }

 private:
  bool read_record(TraceRecord& record);  // false at end; skips bad rows when asked
  void finish();                          // reports skipped rows once

  std::unique_ptr<TraceRowReader> reader_;
  TraceImportOptions options_;
  WorkloadContext& context_;
  std::uint32_t origin_ = 0;
  SkipReport report_;
  bool reported_ = false;
  bool started_ = false;  // next() was called
  bool have_zero_ = false;
  SimTime zero_ = 0;
  SimTime last_submit_ = 0;
  std::uint32_t sequence_ = 0;
  TraceRecord last_;
  std::vector<TraceRecord> sorted_;  // only with options_.sort
  std::size_t sorted_next_ = 0;
};

// Seconds since 1970-01-01 of a "YYYY-MM-DD HH:MM:SS" text (no time zone: only differences
// are used); nullopt when malformed.
std::optional<std::int64_t> parse_calendar_seconds(std::string_view text);
// Calendar seconds (from parse_calendar_seconds) as SimTime; throws InputError(path, where)
// for a date SimTime cannot hold (before 1678 or after 2261).
SimTime calendar_time(std::int64_t seconds, const std::string& path, const std::string& where);
// Decimal seconds as printed by Python ("4550879.0", "7363838.000000", "1e-05"); nullopt when
// not a number from 0 to kMaxDecimalSeconds. Plain decimals are read exactly (digits beyond the
// nanosecond rounded half up), never through a double: 8999999999 is 8999999999 s.
std::optional<SimTime> parse_decimal_seconds(std::string_view text);
// The bound of parse_decimal_seconds: a round number below SimTime's 9223372036 s.
inline constexpr std::int64_t kMaxDecimalSeconds = 9'000'000'000;
// What parse_decimal_seconds accepts, for the "expected ..." of a message.
inline const char* const kDecimalSecondsExpected = "seconds (a number from 0 to 9000000000)";

}  // namespace sharesim
