#include "sim/metrics/output_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "sim/core/csv_format.h"
#include "sim/scenario/input_error.h"

namespace sharesim {

std::string jobs_csv(const ClusterRuntime& runtime) {
  const Cluster& cluster = runtime.cluster();
  std::string out = "job,origin,kind,state,pods,gpus_per_pod,submit_s,start_s,end_s,wait_s,jct_s,node,gpus,reason\n";
  out.reserve(out.size() + runtime.jobs().size() * 96);
  // Jobs still pending share their reason with every job of the same shape.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> pending_reasons;
  std::string nodes, gpus;
  for (const JobRecord& job : runtime.jobs()) {
    const JobOrigin& origin = runtime.origins()[job.spec.origin];
    const bool started = job.start >= 0;
    // Every pod's node, '+'-joined, for gangs spread over several nodes; GPUs space-separated.
    nodes.clear();
    for (std::uint32_t p = job.first_pod; p < job.first_pod + job.pod_count; ++p) {
      if (p != job.first_pod) nodes += '+';
      nodes += cluster.node(runtime.pods()[p].node).name;
    }
    gpus.clear();
    runtime.for_each_device(job, [&gpus](const DeviceAllocation& device) {
      if (!gpus.empty()) gpus += ' ';
      append_integer(gpus, device.gpu);
    });
    std::string_view reason;
    if (job.state == JobState::Pending) {
      auto [it, inserted] = pending_reasons.try_emplace({job.spec.shape, job.spec.pods});
      if (inserted) it->second = runtime.scheduler().explain_unschedulable(job.spec);
      reason = it->second;
    } else if (job.state == JobState::Failed) {
      reason = runtime.failure_reasons()[static_cast<std::size_t>(job.failure)];
    }
    CsvRow(out)
        .text(runtime.job_name(job))
        .text(origin.name)
        .text(origin.kind)
        .text(job_state_name(job.state))
        .integer(job.spec.pods)
        .integer(runtime.shapes().shapes[job.spec.shape].gpu_units)
        .seconds(job.spec.arrival)
        .seconds_if(started, job.start)
        .seconds_if(job.end >= 0, job.end)
        .seconds_if(started, job.start - job.spec.arrival)
        .seconds_if(job.state == JobState::Completed, job.end - job.spec.arrival)
        .text(nodes)
        .text(gpus)
        .text(reason)
        .end();
  }
  return out;
}

std::string gpus_csv(const ClusterRuntime& runtime) {
  const Cluster& cluster = runtime.cluster();
  std::string out = "gpu,node,pool,model,policy,allocated_s,busy_s,jobs_started\n";
  for (const Gpu& gpu : cluster.gpus()) {
    const Node& node = cluster.node(gpu.node);
    const GpuUsage& usage = runtime.gpu_usage()[gpu.index];
    CsvRow(out)
        .integer(gpu.index)
        .text(node.name)
        .text(cluster.pool_of(node).name)
        .text(gpu.model->id)
        .text(gpu.sharing->policy_name())
        .seconds(usage.allocated_ns)
        .seconds(usage.busy_ns)
        .integer(usage.jobs_started)
        .end();
  }
  return out;
}

std::string timeseries_csv(const ClusterRuntime& runtime) {
  std::string out = "time_s,pending,running,completed,allocated_gpus,busy_gpus\n";
  for (const TimeseriesSample& s : runtime.timeseries()) {
    const RuntimeCounters& c = s.counters;
    CsvRow(out)
        .seconds(s.time)
        .integer(s.pending)
        .integer(c.running)
        .integer(c.completed)
        .integer(c.allocated_gpus)
        .integer(c.busy_gpus)
        .end();
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
