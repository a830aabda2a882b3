#include "sim/metrics/output_files.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>

#include "sim/core/csv_format.h"
#include "sim/metrics/output_set.h"
#include "sim/metrics/rows_in_order.h"
#include "sim/input/input_error.h"

namespace sharesim {

namespace {

// Rows are built in a small buffer and handed to the stream in pieces of about 64 KiB, so a
// large file never sits whole in memory (jobs.csv goes in blocks of rows: rows_in_order.h).
class ChunkedWriter {
 public:
  explicit ChunkedWriter(std::ostream& stream) : stream_(stream) { buffer_.reserve(kChunk + 4096); }
  ~ChunkedWriter() { flush(); }
  std::string& buffer() { return buffer_; }
  void row_done() {
    if (buffer_.size() >= kChunk) flush();
  }
  void flush() {
    stream_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kChunk = 1 << 16;
  std::ostream& stream_;
  std::string buffer_;
};

template <class Write>
std::string to_text(const Write& write) {
  std::ostringstream text;
  write(text);
  return std::move(text).str();
}

}  // namespace

std::string jobs_csv(const ClusterRuntime& runtime) {
  return to_text([&](std::ostream& out) { write_jobs_csv(out, runtime); });
}
std::string gpus_csv(const ClusterRuntime& runtime, const std::vector<GpuUsage>& usage, SimTime horizon) {
  return to_text([&](std::ostream& out) { write_gpus_csv(out, runtime, usage, horizon); });
}
std::string timeseries_csv(const std::vector<TimeseriesSample>& samples) {
  return to_text([&](std::ostream& out) { write_timeseries_csv(out, samples); });
}
std::string services_csv(const RunMetrics& metrics) {
  return to_text([&](std::ostream& out) { write_services_csv(out, metrics); });
}
std::string request_latency_csv(const RunMetrics& metrics) {
  return to_text([&](std::ostream& out) { write_request_latency_csv(out, metrics); });
}

namespace {

// Why each pending job waits, by what decides it: jobs of one shape (and, for the preemption
// part, one priority and preemption policy) share the reason.
using PendingKey = std::tuple<std::uint32_t, std::uint32_t, std::int32_t, bool>;
using PendingReasons = std::map<PendingKey, std::string>;
PendingKey pending_key(const JobSpec& spec) { return {spec.shape, spec.pods, spec.priority, spec.preempts}; }

// Worked out before any row is formatted, in row order: explain_pending() dry-runs preemption
// on the cluster, so it may not run beside the threads formatting rows.
PendingReasons explain_pending_jobs(const ClusterRuntime& runtime) {
  PendingReasons reasons;
  const RuntimeCounters& counters = runtime.counters();
  if (runtime.jobs().size() == counters.running + counters.completed + counters.failed) return reasons;
  for (const JobRecord& job : runtime.jobs()) {
    if (job.state != JobState::Pending || job.backing_off) continue;
    auto [it, inserted] = reasons.try_emplace(pending_key(job.spec));
    if (inserted) it->second = runtime.explain_pending(job.spec);
  }
  return reasons;
}

// jobs.csv's text that repeats from row to row, in CSV form, worked out once before the rows:
// checking each character of each row's origin, kind, node and name for quotes was about a
// third of the rows' formatting instructions (callgrind, 100,000 jobs on 10,000 GPUs).
struct RepeatedJobText {
  explicit RepeatedJobText(const ClusterRuntime& runtime) {
    for (const JobOrigin& origin : runtime.origins()) {
      std::string fields;
      append_csv_field(fields, origin.name);
      fields += ',';
      append_csv_field(fields, origin.kind);
      origin_and_kind.push_back(std::move(fields));
      const bool plain = origin.name.size() < kMaxPlainPrefix && !needs_csv_quotes(origin.name);
      name_prefix.push_back(plain ? origin.name + '-' : std::string());
    }
    for (const Node& node : runtime.cluster().nodes()) node_is_plain.push_back(!needs_csv_quotes(node.name));
  }
  static constexpr std::size_t kMaxPlainPrefix = 48;  // CsvRow::plain_text_and_integer takes up to 63
  std::vector<std::string> origin_and_kind;           // per origin: "<name>,<kind>"
  std::vector<std::string> name_prefix;               // per origin: "<name>-", or empty when the name needs quotes
  std::vector<bool> node_is_plain;                    // per node: its name needs no quotes
};

// Rows [begin, end) of jobs.csv; reads the runtime only.
void format_job_rows(const ClusterRuntime& runtime, const PendingReasons& pending_reasons,
                     const RepeatedJobText& repeated, std::size_t begin, std::size_t end, std::string& out) {
  const Cluster& cluster = runtime.cluster();
  std::string name, nodes, gpus;  // reused from row to row
  for (std::size_t index = begin; index < end; ++index) {
    const JobRecord& job = runtime.jobs()[index];
    const bool started = job.start >= 0;
    CsvRow row(out);
    if (const std::string& prefix = repeated.name_prefix[job.spec.origin]; !prefix.empty()) {
      row.plain_text_and_integer(prefix, job.spec.sequence);
    } else {
      name.clear();
      runtime.append_job_name(name, job);
      row.text(name);
    }
    // State names are lower-case words: never quoted.
    row.csv(repeated.origin_and_kind[job.spec.origin]).csv(job_state_name(job.state));
    row.integer(job.spec.pods)
        .integer(runtime.shapes().shapes[job.spec.shape].gpu_units)
        .seconds(job.spec.arrival)
        .seconds_if(started, job.start)
        .seconds_if(job.end >= 0, job.end)
        .seconds_if(started, job.start - job.spec.arrival)
        .seconds_if(job.state == JobState::Completed, job.end - job.spec.arrival)
        .number_if(job.state == JobState::Completed && job.spec.work > 0,
                   static_cast<double>(job.end - job.start) / static_cast<double>(job.spec.work));
    // Every pod's node, '+'-joined, for gangs spread over several nodes; GPUs space-separated.
    if (job.pod_count == 1) {
      const std::uint32_t node = runtime.pods()[job.first_pod].node;
      if (repeated.node_is_plain[node]) {
        row.csv(cluster.node(node).name);
      } else {
        row.text(cluster.node(node).name);
      }
    } else {
      nodes.clear();
      for (std::uint32_t p = job.first_pod; p < job.first_pod + job.pod_count; ++p) {
        if (p != job.first_pod) nodes += '+';
        nodes += cluster.node(runtime.pods()[p].node).name;
      }
      row.text(nodes);
    }
    if (job.pod_count == 1 && runtime.pods()[job.first_pod].device_count == 1) {
      row.integer(runtime.devices()[runtime.pods()[job.first_pod].first_device].gpu);
    } else {
      gpus.clear();
      runtime.for_each_device(job, [&gpus](const DeviceAllocation& device) {
        if (!gpus.empty()) gpus += ' ';
        append_integer(gpus, device.gpu);
      });
      row.csv(gpus);  // digits and spaces
    }
    std::string_view reason;
    std::string backoff_reason;
    if (job.state == JobState::Pending && job.backing_off) {
      backoff_reason = "back-off before restart " + std::to_string(job.restarts) +
                       " after: " + runtime.failure_reasons()[static_cast<std::size_t>(job.failure)];
      reason = backoff_reason;
    } else if (job.state == JobState::Pending) {
      reason = pending_reasons.at(pending_key(job.spec));
    } else if (job.state == JobState::Failed) {
      reason = runtime.failure_reasons()[static_cast<std::size_t>(job.failure)];
    }
    row.csv(kill_cause_name(job.kill_cause))  // lower-case words or empty: never quoted
        .integer(job.killed_by_other ? 1 : 0)
        .integer(job.restarts)
        .text(reason)
        .text(job.note >= 0 ? std::string_view(runtime.notes()[static_cast<std::size_t>(job.note)])
                            : std::string_view())
        .end();
  }
}

}  // namespace

void write_jobs_csv(std::ostream& stream, const ClusterRuntime& runtime, unsigned threads) {
  stream << "job,origin,kind,state,pods,gpus_per_pod,submit_s,start_s,end_s,wait_s,jct_s,slowdown,node,gpus,kill_cause,"
            "killed_by_other,restarts,reason,note\n";
  const PendingReasons pending_reasons = explain_pending_jobs(runtime);
  const RepeatedJobText repeated(runtime);
  write_rows_in_order(stream, runtime.jobs().size(), threads,
                      [&runtime, &pending_reasons, &repeated](std::size_t begin, std::size_t end, std::string& text) {
                        format_job_rows(runtime, pending_reasons, repeated, begin, end, text);
                      });
}

void write_gpus_csv(std::ostream& stream, const ClusterRuntime& runtime, const std::vector<GpuUsage>& gpu_usage,
                    SimTime horizon) {
  const Cluster& cluster = runtime.cluster();
  const double span = static_cast<double>(horizon);
  ChunkedWriter writer(stream);
  std::string& out = writer.buffer();
  out +=
      "gpu,node,pool,model,policy,allocated_s,busy_s,busy_fraction,sm_utilization,memory_mean_mib,memory_peak_mib,"
      "context_switches,jobs_started,reconfigurations,draining_s,reconfiguring_s\n";
  for (const Gpu& gpu : cluster.gpus()) {
    const Node& node = cluster.node(gpu.node);
    const GpuUsage& usage = gpu_usage[gpu.index];
    CsvRow(out)
        .integer(gpu.index)
        .text(node.name)
        .text(cluster.pool_of(node).name)
        .text(gpu.model->id)
        .text(gpu.sharing->traits().policy_name)
        .seconds(usage.allocated_ns)
        .seconds(usage.busy_ns)
        .number(span > 0 ? static_cast<double>(usage.busy_ns) / span : 0.0)
        .number(span > 0 ? usage.sm_busy_ns / span : 0.0)
        .number(span > 0 ? usage.memory_mib_ns / span : 0.0)
        .integer(usage.peak_memory_mib)
        .integer(static_cast<std::int64_t>(std::llround(usage.context_switches)))
        .integer(usage.jobs_started)
        .integer(usage.reconfigurations)
        .seconds(usage.draining_ns)
        .seconds(usage.reconfiguring_ns)
        .end();
    writer.row_done();
  }
}

void write_services_csv(std::ostream& stream, const RunMetrics& metrics) {
  ChunkedWriter writer(stream);
  std::string& out = writer.buffer();
  out +=
      "origin,kind,jobs,requests,completed,dropped,latency_mean_s,latency_p50_s,latency_p95_s,latency_p99_s,"
      "latency_max_s,slowdown_p50,slowdown_p95,slo_s,slo_attainment\n";
  for (const ServiceMetrics& s : metrics.services) {
    const bool any = s.latency_s.count > 0;
    CsvRow(out)
        .text(s.name)
        .text(s.kind)
        .integer(s.jobs)
        .integer(s.arrived)
        .integer(s.latency_s.count)
        .integer(s.dropped)
        .number_if(any, s.latency_s.mean)
        .number_if(any, s.latency_s.p50)
        .number_if(any, s.latency_s.p95)
        .number_if(any, s.latency_s.p99)
        .number_if(any, s.latency_s.max)
        .number_if(any, s.slowdown.p50)
        .number_if(any, s.slowdown.p95)
        .number_if(s.slo_s > 0, s.slo_s)
        .number_if(s.slo_attainment >= 0, s.slo_attainment)
        .end();
    writer.row_done();
  }
}

void write_request_latency_csv(std::ostream& stream, const RunMetrics& metrics) {
  ChunkedWriter writer(stream);
  std::string& out = writer.buffer();
  out += "origin,kind,quantile,latency_s\n";
  for (const ServiceMetrics& s : metrics.services) {
    const std::size_t points = s.latency_quantiles_s.size();
    for (std::size_t i = 0; i < points; ++i) {
      CsvRow(out)
          .text(s.name)
          .text(s.kind)
          .number(static_cast<double>(i) / static_cast<double>(points - 1))
          .number(s.latency_quantiles_s[i])
          .end();
      writer.row_done();
    }
  }
}

void write_timeseries_csv(std::ostream& stream, const std::vector<TimeseriesSample>& samples) {
  ChunkedWriter writer(stream);
  std::string& out = writer.buffer();
  out += "time_s,pending,running,completed,failed,allocated_gpus,busy_gpus,memory_used_mib\n";
  for (const TimeseriesSample& s : samples) {
    const RuntimeCounters& c = s.counters;
    CsvRow(out)
        .seconds(s.time)
        .integer(s.pending)
        .integer(c.running)
        .integer(c.completed)
        .integer(c.failed)
        .integer(c.allocated_gpus)
        .integer(c.busy_gpus)
        .integer(c.memory_used_mib)
        .end();
    writer.row_done();
  }
}

void write_output_file(const std::string& dir, const std::string& name, std::string_view content) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "cannot create output directory: " + ec.message());
  write_file_atomically((std::filesystem::path(dir) / name).string(), content);
}

}  // namespace sharesim
