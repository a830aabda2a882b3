#pragma once
// Microsoft Philly traces (Jeon et al., ATC'19; github.com/msr-fiddle/philly-traces, README
// "cluster_job_log"): one JSON array of jobs, {"status", "vc", "jobid", "attempts":
// [{"start_time", "end_time", "detail": [{"ip", "gpus": [...]}]}], "submitted_time", "user"},
// times as "YYYY-MM-DD HH:MM:SS". The array is read one job at a time (the real file is
// about 100k jobs), never loaded whole.
#include <fstream>
#include <string>

#include "workloads/trace_import.h"

namespace sharesim {

class PhillyTraceReader final : public TraceRowReader {
 public:
  explicit PhillyTraceReader(const std::string& path);
  bool next(TraceRecord& out) override;
  const std::string& path() const override { return path_; }
  bool shift_to_first() const override { return true; }
  std::string submit_column() const override { return "submitted_time"; }
  std::string gpu_column() const override { return "attempts"; }
  std::string duration_column() const override { return "attempts"; }

 private:
  // The text of the next top-level JSON object and the line it starts on; false at the end.
  bool next_object(std::string& text, std::size_t& line);
  // What may come next between jobs, for the error message.
  std::string expected_between_jobs() const;

  // Where the reader is in the top-level array, outside any job object.
  enum class ArrayPlace { Before, FirstJobOrEnd, CommaOrEnd, Job, After };

  std::string path_;
  std::ifstream file_;
  std::size_t line_number_ = 1;
  ArrayPlace place_ = ArrayPlace::Before;
};

}  // namespace sharesim
