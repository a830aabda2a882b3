#include "sim/runtime/cluster_runtime.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/csv_format.h"
#include "sim/core/huge_pages.h"

namespace sharesim {

std::string_view job_state_name(JobState state) {
  switch (state) {
    case JobState::Pending:
      return "pending";
    case JobState::Running:
      return "running";
    case JobState::Completed:
      return "completed";
    case JobState::Failed:
      return "failed";
  }
  return "?";
}

ClusterRuntime::ClusterRuntime(Simulator& sim, Cluster& cluster, Scheduler& scheduler, const ShapeTable& shapes,
                               const std::vector<JobOrigin>& origins, std::vector<std::unique_ptr<JobSource>> sources)
    : sim_(sim),
      cluster_(cluster),
      scheduler_(scheduler),
      shapes_(shapes),
      origins_(origins),
      sources_(std::move(sources)),
      next_arrival_(sources_.size()),
      source_has_next_(sources_.size(), false),
      gpu_usage_(cluster.gpus().size()) {
  arrival_handler_.runtime = this;
  completion_handler_.runtime = this;
  sample_handler_.runtime = this;
}

std::string ClusterRuntime::job_name(const JobRecord& job) const {
  return origins_[job.spec.origin].name + "-" + std::to_string(job.spec.sequence);
}

void ClusterRuntime::start(SimTime sample_interval) {
  std::size_t expected = 0;
  for (const auto& source : sources_) expected += source->expected_jobs();
  // Capped so a generator with a huge count and an early `until` does not over-reserve.
  expected = std::min<std::size_t>(expected, 10'000'000);
  jobs_.reserve(expected);
  pods_.reserve(expected);
  devices_.reserve(expected);
  advise_huge_pages(jobs_.data(), jobs_.capacity() * sizeof(JobRecord));
  advise_huge_pages(pods_.data(), pods_.capacity() * sizeof(PodPlacement));
  advise_huge_pages(devices_.data(), devices_.capacity() * sizeof(DeviceAllocation));
  for (std::size_t s = 0; s < sources_.size(); ++s) pull_next_arrival(s);
  schedule_next_arrival();
  adaptive_sampling_ = sample_interval <= 0;
  sample_interval_ = adaptive_sampling_ ? kSecond : sample_interval;
  sim_.schedule_at(sim_.now(), sample_handler_);
}

void ClusterRuntime::pull_next_arrival(std::size_t source) {
  source_has_next_[source] = sources_[source]->next(next_arrival_[source]);
}

void ClusterRuntime::schedule_next_arrival() {
  const std::size_t earliest = earliest_source(next_arrival_, source_has_next_);
  if (earliest == sources_.size()) return;
  sim_.schedule_at(std::max(next_arrival_[earliest].arrival, sim_.now()), arrival_handler_,
                   static_cast<std::uint32_t>(earliest));
}

void ClusterRuntime::on_arrival(std::size_t source) {
  const auto job = static_cast<std::uint32_t>(jobs_.size());
  JobRecord& record = jobs_.emplace_back();
  record.spec = next_arrival_[source];
  record.spec.arrival = sim_.now();
  ++counters_.submitted;
  last_job_event_ = sim_.now();
  pull_next_arrival(source);
  schedule_next_arrival();
  if (event_log_ != nullptr) log("submit", job, "");
  // A newcomer may start at once if it fits; otherwise it waits in the queue.
  if (!scheduler_.might_fit(jobs_[job].spec) || !try_start(job)) {
    scheduler_.pending().push(job, jobs_[job].spec.priority, job);
  }
  if (freed_by_kill_) schedule_pending();
}

bool ClusterRuntime::try_start(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  const auto first_pod = static_cast<std::uint32_t>(pods_.size());
  if (!scheduler_.try_place(rec.spec, pods_, devices_)) return false;
  rec.state = JobState::Running;
  rec.start = sim_.now();
  rec.last_update = sim_.now();
  rec.remaining_work = static_cast<double>(rec.spec.work);
  rec.rate = 0;
  rec.first_pod = first_pod;
  rec.pod_count = static_cast<std::uint32_t>(pods_.size() - first_pod);
  ++counters_.running;
  const PodShape& shape = shapes_.shapes[rec.spec.shape];
  for_each_device(rec, [&](const DeviceAllocation& device) {
    Gpu& gpu = cluster_.gpu(device.gpu);
    gpu.residents.push_back(
        Resident{job, DeviceAsk{shape.gpu_resource, device.units, shape.gpu_units}, shape.demand, 0.0});
    ++gpu_usage_[gpu.index].jobs_started;
  });
  if (event_log_ != nullptr) log("start", job, cluster_.node(pods_[first_pod].node).name);
  // Memory: a policy without isolation may fail an allocation here (question 4 of the policy).
  bool died_at_once = false;
  for_each_device(rec, [&](const DeviceAllocation& device) {
    if (died_at_once) return;
    Gpu& gpu = cluster_.gpu(device.gpu);
    killed_scratch_.clear();
    gpu.sharing->on_join(gpu.residents, killed_scratch_);
    if (killed_scratch_.empty()) return;
    std::vector<std::uint32_t> victims;
    for (std::size_t index : killed_scratch_) victims.push_back(gpu.residents[index].task);
    for (std::uint32_t victim : victims) {
      if (jobs_[victim].state == JobState::Running)
        kill(victim, "OOM: out of GPU memory on " + cluster_.node(gpu.node).name);
    }
    died_at_once = jobs_[job].state != JobState::Running;
  });
  if (died_at_once) return true;  // it started and was killed by its own allocation
  bool holds_gpus = false;
  for_each_device(rec, [&](const DeviceAllocation& device) {
    refresh_gpu(device.gpu);
    holds_gpus = true;
  });
  if (!holds_gpus) refresh_job(job);  // CPU-only: no GPU policy sets its rate
  return true;
}

void ClusterRuntime::refresh_gpu(std::uint32_t gpu_index) {
  Gpu& gpu = cluster_.gpu(gpu_index);
  gpu.sharing->compute_rates(gpu.residents);
  for (const Resident& resident : gpu.residents) refresh_job(resident.task);
  update_gpu_usage(gpu_index);
}

void ClusterRuntime::advance_progress(JobRecord& rec, SimTime time) {
  rec.remaining_work = std::max(0.0, rec.remaining_work - rec.rate * static_cast<double>(time - rec.last_update));
  rec.last_update = time;
}

void ClusterRuntime::refresh_job(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  const SimTime now = sim_.now();
  advance_progress(rec, now);
  double rate = INFINITY;
  for_each_device(rec, [&](const DeviceAllocation& device) {
    for (const Resident& resident : cluster_.gpu(device.gpu).residents) {
      if (resident.task == job) rate = std::min(rate, resident.rate);
    }
  });
  if (!std::isfinite(rate)) rate = 1.0;  // holds no GPU (CPU-only job): standalone speed
  if (rate == rec.rate && rec.completion.valid()) return;
  sim_.cancel(rec.completion);
  rec.rate = rate;
  rec.completion = EventId{};
  if (rate > 0) {
    // A completion beyond the end of representable time is placed at its end.
    const double delay = std::ceil(rec.remaining_work / rate);
    const SimTime room = kTimeNever - now;
    const SimTime at = delay >= static_cast<double>(room) ? kTimeNever : now + static_cast<SimTime>(delay);
    rec.completion = sim_.schedule_at(at, completion_handler_, job);
  }
}

void ClusterRuntime::update_gpu_usage(std::uint32_t gpu_index) {
  const Gpu& gpu = cluster_.gpu(gpu_index);
  GpuUsage& usage = gpu_usage_[gpu_index];
  const SimTime now = sim_.now();
  const bool allocated = !gpu.residents.empty();
  const bool busy =
      std::any_of(gpu.residents.begin(), gpu.residents.end(), [](const Resident& r) { return r.rate > 0; });
  if (allocated && usage.allocated_since < 0) {
    usage.allocated_since = now;
    ++counters_.allocated_gpus;
  } else if (!allocated && usage.allocated_since >= 0) {
    usage.allocated_ns += now - usage.allocated_since;
    usage.allocated_since = -1;
    --counters_.allocated_gpus;
  }
  if (busy && usage.busy_since < 0) {
    usage.busy_since = now;
    ++counters_.busy_gpus;
  } else if (!busy && usage.busy_since >= 0) {
    usage.busy_ns += now - usage.busy_since;
    usage.busy_since = -1;
    --counters_.busy_gpus;
  }
}

void ClusterRuntime::on_completion(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  rec.completion = EventId{};
  rec.remaining_work = 0;
  rec.state = JobState::Completed;
  rec.end = sim_.now();
  last_job_event_ = sim_.now();
  --counters_.running;
  ++counters_.completed;
  if (event_log_ != nullptr) log("complete", job, "");
  vacate(job);
  schedule_pending();
}

void ClusterRuntime::vacate(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  std::vector<std::uint32_t>& touched = vacated_gpus_scratch_;
  touched.clear();
  for_each_device(rec, [&](const DeviceAllocation& device) {
    Gpu& gpu = cluster_.gpu(device.gpu);
    // erase (not swap-remove) keeps residents in arrival order, which round-robin policies use
    gpu.residents.erase(
        std::remove_if(gpu.residents.begin(), gpu.residents.end(), [job](const Resident& r) { return r.task == job; }),
        gpu.residents.end());
    touched.push_back(gpu.index);
  });
  for (std::uint32_t p = rec.first_pod; p < rec.first_pod + rec.pod_count; ++p) {
    scheduler_.release_pod(rec.spec, pods_[p], devices_);
  }
  for (std::uint32_t gpu : touched) refresh_gpu(gpu);
}

void ClusterRuntime::kill(std::uint32_t job, const std::string& reason) {
  JobRecord& rec = jobs_[job];
  sim_.cancel(rec.completion);
  rec.completion = EventId{};
  rec.state = JobState::Failed;
  rec.end = sim_.now();
  last_job_event_ = sim_.now();
  freed_by_kill_ = true;
  const auto it = std::find(failure_reasons_.begin(), failure_reasons_.end(), reason);
  rec.failure = static_cast<std::int32_t>(it - failure_reasons_.begin());
  if (it == failure_reasons_.end()) failure_reasons_.push_back(reason);
  --counters_.running;
  ++counters_.failed;
  log("fail", job, reason);
  vacate(job);
}

void ClusterRuntime::schedule_pending() {
  // A job that starts may kill others (OOM on a GPU without memory isolation); what they free
  // gives the queue another pass.
  do {
    freed_by_kill_ = false;
    if (scheduler_.pending().empty()) return;
    // Within one pass, a job shape that failed once fails again: skip its twins.
    failed_shapes_scratch_.clear();
    scheduler_.pending().drain([this](std::uint32_t job) {
      const JobSpec& spec = jobs_[job].spec;
      if (!scheduler_.might_fit(spec)) return false;
      const std::pair<std::uint32_t, std::uint32_t> key{spec.shape, spec.pods};
      if (std::find(failed_shapes_scratch_.begin(), failed_shapes_scratch_.end(), key) !=
          failed_shapes_scratch_.end()) {
        return false;
      }
      if (try_start(job)) return true;
      failed_shapes_scratch_.push_back(key);
      return false;
    });
  } while (freed_by_kill_);
}

TimeseriesSample ClusterRuntime::sample_at(SimTime time) const {
  return TimeseriesSample{time, scheduler_.pending().size(), counters_};
}

void ClusterRuntime::on_sample() {
  samples_.push_back(sample_at(sim_.now()));
  if (adaptive_sampling_ && samples_.size() >= kMaxSamples) {
    // Samples sit at multiples of the period from 0: keeping the even ones leaves multiples
    // of twice the period.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < samples_.size(); i += 2) samples_[kept++] = samples_[i];
    samples_.resize(kept);
    sample_interval_ *= 2;
    const SimTime next = (sim_.now() / sample_interval_ + 1) * sample_interval_;
    if (sim_.pending_events() > 0) sim_.schedule_at(next, sample_handler_);
    return;
  }
  // Keep sampling only while something else can still happen.
  if (sim_.pending_events() > 0) sim_.schedule_in(sample_interval_, sample_handler_);
}

void ClusterRuntime::finish(SimTime end) {
  for (std::size_t g = 0; g < gpu_usage_.size(); ++g) {
    GpuUsage& usage = gpu_usage_[g];
    if (usage.allocated_since >= 0) usage.allocated_ns += end - usage.allocated_since;
    if (usage.busy_since >= 0) usage.busy_ns += end - usage.busy_since;
    usage.allocated_since = usage.busy_since = -1;
  }
  for (JobRecord& rec : jobs_) {
    if (rec.state == JobState::Running) advance_progress(rec, end);
  }
  while (!samples_.empty() && samples_.back().time > end) samples_.pop_back();
  if (samples_.empty() || samples_.back().time != end) {
    samples_.push_back(sample_at(end));
  }
}

void ClusterRuntime::log(const char* event, std::uint32_t job, const std::string& detail) {
  if (event_log_ == nullptr) return;
  std::string line;
  CsvRow(line).seconds(sim_.now()).text(event).text(job_name(jobs_[job])).text(detail).end();
  *event_log_ << line;
}

}  // namespace sharesim
