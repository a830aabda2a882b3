#include "workloads/trace_tools.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "sim/core/csv_format.h"
#include "sim/metrics/percentiles.h"
#include "sim/input/input_error.h"
#include "workloads/native_trace.h"
#include "workloads/trace_import.h"
#include "workloads/workload_builder.h"

namespace sharesim {

namespace {

constexpr std::string_view kTraceSpecPointer = "/workload/trace";

// The trace spec is built from `trace` options; an error inside it is reported against the
// option that set the key ("/workload/trace/gpu_models/G2" -> "--gpu-models: /G2"), since the
// user wrote no scenario. "path" is the trace file itself.
InputError as_option_error(const InputError& error, const nlohmann::json& trace_spec) {
  const std::string_view where = error.where();
  if (where.substr(0, kTraceSpecPointer.size()) != kTraceSpecPointer) return error;
  std::string_view rest = where.substr(kTraceSpecPointer.size());
  if (rest.empty() || rest.front() != '/') return InputError("--format", "", error.problem());
  rest.remove_prefix(1);
  const std::size_t end = rest.find('/');
  const std::string key(rest.substr(0, end));
  const std::string inside(end == std::string_view::npos ? "" : rest.substr(end));
  if (key == "path") return InputError(trace_spec.value("path", ""), inside, error.problem());
  std::string option = "--" + key;
  std::replace(option.begin(), option.end(), '_', '-');
  return InputError(option, inside, error.problem());
}

}  // namespace

TraceFile::TraceFile(const nlohmann::json& trace_spec, const GpuCatalog& catalog,
                     const PerDeviceResourceRules& per_device)
    : context_(shapes_, origins_, names_, catalog, per_device, "--format", "", 1) {
  try {
    sources_ = build_job_sources(nlohmann::json{{"trace", trace_spec}}, context_);
  } catch (const InputError& error) {
    if (error.file() != "--format") throw;
    throw as_option_error(error, trace_spec);
  }
}

TraceFile::~TraceFile() = default;

std::int64_t TraceFile::last_gpu_milli() const {
  // build_job_sources makes a TraceRowSource for every format; the trace tools scale nothing,
  // so no ScaledTraceSource wraps it.
  return dynamic_cast<const TraceRowSource&>(*sources_.front()).last_gpu_milli();
}

TraceStats compute_trace_stats(TraceFile& trace, std::size_t bins) {
  TraceStats stats;
  std::vector<SimTime> arrivals;
  JobSpec job;
  while (trace.source().next(job)) {
    const PodShape& shape = trace.shapes().shapes[job.shape];
    ++stats.jobs;
    stats.pods += job.pods;
    stats.gpus += static_cast<std::uint64_t>(shape.gpu_units) * job.pods;
    if (const std::int64_t milli = trace.last_gpu_milli(); milli > 0 && milli < 1000) stats.fractional_pods += job.pods;
    ++stats.jobs_by_gpus[shape.gpu_units * job.pods];
    arrivals.push_back(job.arrival);
    stats.durations_s.push_back(time_to_seconds(job.work));
  }
  if (arrivals.empty()) return stats;
  stats.first_arrival = arrivals.front();
  stats.last_arrival = arrivals.back();
  const SimTime span = stats.last_arrival - stats.first_arrival;
  if (span == 0) return stats;  // all at one instant: no rate over time, and no bins
  // Bins of whole nanoseconds covering the span; fewer of them when the span has fewer.
  bins = static_cast<std::size_t>(std::min<SimTime>(static_cast<SimTime>(bins), span));
  stats.bin_width = (span + static_cast<SimTime>(bins) - 1) / static_cast<SimTime>(bins);
  stats.arrivals_per_bin.assign(bins, 0);
  for (SimTime t : arrivals) {
    const auto bin = static_cast<std::size_t>((t - stats.first_arrival) / stats.bin_width);
    ++stats.arrivals_per_bin[std::min(bin, bins - 1)];
  }
  return stats;
}

std::string format_trace_stats(const TraceStats& stats, const std::string& title) {
  char line[256];
  std::string out = "trace       " + title + "\n";
  const double span_s = time_to_seconds(stats.last_arrival - stats.first_arrival);
  std::snprintf(line, sizeof line, "jobs        %zu   pods %llu   GPUs %llu   fractional-GPU pods %llu\n", stats.jobs,
                static_cast<unsigned long long>(stats.pods), static_cast<unsigned long long>(stats.gpus),
                static_cast<unsigned long long>(stats.fractional_pods));
  out += line;
  if (stats.jobs == 0) return out;
  // Times as exact seconds (format_seconds): "first 0 s last 5 s", not rounded to whole seconds.
  const auto seconds = [](SimTime t) {
    std::string text;
    append_seconds(text, t);
    return text;
  };
  if (span_s > 0) {
    std::snprintf(line, sizeof line, "arrivals    first %s s   last %s s   span %.2f d   mean %.4f jobs/s\n",
                  seconds(stats.first_arrival).c_str(), seconds(stats.last_arrival).c_str(), span_s / 86400,
                  static_cast<double>(stats.jobs) / span_s);
  } else {
    std::snprintf(line, sizeof line, "arrivals    all at %s s (no span, so no rate)\n", seconds(stats.first_arrival).c_str());
  }
  out += line;
  out += "GPU demand  (GPUs per job: jobs, share)\n";
  for (const auto& [gpus, count] : stats.jobs_by_gpus) {
    std::snprintf(line, sizeof line, "  %6lld  %9zu  %6.2f%%\n", static_cast<long long>(gpus), count,
                  100.0 * static_cast<double>(count) / static_cast<double>(stats.jobs));
    out += line;
  }
  if (!stats.arrivals_per_bin.empty()) {
    std::snprintf(line, sizeof line, "arrival rate over time (%zu bins of %s s: jobs, jobs/h)\n",
                  stats.arrivals_per_bin.size(), seconds(stats.bin_width).c_str());
    out += line;
  }
  for (std::size_t i = 0; i < stats.arrivals_per_bin.size(); ++i) {
    const SimTime from = stats.first_arrival + static_cast<SimTime>(i) * stats.bin_width;
    std::snprintf(line, sizeof line, "  from %12s s  %9zu  %10.2f\n", seconds(from).c_str(), stats.arrivals_per_bin[i],
                  static_cast<double>(stats.arrivals_per_bin[i]) * 3600 / time_to_seconds(stats.bin_width));
    out += line;
  }
  std::vector<double> durations = stats.durations_s;
  const SampleSummary d = summarize(durations);
  std::snprintf(line, sizeof line, "duration    mean %.1f s   p50 %.1f s   p95 %.1f s   p99 %.1f s   max %.1f s\n",
                d.mean, d.p50, d.p95, d.p99, d.max);
  out += line;
  return out;
}

std::size_t write_converted_trace(std::ostream& out, TraceFile& trace) {
  std::string text = native_trace_header() + ",gpu_milli\n";
  std::size_t written = 0;
  JobSpec job;
  while (trace.source().next(job)) {
    const PodShape& shape = trace.shapes().shapes[job.shape];
    CsvRow row(text);
    native_trace_fields(row, job, shape, trace.origins()[job.origin]).integer(trace.last_gpu_milli()).end();
    ++written;
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
  return written;
}

}  // namespace sharesim
