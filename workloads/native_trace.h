#pragma once
// sharesim's own trace format (docs/traces.md): a CSV with a header, one job per row,
//   origin,sequence,kind,submit_s,duration_s,pods,gpus_per_pod,cpu_milli,memory_mib,gpu_product,priority
// Rows are in non-decreasing submit_s order. `sharesim generate` writes it from a scenario's
// workload; `"workload": {"trace": {"format": "native", "path": ...}}` replays it.
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/core/csv_format.h"
#include "sim/runtime/job_origin.h"
#include "sim/runtime/job_source.h"
#include "workloads/csv_reader.h"
#include "workloads/trace_import.h"
#include "workloads/workload_context.h"

namespace sharesim {

class NativeTraceReader final : public TraceRowSource {
 public:
  // Opens the file and checks the header; rows are read as the run pulls them. A bad row
  // throws InputError naming the file, the line and the column.
  NativeTraceReader(const std::string& path, WorkloadContext& context);
  bool next(JobSpec& out) override;
  std::int64_t last_gpu_milli() const override { return last_gpu_milli_; }
  const std::string& path() const override { return csv_.path(); }
  std::string last_submit_where() const override {
    return "line " + std::to_string(csv_.line_number()) + ", column submit_s";
  }

 private:
  // The current row's optional measured columns mapped onto a demand (workloads/measured_usage.h).
  PhaseDemand measured_demand() const;
  // Whether the current row has `column` and a value in it (an empty field is not measured).
  bool given(const char* column) const { return csv_.has_column(column) && !csv_.field(column).empty(); }

  CsvReader csv_;
  WorkloadContext& context_;
  SimTime last_submit_ = 0;
  std::int64_t last_gpu_milli_ = 0;
  std::unordered_set<std::uint64_t> seen_names_;  // (origin << 32) | sequence
};

// The header line's fields, comma-joined, without the line end.
std::string native_trace_header();
// One job's native-trace fields added to `row`, not yet ended: a writer may add columns of its
// own (trace convert adds gpu_milli) before calling end().
CsvRow& native_trace_fields(CsvRow& row, const JobSpec& job, const PodShape& shape, const JobOrigin& origin);

// What of a job a native row cannot hold, so that a replay would run it differently: per-GPU
// quantities, a device resource other than nvidia.com/gpu, a node selector, tolerations, a workload
// profile (a demand has columns of its own), a priority class that never preempts,
// a restart policy. "" when the row holds all of it. `default_gpu` is nvidia.com/gpu's id.
std::string native_row_problem(const JobSpec& job, const PodShape& shape, const JobOrigin& origin,
                               ResourceId default_gpu);

// Drains `sources` (merged by arrival; ties by source order) into native-trace rows, with the
// columns sm, bw, duty and gpu_mem_mib of each job's demand (empty where a field is the model's
// default).
// Returns the number of jobs written. `check`, when given, sees each job before it is written
// (and may throw).
using NativeRowCheck = std::function<void(const JobSpec&, const PodShape&, const JobOrigin&)>;
std::size_t write_native_trace(std::ostream& out, std::vector<std::unique_ptr<JobSource>>& sources,
                               const ShapeTable& shapes, const std::vector<JobOrigin>& origins,
                               const NativeRowCheck& check = {});

}  // namespace sharesim
