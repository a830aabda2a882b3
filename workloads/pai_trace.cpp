#include "workloads/pai_trace.h"

#include <algorithm>
#include <cmath>

#include "sim/core/checked_conversion.h"
#include "sim/input/error_text.h"

namespace sharesim {
namespace {

const std::vector<std::string> kTaskColumns{"job_name", "task_name", "inst_num", "status",   "start_time",
                                            "end_time", "plan_cpu",  "plan_mem", "plan_gpu", "gpu_type"};

}  // namespace

PaiTraceReader::PaiTraceReader(const std::string& path)
    : csv_(path, {"job_name", "task_name", "inst_num", "start_time", "end_time", "plan_cpu", "plan_mem", "plan_gpu"},
           kTaskColumns) {}

bool PaiTraceReader::next(TraceRecord& out) {
  if (!csv_.next_row()) return false;
  out = TraceRecord{};
  out.line = csv_.line_number();
  out.name = csv_.field("job_name") + "/" + csv_.field("task_name");
  const auto seconds = [&](const char* column) {
    const auto value = parse_decimal_seconds(csv_.field(column));
    if (!value) {
      csv_.fail(column, std::string("expected ") + kDecimalSecondsExpected +
                            "; empty means the task never started or never ended, found " + quote(csv_.field(column)));
    }
    return *value;
  };
  const SimTime start = seconds("start_time");
  const SimTime end = seconds("end_time");
  if (end < start) csv_.fail("end_time", "expected end_time >= start_time, found " + csv_.field("end_time"));
  out.submit = start;
  out.duration = end - start;
  const double instances = csv_.number("inst_num", 1);
  if (instances != std::floor(instances) || instances > 1e6) {
    csv_.fail("inst_num",
              "expected a whole number of instances from 1 to 1000000, found " + quote(csv_.field("inst_num")));
  }
  out.pods = static_cast<std::uint32_t>(instances);
  // plan_cpu: percent of a core (600 = 6 cores); plan_mem: GB, taken as GiB (29.296875 =
  // 30000 MiB in the README's example); plan_gpu: percent of a GPU (50 = half a GPU).
  const auto scaled = [&](const char* column, double factor, const char* unit) {
    const std::optional<std::int64_t> value = checked_ceil_to_int64(csv_.number(column, 0) * factor);
    if (!value)
      csv_.fail(column,
                std::string("expected a number whose ") + unit + " fit in 64 bits, found " + csv_.field(column));
    return *value;
  };
  out.cpu_milli = scaled("plan_cpu", 10, "millicores");
  out.memory_mib = scaled("plan_mem", 1024, "MiB");
  const double gpu_percent = csv_.number("plan_gpu", 0);
  if (gpu_percent > 6400) csv_.fail("plan_gpu", "expected at most 6400 (64 GPUs), found " + csv_.field("plan_gpu"));
  if (gpu_percent > 0 && gpu_percent < 100) {
    out.gpus_per_pod = 1;  // a share of one GPU: a whole GPU under exclusive sharing
    // At least 1 milli: a share that rounds to 0 (plan_gpu 0.0001) is still a share of a GPU,
    // not a request for a whole one.
    out.gpu_milli = std::max<std::int64_t>(1, std::llround(gpu_percent * 10));
  } else {
    out.gpus_per_pod = static_cast<std::int64_t>(std::ceil(gpu_percent / 100));
    out.gpu_milli = out.gpus_per_pod > 0 ? 1000 : 0;
  }
  return true;
}

}  // namespace sharesim
