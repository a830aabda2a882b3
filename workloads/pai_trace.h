#pragma once
// Alibaba PAI 2020 traces (Weng et al., "MLaaS in the Wild", NSDI'22; alibaba/clusterdata,
// cluster-trace-gpu-v2020/README.md and data/pai_task_table.header): pai_task_table.csv,
// job_name, task_name, inst_num, status, start_time, end_time, plan_cpu, plan_mem, plan_gpu,
// gpu_type; published without a header line (one is accepted). plan_cpu is in percent of a
// core, plan_gpu in percent of a GPU, plan_mem in GB, times in seconds (shifted by a constant).
// Each task (a role of a job: worker, ps, ...) becomes one sharesim job of inst_num gang pods.
#include "workloads/csv_reader.h"
#include "workloads/trace_import.h"

namespace sharesim {

class PaiTraceReader final : public TraceRowReader {
 public:
  explicit PaiTraceReader(const std::string& path);
  bool next(TraceRecord& out) override;
  const std::string& path() const override { return csv_.path(); }
  bool shift_to_first() const override { return true; }
  std::string submit_column() const override { return "start_time"; }
  std::string gpu_column() const override { return "plan_gpu"; }
  std::string duration_column() const override { return "end_time"; }

 private:
  CsvReader csv_;
};

}  // namespace sharesim
