#include "apps/run_verdict.h"

#include <algorithm>
#include <functional>

#include "sim/input/error_text.h"

namespace sharesim {
namespace {

// The reason the scheduler gives for the first job that never started.
std::string first_pending_reason(const ScenarioRun& run) {
  const ClusterRuntime& runtime = run.runtime();
  for (const JobRecord& job : runtime.jobs()) {
    if (job.state == JobState::Pending && job.start < 0) return runtime.explain_pending(job.spec);
  }
  return "";
}

std::string percent(double share) { return format_fixed(share * 100.0, 1) + "%"; }

// "met by a, b; fewest GPUs at peak: b (3 of 8)" or "met by none".
std::string who_meets(const std::vector<VerdictCandidate>& candidates,
                      const std::function<bool(const RunMetrics&)>& meets) {
  std::vector<const VerdictCandidate*> met;
  for (const VerdictCandidate& c : candidates) {
    if (meets(c.run->metrics())) met.push_back(&c);
  }
  if (met.empty()) return "met by none";
  std::string out = "met by ";
  std::uint64_t fewest = met.front()->run->metrics().gpus_used_peak;
  for (std::size_t i = 0; i < met.size(); ++i) {
    out += (i > 0 ? ", " : "") + met[i]->name;
    fewest = std::min(fewest, met[i]->run->metrics().gpus_used_peak);
  }
  std::string cheapest;
  for (const VerdictCandidate* c : met) {
    if (c->run->metrics().gpus_used_peak == fewest) cheapest += (cheapest.empty() ? "" : ", ") + c->name;
  }
  return out + "; fewest GPUs at peak: " + cheapest + " (" + std::to_string(fewest) + " of " +
         std::to_string(met.front()->run->metrics().gpu_count) + ")";
}

// The whole run's job counts. RunMetrics counts the jobs of the metrics window, and a window
// that opens after the arrivals holds none: the warnings describe the run (docs/outputs.md).
struct RunJobCounts {
  std::uint64_t submitted = 0;
  std::uint64_t pending_at_end = 0;
  std::uint64_t never_started = 0;
};

RunJobCounts run_job_counts(const ScenarioRun& run) {
  const RuntimeCounters& runtime = run.runtime().counters();
  RunJobCounts counts;
  counts.submitted = runtime.submitted;
  counts.pending_at_end = runtime.submitted - runtime.running - runtime.completed - runtime.failed;
  if (counts.pending_at_end == 0) return counts;  // no job to look at (a million-job run's usual end)
  for (const JobRecord& job : run.runtime().jobs()) {
    if (job.state == JobState::Pending && job.start < 0) ++counts.never_started;
  }
  return counts;
}

// Jobs that started on two or more GPUs of which one runs slice-level. There a job progresses
// only in the slices in which all of its GPUs serve it (its rate is the lowest of its GPUs', 0
// or 1 from slice to slice), where a data-parallel job's GPUs run its kernels independently
// between its collectives: slice mode runs it slower than fluid mode whenever its GPUs' turns do
// not line up (docs/models.md "Time-slicing").
std::uint64_t slice_level_multi_gpu_jobs(const ClusterRuntime& runtime) {
  const std::vector<GpuState>& gpus = runtime.gpu_states();
  if (std::none_of(gpus.begin(), gpus.end(), [](const GpuState& g) { return g.slice_level; })) return 0;
  std::uint64_t jobs = 0;
  for (const JobRecord& job : runtime.jobs()) {
    if (job.start < 0 || job.pod_count == 0) continue;
    bool several = false, slice_level = false;
    runtime.for_each_device(job, [&](const DeviceAllocation& device) {
      several = several || device.gpu != job.first_gpu;
      slice_level = slice_level || gpus[device.gpu].slice_level;
    });
    jobs += several && slice_level ? 1 : 0;
  }
  return jobs;
}

}  // namespace

std::vector<std::string> run_warnings(const ScenarioRun& run, const std::string& label) {
  const RunJobCounts m = run_job_counts(run);
  std::vector<std::string> warnings;
  if (m.submitted == 0) {
    // Every figure is then empty or zero: say why there is nothing to read.
    warnings.push_back(label + " submitted no job: the workload made none before the run's end");
    return warnings;
  }
  if (m.never_started == m.submitted) {
    warnings.push_back(label + " placed no job: " + count_of(static_cast<long long>(m.submitted), "job", "jobs") +
                       " never started, e.g. " + first_pending_reason(run));
  } else if (m.pending_at_end * 2 > m.submitted) {
    std::string line = label + " left " + std::to_string(m.pending_at_end) + " of " + std::to_string(m.submitted) +
                       " jobs pending at the end (" + std::to_string(m.never_started) + " never started)";
    const std::string reason = first_pending_reason(run);
    if (!reason.empty()) line += ", e.g. " + reason;
    warnings.push_back(line);
  }
  if (const std::uint64_t jobs = slice_level_multi_gpu_jobs(run.runtime()); jobs > 0) {
    warnings.push_back(label + " ran " + count_of(static_cast<long long>(jobs), "job", "jobs") +
                       " on several GPUs in slice mode (fidelity \"slice\"), where a job progresses only in "
                       "the slices in which all of its GPUs serve it: slower than fluid mode and than real "
                       "GPUs whenever its GPUs' turns do not line up (docs/models.md \"Time-slicing\"); use "
                       "fidelity \"fluid\" for jobs on several GPUs");
  }
  return warnings;
}

namespace {

// Of the jobs that finished (completed or failed), the share that completed within the job
// SLO: a failed job missed it, which slo_attainment (over completed jobs) does not count.
double job_slo_share(const RunMetrics& m) {
  const auto measured = static_cast<double>(m.slowdown.count);
  const double finished = measured + static_cast<double>(m.failed);
  return m.slo_attainment < 0 || finished <= 0 ? -1 : m.slo_attainment * measured / finished;
}

// Of a service's requests that finished or were dropped by a kill, the share within its SLO.
double request_slo_share(const ServiceMetrics& service) {
  const auto finished = static_cast<double>(service.latency_s.count);
  const double total = finished + static_cast<double>(service.dropped);
  return service.slo_attainment < 0 || total <= 0 ? -1 : service.slo_attainment * finished / total;
}

bool origin_all_started(const RunMetrics& m, const std::string& name) {
  for (const OriginMetrics& o : m.origins) {
    if (o.name == name) return o.never_started == 0;
  }
  return true;
}

}  // namespace

std::vector<std::string> compare_verdict(const Scenario& scenario, const std::vector<VerdictCandidate>& candidates) {
  std::vector<std::string> lines;
  if (candidates.empty()) return lines;
  const double target = scenario.slo.attainment;
  // A pod its placement kills (OOM, the device plugin's admission error, another pod's fault or
  // OOM) started but did not run: a variant that kills the pods it cannot hold must not read as
  // one that placed everything. A job's own fault (faults.mtbf) strikes under every policy and
  // does not count here.
  // Each objective's test, for the last line: all of them together.
  std::vector<std::function<bool(const RunMetrics&)>> objectives;
  objectives.push_back([](const RunMetrics& m) {
    return m.never_started == 0 && m.killed_oom == 0 && m.killed_admission == 0 && m.killed_by_other == 0;
  });
  lines.push_back("every job started by the end, none killed by its placement (OOM, admission error, another pod): " +
                  who_meets(candidates, objectives.back()));
  if (scenario.slo.max_slowdown > 0) {
    const auto meets = [target](const RunMetrics& m) { return m.never_started == 0 && job_slo_share(m) >= target; };
    objectives.push_back(meets);
    lines.push_back("job SLO (completion within " + format_fixed(scenario.slo.max_slowdown, 2) + "x standalone for " +
                    percent(target) +
                    " of finished jobs, failed ones missing it; every job started): " + who_meets(candidates, meets));
  }
  // One line per service with a request SLO, in origin order (the same in every variant).
  const std::vector<ServiceMetrics>& services = candidates.front().run->metrics().services;
  for (std::size_t s = 0; s < services.size(); ++s) {
    if (services[s].slo_s <= 0) continue;
    const auto meets = [s, target](const RunMetrics& m) {
      return s < m.services.size() && request_slo_share(m.services[s]) >= target &&
             origin_all_started(m, m.services[s].name);
    };
    objectives.push_back(meets);
    lines.push_back("service " + quote(services[s].name) + " (latency within " +
                    format_fixed_or_exact(services[s].slo_s, 3) + " s for " + percent(target) +
                    " of requests, dropped ones missing it; every pod started): " + who_meets(candidates, meets));
  }
  if (objectives.size() >= 2) {
    lines.push_back("every objective above: " + who_meets(candidates, [&objectives](const RunMetrics& m) {
                      return std::all_of(objectives.begin(), objectives.end(),
                                         [&m](const std::function<bool(const RunMetrics&)>& o) { return o(m); });
                    }));
  }
  return lines;
}

}  // namespace sharesim
