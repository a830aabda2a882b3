#include "sim/metrics/output_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "sim/core/csv_format.h"
#include "sim/scenario/input_error.h"

namespace sharesim {

std::string jobs_csv(ClusterRuntime& runtime) {
  const Cluster& cluster = runtime.cluster();
  std::string out = "job,origin,kind,state,pods,gpus_per_pod,submit_s,start_s,end_s,wait_s,jct_s,node,gpus,reason\n";
  out.reserve(out.size() + runtime.jobs().size() * 96);
  // Jobs still pending share their reason with every job of the same shape.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> pending_reasons;
  std::string scratch;
  for (const JobRecord& job : runtime.jobs()) {
    const JobOrigin& origin = runtime.origins()[job.spec.origin];
    append_csv_field(out, runtime.job_name(job));
    out += ',';
    append_csv_field(out, origin.name);
    out += ',';
    out += origin.kind;
    out += ',';
    out += job_state_name(job.state);
    out += ',';
    append_integer(out, job.spec.pods);
    out += ',';
    append_integer(out, runtime.shapes().shapes[job.spec.shape].gpu_units);
    out += ',';
    append_seconds(out, job.spec.arrival);
    out += ',';
    if (job.start >= 0) append_seconds(out, job.start);
    out += ',';
    if (job.end >= 0) append_seconds(out, job.end);
    out += ',';
    if (job.start >= 0) append_seconds(out, job.start - job.spec.arrival);
    out += ',';
    if (job.state == JobState::Completed) append_seconds(out, job.end - job.spec.arrival);
    out += ',';
    // Every pod's node, '+'-joined, for gangs spread over several nodes.
    for (std::uint32_t p = job.first_pod; p < job.first_pod + job.pod_count; ++p) {
      if (p != job.first_pod) out += '+';
      out += cluster.node(runtime.pods()[p].node).name;
    }
    out += ',';
    scratch.clear();
    for (std::uint32_t p = job.first_pod; p < job.first_pod + job.pod_count; ++p) {
      const PodPlacement& pod = runtime.pods()[p];
      for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) {
        if (!scratch.empty()) scratch += ' ';
        append_integer(scratch, runtime.devices()[d].gpu);
      }
    }
    out += scratch;
    out += ',';
    if (job.state == JobState::Pending) {
      auto [it, inserted] = pending_reasons.try_emplace({job.spec.shape, job.spec.pods});
      if (inserted) it->second = runtime.scheduler().explain_unschedulable(job.spec);
      append_csv_field(out, it->second);
    } else if (job.state == JobState::Failed) {
      append_csv_field(out, runtime.failure_reasons()[static_cast<std::size_t>(job.failure)]);
    }
    out += '\n';
  }
  return out;
}

std::string gpus_csv(const ClusterRuntime& runtime) {
  const Cluster& cluster = runtime.cluster();
  std::string out = "gpu,node,pool,model,policy,allocated_s,busy_s,jobs_started\n";
  for (const Gpu& gpu : cluster.gpus()) {
    const Node& node = cluster.node(gpu.node);
    const GpuUsage& usage = runtime.gpu_usage()[gpu.index];
    append_integer(out, gpu.index);
    out += ',';
    out += node.name;
    out += ',';
    out += cluster.pool_of(node).name;
    out += ',';
    out += gpu.model->id;
    out += ',';
    out += gpu.sharing->policy_name();
    out += ',';
    append_seconds(out, usage.allocated_ns);
    out += ',';
    append_seconds(out, usage.busy_ns);
    out += ',';
    append_integer(out, usage.jobs_started);
    out += '\n';
  }
  return out;
}

std::string timeseries_csv(const ClusterRuntime& runtime) {
  std::string out = "time_s,pending,running,completed,allocated_gpus,busy_gpus\n";
  for (const TimeseriesSample& s : runtime.timeseries()) {
    append_seconds(out, s.time);
    const RuntimeCounters& c = s.counters;
    for (std::uint64_t value : {s.pending, c.running, c.completed, c.allocated_gpus, c.busy_gpus}) {
      out += ',';
      append_integer(out, value);
    }
    out += '\n';
  }
  return out;
}

void write_output_file(const std::string& dir, const std::string& name, const std::string& content) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "cannot create output directory: " + ec.message());
  const std::filesystem::path final_path = std::filesystem::path(dir) / name;
  const std::filesystem::path temp_path = std::filesystem::path(dir) / ("." + name + ".tmp");
  {
    std::ofstream file(temp_path, std::ios::binary | std::ios::trunc);
    if (!file) throw InputError(temp_path.string(), "", std::string("cannot write: ") + std::strerror(errno));
    file.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!file) throw InputError(temp_path.string(), "", std::string("write failed: ") + std::strerror(errno));
  }
  std::filesystem::rename(temp_path, final_path, ec);
  if (ec) throw InputError(final_path.string(), "", "cannot rename into place: " + ec.message());
}

}  // namespace sharesim
