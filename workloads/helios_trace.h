#pragma once
// SenseTime Helios traces (Hu et al., "Characterization and Prediction of Deep Learning
// Workloads in Large-Scale GPU Datacenters", SC'21; github.com/S-Lab-System-Group/HeliosData,
// read by HeliosArtifact/analysis/trace_parser.py): cluster_log.csv with the columns
// job_id, user, vc, gpu_num, cpu_num, node_num, state, submit_time, start_time, end_time,
// duration, queue; times as "YYYY-MM-DD HH:MM:SS", duration and queue in seconds.
#include "workloads/csv_reader.h"
#include "workloads/trace_import.h"

namespace sharesim {

class HeliosTraceReader final : public TraceRowReader {
 public:
  explicit HeliosTraceReader(const std::string& path);
  bool next(TraceRecord& out) override;
  const std::string& path() const override { return csv_.path(); }
  bool shift_to_first() const override { return true; }
  std::string submit_column() const override { return "submit_time"; }
  std::string gpu_column() const override { return "gpu_num"; }
  std::string duration_column() const override { return "duration"; }

 private:
  CsvReader csv_;
};

}  // namespace sharesim
