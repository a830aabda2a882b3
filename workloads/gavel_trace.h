#pragma once
// Gavel's job-trace format (Narayanan et al., OSDI'20; github.com/stanford-futuredata/gavel,
// scheduler/utils.py parse_trace): one job per line, tab-separated, no header. Three layouts,
// told apart by the number of fields:
//   7: job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time, scale_factor
//      (the traces/msr/seed=*/ files)
//   9: job_type, command, num_steps_arg, needs_data_dir, total_steps, scale_factor,
//      priority_weight, SLO, arrival_time
//  10: job_type, command, working_directory, num_steps_arg, needs_data_dir, total_steps,
//      scale_factor, priority_weight, SLO, arrival_time
// A job runs total_steps iterations on scale_factor GPUs (one worker per GPU); its run time is
// total_steps / throughput, the throughput of (job_type, scale_factor) running alone on the
// chosen worker type in Gavel's throughputs file (simulation_throughputs.json, "null" entry).
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "workloads/trace_import.h"

namespace sharesim {

// (job_type, scale_factor) -> iterations per second alone on one worker type.
using GavelThroughputs = std::map<std::pair<std::string, std::int64_t>, double>;
// Reads Gavel's throughputs JSON for one worker type ("k80", "p100", "v100", ...).
GavelThroughputs read_gavel_throughputs(const std::string& path, const std::string& worker_type);

class GavelTraceReader final : public TraceRowReader {
 public:
  GavelTraceReader(const std::string& path, GavelThroughputs throughputs, std::string worker_type);
  bool next(TraceRecord& out) override;
  const std::string& path() const override { return path_; }
  std::string submit_column() const override { return "arrival_time"; }
  std::string gpu_column() const override { return "scale_factor"; }
  std::string duration_column() const override { return "total_steps"; }

 private:
  [[noreturn]] void fail(const std::string& column, const std::string& problem) const;

  std::string path_;
  std::ifstream file_;
  GavelThroughputs throughputs_;
  std::string worker_type_;
  std::size_t line_number_ = 0;
};

}  // namespace sharesim
