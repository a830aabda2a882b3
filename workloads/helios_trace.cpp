#include "workloads/helios_trace.h"

#include "sim/input/error_text.h"

namespace sharesim {

HeliosTraceReader::HeliosTraceReader(const std::string& path)
    : csv_(path, {"job_id", "gpu_num", "cpu_num", "node_num", "submit_time", "duration"}) {}

bool HeliosTraceReader::next(TraceRecord& out) {
  if (!csv_.next_row()) return false;
  out = TraceRecord{};
  out.line = csv_.line_number();
  out.name = csv_.field("job_id");
  const auto submit = parse_calendar_seconds(csv_.field("submit_time"));
  if (!submit) csv_.fail("submit_time", "expected \"YYYY-MM-DD HH:MM:SS\", found " + quote(csv_.field("submit_time")));
  out.submit = calendar_time(*submit, csv_.path(), "line " + std::to_string(out.line) + ", column submit_time");
  const auto duration = parse_decimal_seconds(csv_.field("duration"));
  if (!duration) {
    csv_.fail("duration",
              std::string("expected ") + kDecimalSecondsExpected + ", found " + quote(csv_.field("duration")));
  }
  out.duration = *duration;
  const std::int64_t nodes = csv_.integer("node_num", 1, 100000);
  const std::int64_t gpus = csv_.integer("gpu_num", 0, 1000000);
  const std::int64_t cpus = csv_.integer("cpu_num", 0, 100000000);
  // A job spans node_num nodes: one pod per node, the GPUs and CPUs spread evenly.
  if (gpus % nodes != 0) {
    csv_.fail("gpu_num", "expected a multiple of node_num (" + std::to_string(nodes) + ") to spread evenly, found " +
                             std::to_string(gpus));
  }
  if (gpus / nodes > kMaxTraceGpusPerPod) {
    csv_.fail("gpu_num", "expected at most " + std::to_string(kMaxTraceGpusPerPod) +
                             " GPUs per node (gpu_num / node_num, one pod per node), found " + std::to_string(gpus) +
                             " on " + std::to_string(nodes) + " node" + (nodes == 1 ? "" : "s"));
  }
  out.pods = static_cast<std::uint32_t>(nodes);
  out.gpus_per_pod = gpus / nodes;
  out.cpu_milli = (cpus * 1000 + nodes - 1) / nodes;
  return true;
}

}  // namespace sharesim
