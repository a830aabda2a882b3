#include "sim/runtime/cluster_runtime.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/assert.h"
#include "sim/core/csv_format.h"
#include "sim/core/huge_pages.h"
#include "sim/core/prefetch_lines.h"
#include "sim/runtime/restart_backoff.h"

namespace sharesim {

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
      gpu_state_(cluster.gpus().size()),
      slice_level_(sim, cluster,
                   {.after =
                        [this](std::uint32_t gpu) {
                          for (const Resident& resident : cluster_.gpu(gpu).residents) {
                            refresh_job(resident.task, &resident);
                          }
                          update_gpu_state(gpu);
                        },
                    .switched =
                        [this](std::uint32_t gpu) {
                          if (gpu_usage_listener_ != nullptr) gpu_usage_listener_->context_switched(gpu, sim_.now());
                        }}),
      repartitioner_(sim, cluster, scheduler, shapes, repartition_events_) {
  arrival_handler_.runtime = this;
  completion_handler_.runtime = this;
  fault_handler_.runtime = this;
  timer_handler_.runtime = this;
  requeue_handler_.runtime = this;
  repartition_events_.runtime = this;
  for (std::uint32_t g = 0; g < gpu_state_.size(); ++g) gpu_state_[g].slice_level = slice_level_.runs(g);
  preemption_ = scheduler.preemption_enabled();
  if (preemption_) jobs_on_node_.resize(cluster.nodes().size());
}

void ClusterRuntime::set_measurement_window(SimTime start, SimTime end, std::uint64_t warmup_jobs) {
  warmup_jobs_ = warmup_jobs;
  window_.start = warmup_jobs > 0 ? kTimeNever : start;
  window_.end = end;
}

void ClusterRuntime::set_faults(SimTime mtbf, std::uint64_t seed) {
  fault_mtbf_ = mtbf;
  fault_stream_ = RandomStream(seed, "faults");
}

std::int32_t ClusterRuntime::intern_text(std::vector<std::string>& table,
                                         std::unordered_map<std::string, std::int32_t>& index,
                                         const std::string& text) {
  const auto [it, inserted] = index.try_emplace(text, static_cast<std::int32_t>(table.size()));
  if (inserted) table.push_back(text);
  return it->second;
}

std::string ClusterRuntime::job_name(const JobRecord& job) const {
  std::string name;
  append_job_name(name, job);
  return name;
}

void ClusterRuntime::append_job_name(std::string& out, const JobRecord& job) const {
  out += origins_[job.spec.origin].name;
  out += '-';
  append_integer(out, job.spec.sequence);
}

void ClusterRuntime::start() {
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
  // The job table is most of a long run's fresh memory: its pages are faulted in on a second
  // thread, ahead of the arrivals (prefault_ahead.h). Not worth a thread for short runs.
  if (jobs_.capacity() >= kPrefaultMinJobs) {
    jobs_prefault_.start(jobs_.data(), sizeof(JobRecord), jobs_.capacity(), kPrefaultLeadJobs);
  }
  prefetch_placements_ = cluster_.gpus().size() >= kPrefetchMinGpus;
  for (std::size_t s = 0; s < sources_.size(); ++s) pull_next_arrival(s);
  schedule_next_arrival();
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
  if (jobs_.size() == jobs_.capacity()) jobs_prefault_.stop();  // the table is about to move
  JobRecord& record = jobs_.emplace_back();
  jobs_prefault_.advance(jobs_.size());
  record.spec = next_arrival_[source];
  record.spec.arrival = sim_.now();
  if (const auto& factory = origins_[record.spec.origin].behaviour) {
    record.behaviour = static_cast<std::int32_t>(behaviours_.size());
    behaviours_.push_back(BehaviourSlot{factory->make(record.spec), EventId{}});
  }
  ++counters_.submitted;
  last_job_event_ = sim_.now();
  // Warm-up by job count: the window opens with job number warmup_jobs_ (from 0), also for
  // the requests that arrived at this instant before it (held_requests_).
  if (warmup_jobs_ > 0 && jobs_.size() == warmup_jobs_ + 1) {
    window_.start = sim_.now();
    if (held_at_ == sim_.now()) {
      for (const RequestEvent& held : held_requests_) record_requests(held);
    }
    held_requests_ = {};
  }
  pull_next_arrival(source);
  schedule_next_arrival();
  if (has_job_event_listeners()) log("submit", job, "");
  SchedulingExecutor executor{*this};
  scheduler_.arrive(job, executor);
}

bool ClusterRuntime::try_start(std::uint32_t job, std::optional<std::uint32_t> nominated_node) {
  JobRecord& rec = jobs_[job];
  SHARESIM_ASSERT(rec.state == JobState::Pending && !rec.backing_off, "starting a job that is not waiting");
  const auto first_pod = static_cast<std::uint32_t>(pods_.size());
  if (!scheduler_.try_place(job, rec.spec, pods_, devices_, nominated_node)) return false;
  rec.state = JobState::Running;
  if (rec.start < 0) rec.start = sim_.now();  // a restarted job keeps its first start
  rec.last_update = sim_.now();
  rec.remaining_work = static_cast<double>(rec.spec.work);
  if (rec.restarts > 0) {
    const auto saved = checkpointed_work_.find(job);
    if (saved != checkpointed_work_.end()) rec.remaining_work -= saved->second;
  }
  rec.rate = 0;
  rec.first_pod = first_pod;
  rec.pod_count = static_cast<std::uint32_t>(pods_.size() - first_pod);
  // The pods of a job share its shape: the first holds a device if any does.
  const PodPlacement& first = pods_[first_pod];
  rec.first_device = first.first_device;
  if (first.device_count > 0) rec.first_gpu = devices_[first.first_device].gpu;
  ++counters_.running;
  if (preemption_) {
    if (rec.restarts > 0) run_start_[job] = sim_.now();
    for (std::uint32_t p = first_pod; p < first_pod + rec.pod_count; ++p) {
      std::vector<std::uint32_t>& on_node = jobs_on_node_[pods_[p].node];
      if (std::find(on_node.begin(), on_node.end(), job) == on_node.end()) on_node.push_back(job);
    }
  }
  // The scheduler's placement made the job a resident of each of its devices (Cluster::place).
  const PodClaim claim = claim_of(shapes_.shapes[rec.spec.shape]);
  std::vector<std::uint32_t>& newly_held = newly_held_scratch_;  // GPUs this job is the first resident of
  newly_held.clear();
  for_each_device(rec, [&](const DeviceAllocation& device) {
    const Gpu& gpu = cluster_.gpu(device.gpu);
    SHARESIM_ASSERT(std::any_of(gpu.residents.begin(), gpu.residents.end(),
                                [job](const Resident& r) { return r.task == job; }),
                    "a placed job is not a resident of its device");
    if (!gpu_state_[gpu.index].allocated) {
      // Unallocated at its last update: nobody else joined it since.
      SHARESIM_ASSERT(std::all_of(gpu.residents.begin(), gpu.residents.end(),
                                  [job](const Resident& r) { return r.task == job; }),
                      "a GPU whose state shows it unallocated holds another job");
      newly_held.push_back(gpu.index);
    }
    ++rec.gpu_devices;
    if (rec.note < 0) {
      const std::string note = gpu.sharing->placement_note(claim.ask_on(device));
      if (!note.empty()) rec.note = intern_text(notes_, note_index_, note);
    }
  });
  if (gpu_usage_listener_ != nullptr) {
    // The job started once on each of its GPUs, however many of its pods or devices one holds
    // (a gang's pods on one time-sliced GPU counted twice there: audit, gpus.csv jobs_started).
    std::vector<std::uint32_t>& started_on = refreshed_gpus_scratch_;
    gpus_of(rec, started_on);
    if (started_on.size() > 1) {
      std::sort(started_on.begin(), started_on.end());
      started_on.erase(std::unique(started_on.begin(), started_on.end()), started_on.end());
    }
    for (std::uint32_t gpu : started_on) gpu_usage_listener_->job_started_on(gpu);
  }
  // Two pods of a gang may share a GPU: it is newly held once.
  std::sort(newly_held.begin(), newly_held.end());
  const auto newly_held_gpus =
      static_cast<std::uint64_t>(std::unique(newly_held.begin(), newly_held.end()) - newly_held.begin());
  // Counted now, before admission: a job its own allocation kills (OOM on joining) still held
  // its GPUs, and the cluster must have had them (issue 15: "GPUs used at peak").
  counters_.peak_allocated_gpus = std::max(counters_.peak_allocated_gpus, counters_.allocated_gpus + newly_held_gpus);
  if (has_job_event_listeners()) log("start", job, cluster_.node(pods_[first_pod].node).name);
  // Memory and admission: a policy may fail the newcomer (or, without memory isolation, more
  // pods) as it joins (question 4 of the policy).
  bool died_at_once = false;
  for_each_device(rec, [&](const DeviceAllocation& device) {
    if (died_at_once) return;
    Gpu& gpu = cluster_.gpu(device.gpu);
    casualties_scratch_.clear();
    gpu.sharing->on_join(gpu.residents, casualties_scratch_);
    if (casualties_scratch_.killed.empty()) return;
    const Casualties casualties = casualties_scratch_;  // kills below reuse the scratch
    apply_casualties(gpu, casualties, job);
    died_at_once = jobs_[job].state != JobState::Running;
  });
  if (died_at_once) return true;  // it started and was killed by its own allocation
  if (rec.behaviour >= 0) {
    apply_step(job, behaviours_[static_cast<std::size_t>(rec.behaviour)].program->start(sim_.now()),
               /*rate_settled=*/false);
    if (rec.state != JobState::Running) {
      freed_by_kill_ = true;  // ended at once: what it freed gives the queue another pass
      return true;
    }
  }
  std::vector<std::uint32_t>& gpus = refreshed_gpus_scratch_;
  gpus_of(rec, gpus);
  const bool holds_gpus = !gpus.empty();
  if (holds_gpus) {
    refresh_gpus(gpus);
  } else {
    refresh_job(job);  // CPU-only: no GPU policy sets its rate
  }
  if (holds_gpus && fault_mtbf_ > 0) {
    const double delay = fault_stream_.exponential(static_cast<double>(fault_mtbf_));
    const SimTime room = kTimeNever - sim_.now();
    const SimTime at = delay >= static_cast<double>(room) ? kTimeNever : sim_.now() + static_cast<SimTime>(delay);
    if (faults_.size() <= job) faults_.resize(std::size_t{job} + 1);
    faults_[job] = sim_.schedule_at(at, fault_handler_, job);
  }
  return true;
}

void ClusterRuntime::apply_casualties(const Gpu& gpu, const Casualties& casualties, std::uint32_t trigger) {
  // The pod that caused it goes first: what remains on the GPU then never shows a state the
  // policy refused (e.g. memory above the GPU's while the blast radius is being cleared).
  std::vector<std::uint32_t> victims;
  victims.reserve(casualties.killed.size());
  for (std::size_t index : casualties.killed) {
    if (gpu.residents[index].task == trigger) victims.push_back(trigger);
  }
  for (std::size_t index : casualties.killed) {
    if (gpu.residents[index].task != trigger) victims.push_back(gpu.residents[index].task);
  }
  const std::string place = cluster_.node(gpu.node).name + " GPU " + std::to_string(gpu.local_index);
  for (std::uint32_t victim : victims) {
    if (jobs_[victim].state != JobState::Running) continue;
    const bool by_other = victim != trigger;
    const std::string reason = by_other ? "killed by another pod's " + std::string(kill_cause_name(casualties.cause)) +
                                              " on " + place + ": " + casualties.reason
                                        : casualties.reason + " on " + place;
    kill(victim, reason, casualties.cause, by_other);
  }
}

void ClusterRuntime::on_fault(std::uint32_t job) {
  const JobRecord& rec = jobs_[job];
  faults_[job] = EventId{};
  if (rec.state != JobState::Running) return;
  // The fault hits the job's first GPU; its policy decides who dies with it.
  const Gpu& gpu = cluster_.gpu(rec.first_gpu);
  std::size_t index = 0;
  while (gpu.residents[index].task != job) ++index;
  casualties_scratch_.clear();
  gpu.sharing->on_fault(gpu.residents, index, casualties_scratch_);
  const Casualties casualties = casualties_scratch_;
  apply_casualties(gpu, casualties, job);
  schedule_pending();
}

void ClusterRuntime::cancel_fault(std::uint32_t job) {
  if (job >= faults_.size()) return;
  sim_.cancel(faults_[job]);
  faults_[job] = EventId{};
}

void ClusterRuntime::prefetch_job(std::uint32_t job) const {
  if (job < jobs_.size()) prefetch_lines(&jobs_[job], sizeof(JobRecord));
}

void ClusterRuntime::prefetch_placement_of(std::uint32_t job) const {
  if (!prefetch_placements_ || job >= jobs_.size()) return;
  const JobRecord& rec = jobs_[job];
  if (rec.state != JobState::Running) return;
  prefetch_placement(rec);
  placement_prefetched_ = job;
}

void ClusterRuntime::prefetch_placement(const JobRecord& rec) const {
  if (rec.gpu_devices == 0) return;
  __builtin_prefetch(&pods_[rec.first_pod]);
  __builtin_prefetch(&devices_[rec.first_device]);
  const Gpu& gpu = cluster_.gpu(rec.first_gpu);
  __builtin_prefetch(&gpu);
  __builtin_prefetch(&gpu.residents);  // the count and a lone resident
  __builtin_prefetch(&gpu_state_[rec.first_gpu]);
  cluster_.prefetch_node_counts(cluster_.node_of_gpu(rec.first_gpu));
  if (gpu_usage_listener_ != nullptr) gpu_usage_listener_->prefetch(rec.first_gpu);
}

namespace {

// Drops every item whose key an earlier item has, keeping the rest in order (the order their
// events are pushed in): O(n log n), for lists as long as a gang's GPUs.
template <typename T, typename KeyOf>
void keep_first_occurrences(std::vector<T>& items, KeyOf key_of) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key_of(items[a]) < key_of(items[b]); });
  std::vector<bool> keep(items.size(), true);
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (key_of(items[order[i]]) == key_of(items[order[i - 1]])) keep[order[i]] = false;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (keep[i]) items[kept++] = items[i];
  }
  items.resize(kept);
}

}  // namespace

void ClusterRuntime::refresh_gpu(std::uint32_t gpu_index) {
  compute_gpu_rates(gpu_index);
  for (const Resident& resident : cluster_.gpu(gpu_index).residents) refresh_job(resident.task, &resident);
  update_gpu_state(gpu_index);
}

void ClusterRuntime::refresh_several_gpus(std::vector<std::uint32_t>& gpus) {
  // Refreshed GPU by GPU, a job on N of them had its rate taken over its N GPUs N times, and a
  // gang of N one-GPU pods took O(N^2) to start: 4 s for 20,000 pods, 220 s for 80,000.
  keep_first_occurrences(gpus, [](std::uint32_t gpu) { return gpu; });
  for (std::uint32_t gpu : gpus) compute_gpu_rates(gpu);
  auto& jobs = refreshed_jobs_scratch_;
  jobs.clear();
  for (std::uint32_t gpu : gpus) {
    for (const Resident& resident : cluster_.gpu(gpu).residents) jobs.emplace_back(resident.task, &resident);
  }
  keep_first_occurrences(jobs, [](const std::pair<std::uint32_t, const Resident*>& entry) { return entry.first; });
  for (const auto& [job, resident] : jobs) refresh_job(job, resident);
  for (std::uint32_t gpu : gpus) update_gpu_state(gpu);
}

void ClusterRuntime::refresh_job(std::uint32_t job, const Resident* resident_on_changed_gpu) {
  JobRecord& rec = jobs_[job];
  SHARESIM_ASSERT(rec.state == JobState::Running, "a rate was set for a job that is not running");
  const double before = rec.rate;
  fluid_.set_rate(job, rec, rate_from_residents(job, resident_on_changed_gpu));
  // A job on several GPUs works each at its own rate, the slowest GPU's: the usage of its other
  // GPUs (SMs busy) follows it. The GPU that changed is updated by its caller.
  if (rec.gpu_devices > 1 && rec.rate != before) {
    for_each_device(rec, [&](const DeviceAllocation& device) { update_gpu_state(device.gpu); });
  }
}

double ClusterRuntime::rate_from_residents(std::uint32_t job, const Resident* resident_on_changed_gpu) const {
  const JobRecord& rec = jobs_[job];
  double rate = INFINITY;
  if (rec.gpu_devices == 1 && resident_on_changed_gpu != nullptr) {
    rate = resident_on_changed_gpu->rate;  // its only GPU: no need to look the others up
  } else {
    for_each_device(rec, [&](const DeviceAllocation& device) {
      for (const Resident& resident : cluster_.gpu(device.gpu).residents) {
        if (resident.task == job) rate = std::min(rate, resident.rate);
      }
    });
  }
  if (!std::isfinite(rate)) rate = 1.0;  // holds no GPU (CPU-only job): standalone speed
  if (rec.idle) rate = 0;                // an idle phase makes no progress, whatever a policy says
  return rate;
}

void ClusterRuntime::update_gpu_state(std::uint32_t gpu_index) {
  const Gpu& gpu = cluster_.gpu(gpu_index);
  GpuState& state = gpu_state_[gpu_index];
  counters_.memory_used_mib -= state.memory_mib;
  state.memory_mib = 0;
  bool busy = false;
  for (const Resident& r : gpu.residents) {
    state.memory_mib += r.demand.mem_mib * devices_held(r);
    busy = busy || r.rate > 0;
  }
  counters_.memory_used_mib += state.memory_mib;
  SHARESIM_ASSERT(counters_.memory_used_mib >= 0, "the cluster's device memory in use went negative");
  const bool allocated = !gpu.residents.empty();
  if (allocated && !state.allocated) {
    ++counters_.allocated_gpus;
    counters_.peak_allocated_gpus = std::max(counters_.peak_allocated_gpus, counters_.allocated_gpus);
  } else if (!allocated && state.allocated) {
    SHARESIM_ASSERT(counters_.allocated_gpus > 0, "more GPUs released than allocated");
    --counters_.allocated_gpus;
  }
  if (busy && !state.busy) {
    ++counters_.busy_gpus;
  } else if (!busy && state.busy) {
    SHARESIM_ASSERT(counters_.busy_gpus > 0, "more GPUs went idle than were busy");
    --counters_.busy_gpus;
  }
  state.allocated = allocated;
  state.busy = busy;
  if (gpu_usage_listener_ != nullptr) gpu_usage_listener_->gpu_changed(gpu, sim_.now(), state, window_);
}

void ClusterRuntime::on_completion(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  SHARESIM_ASSERT(rec.state == JobState::Running, "a completion fired for a job that is not running");
  // Not again when the simulator's hint has just asked (prefetch_placement_of).
  if (prefetch_placements_ && placement_prefetched_ != job) prefetch_placement(rec);
  placement_prefetched_ = UINT32_MAX;
  rec.completion = EventId{};
  if (rec.behaviour >= 0) {
    // The end of a step's work, not necessarily of the job.
    rec.remaining_work = 0;
    rec.last_update = sim_.now();
    apply_step(job, behaviours_[static_cast<std::size_t>(rec.behaviour)].program->work_done(sim_.now()));
    if (rec.state == JobState::Completed) schedule_pending();
    return;
  }
  complete(job);
  schedule_pending();
}

void ClusterRuntime::record_requests(const RequestEvent& event) {
  const SimTime now = sim_.now();
  if (request_stats_.size() <= event.origin) request_stats_.resize(event.origin + 1);
  if (window_awaits_warmup()) {
    // Only what arrived now may fall inside the window (a latency of 0 finished a request that
    // arrived now).
    if (event.arrivals > 0 || event.dropped > 0 || event.latency == 0) hold_request_event(event);
    return;
  }
  RequestStats& stats = request_stats_[event.origin];
  if (window_.contains(now)) {
    stats.arrived += event.arrivals;
    stats.dropped += event.dropped;
  }
  // A finished request counts where it arrived: now - its latency.
  if (event.latency >= 0 && window_.contains(now - event.latency)) {
    stats.latency_s.push_back(time_to_seconds(event.latency));
    stats.slowdown.push_back(event.request_work > 0 ? static_cast<double>(event.latency) / event.request_work : 1.0);
    const SimTime slo = origins_[event.origin].slo;
    stats.met_slo += slo > 0 && event.latency <= slo ? 1 : 0;
  }
}

void ClusterRuntime::record_lost_request(std::uint32_t origin, SimTime arrival) {
  if (window_awaits_warmup()) {
    if (arrival == sim_.now()) hold_request_event(RequestEvent{.origin = origin, .dropped = 1});
    return;
  }
  request_stats_[origin].dropped += window_.contains(arrival) ? 1u : 0u;
}

void ClusterRuntime::hold_request_event(const RequestEvent& event) {
  if (held_at_ != sim_.now()) {
    held_requests_.clear();
    held_at_ = sim_.now();
  }
  held_requests_.push_back(event);
}

namespace {

// Tells `count` of each request a behaviour loses, with its arrival time.
template <typename Count>
class LostRequestCounter final : public LostRequests {
 public:
  explicit LostRequestCounter(Count count) : count_(std::move(count)) {}
  void lost(SimTime arrival) override { count_(arrival); }

 private:
  Count count_;
};

}  // namespace

SimTime ClusterRuntime::stop_behaviour(std::uint32_t job) {
  const JobRecord& rec = jobs_[job];
  BehaviourSlot& slot = behaviours_[static_cast<std::size_t>(rec.behaviour)];
  sim_.cancel(slot.timer);
  slot.timer = EventId{};
  const std::uint32_t origin = rec.spec.origin;
  if (request_stats_.size() <= origin) request_stats_.resize(origin + 1);
  LostRequestCounter counter([this, origin](SimTime arrival) { record_lost_request(origin, arrival); });
  return slot.program->stop(sim_.now(), counter);
}

void ClusterRuntime::on_behaviour_timer(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  BehaviourSlot& slot = behaviours_[static_cast<std::size_t>(rec.behaviour)];
  slot.timer = EventId{};
  if (rec.state == JobState::Running) {
    apply_step(job, slot.program->timer(sim_.now()));
    if (rec.state == JobState::Completed) schedule_pending();
    return;
  }
  if (rec.state != JobState::Pending) return;
  // Killed and waiting for its restart (backoff or queue): its requests still arrive, refused,
  // and its lifetime still runs out (JobBehaviour::timer).
  const BehaviourStep step = slot.program->timer(sim_.now());
  if (step.arrivals > 0 || step.dropped > 0) record_requests(rec.spec.origin, step);
  if (step.done) {
    end_waiting(job);
    return;
  }
  if (step.timer != BehaviourStep::kKeepTimer && step.timer != kTimeNever) {
    slot.timer = sim_.schedule_at(std::max(step.timer, sim_.now()), timer_handler_, job);
  }
}

void ClusterRuntime::end_waiting(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  // Ends as it would have running (completed, at the end of its lifetime), but holds nothing:
  // it only leaves the queue, or its backoff (on_requeue then finds it ended).
  if (!rec.backing_off) scheduler_.pending().drain([job](std::uint32_t waiting) { return waiting == job; });
  rec.backing_off = false;
  rec.state = JobState::Completed;
  rec.end = sim_.now();
  last_job_event_ = sim_.now();
  ++counters_.completed;
  if (has_job_event_listeners()) log("complete", job, "");
}

void ClusterRuntime::apply_step(std::uint32_t job, const BehaviourStep& step, bool rate_settled) {
  JobRecord& rec = jobs_[job];
  const SimTime now = sim_.now();
  if (step.arrivals > 0 || step.dropped > 0 || step.latency >= 0) record_requests(rec.spec.origin, step);
  if (step.done) {
    stop_behaviour(job);  // what it still holds is lost with it
    complete(job);
    return;
  }
  if (step.timer != BehaviourStep::kKeepTimer) {
    EventId& timer = behaviours_[static_cast<std::size_t>(rec.behaviour)].timer;
    sim_.cancel(timer);
    timer = EventId{};
    if (step.timer != kTimeNever) timer = sim_.schedule_at(std::max(step.timer, now), timer_handler_, job);
  }
  FluidProgress::advance(rec, now);
  const bool new_work = step.work >= 0;
  if (new_work) {
    rec.remaining_work = step.work;
    fluid_.drop_completion(rec);  // set_rate, below, places the new work's completion even at an unchanged rate
  }
  const bool was_idle = rec.idle;
  if (step.demand) {
    const PhaseDemand& demand = *step.demand;
    rec.idle = demand.sm <= 0 && demand.bw <= 0;
    bool changed = false;
    for_each_device(rec, [&](const DeviceAllocation& device) {
      for (Resident& r : cluster_.gpu(device.gpu).residents) {
        if (r.task == job && !(r.demand == demand)) {
          r.demand = demand;
          changed = true;
        }
      }
    });
    if (changed) {
      // Lazy update: only the GPUs of this job get new rates.
      std::vector<std::uint32_t>& gpus = refreshed_gpus_scratch_;
      gpus_of(rec, gpus);
      if (gpus.empty()) {
        refresh_job(job);
      } else {
        refresh_gpus(gpus);
      }
      return;
    }
  }
  if (!new_work) return;
  if (rate_settled && rec.idle == was_idle) {
    // The same demand on the same GPUs: the same rate, since every change of a resident's rate
    // refreshes its job (refresh_gpu, the slice-level hook). Only the new work's completion is
    // placed, without looking the rate up among its GPUs' residents again, which is cold memory
    // by the time a service's request ends (docs/ci.md, 2026-11-28, a step's rate kept).
    SHARESIM_ASSERT(rec.rate == rate_from_residents(job, nullptr), "a settled job's rate differs from its GPUs'");
    fluid_.set_rate(job, rec, rec.rate);
    return;
  }
  refresh_job(job);
}

void ClusterRuntime::on_requeue(std::uint32_t job) {
  if (jobs_[job].state == JobState::Completed) return;  // its lifetime ended in the backoff (end_waiting)
  SHARESIM_ASSERT(jobs_[job].state == JobState::Pending && jobs_[job].backing_off,
                  "a job came back from a backoff it was not in");
  jobs_[job].backing_off = false;
  if (has_job_event_listeners()) log("requeue", job, "");
  SchedulingExecutor executor{*this};
  scheduler_.requeue(job, executor);
}

void ClusterRuntime::complete(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  SHARESIM_ASSERT(rec.state == JobState::Running && counters_.running > 0, "completing a job that is not running");
  fluid_.drop_completion(rec);  // set when a behaviour's step ended the job
  if (rec.behaviour >= 0) {
    EventId& timer = behaviours_[static_cast<std::size_t>(rec.behaviour)].timer;
    sim_.cancel(timer);
    timer = EventId{};
  }
  cancel_fault(job);
  rec.remaining_work = 0;
  rec.state = JobState::Completed;
  rec.end = sim_.now();
  last_job_event_ = sim_.now();
  --counters_.running;
  ++counters_.completed;
  if (has_job_event_listeners()) log("complete", job, "");
  vacate(job);
}

void ClusterRuntime::vacate(std::uint32_t job) {
  JobRecord& rec = jobs_[job];
  std::vector<std::uint32_t>& touched = vacated_gpus_scratch_;
  gpus_of(rec, touched);
  scheduler_.release(job, rec.spec, std::span<const PodPlacement>(pods_.data() + rec.first_pod, rec.pod_count),
                     devices_);
  for (std::uint32_t p = rec.first_pod; p < rec.first_pod + rec.pod_count; ++p) {
    if (preemption_) {
      std::vector<std::uint32_t>& on_node = jobs_on_node_[pods_[p].node];
      on_node.erase(std::remove(on_node.begin(), on_node.end(), job), on_node.end());
    }
  }
  if (!touched.empty()) refresh_gpus(touched);
  for (std::uint32_t gpu : touched) repartitioner_.resident_left(gpu);
}

void ClusterRuntime::kill(std::uint32_t job, const std::string& reason, KillCause cause, bool by_other) {
  JobRecord& rec = jobs_[job];
  SHARESIM_ASSERT(rec.state == JobState::Running && counters_.running > 0, "killing a job that is not running");
  fluid_.drop_completion(rec);
  cancel_fault(job);
  const SimTime next_behaviour_timer = rec.behaviour >= 0 ? stop_behaviour(job) : kTimeNever;
  rec.kill_cause = cause;
  rec.killed_by_other = by_other;
  counters_.killed_oom += cause == KillCause::Oom ? 1 : 0;
  counters_.killed_fault += cause == KillCause::Fault ? 1 : 0;
  counters_.killed_admission += cause == KillCause::AdmissionError ? 1 : 0;
  counters_.killed_preempted += cause == KillCause::Preempted ? 1 : 0;
  counters_.killed_by_other += by_other ? 1 : 0;
  const RestartSpec& restart = origins_[rec.spec.origin].restart;
  if (restarts_after_kill(restart, rec.restarts)) {
    // restartPolicy OnFailure with backoffLimit (restart_backoff.h): back to pending after the
    // backoff, keeping the work saved by its last checkpoint.
    if (rec.behaviour < 0 && restart.checkpoint_interval > 0) {
      FluidProgress::advance(rec, sim_.now());
      checkpointed_work_[job] = checkpointed_work(restart, static_cast<double>(rec.spec.work) - rec.remaining_work);
    }
    ++rec.restarts;
    ++counters_.restarts;
    rec.state = JobState::Pending;
    rec.failure = intern_text(failure_reasons_, failure_index_, reason);
    freed_by_kill_ = true;
    --counters_.running;
    log("restart", job, reason);
    vacate(job);
    rec.gpu_devices = 0;
    rec.idle = false;
    rec.backing_off = true;
    const SimTime backoff = restart_backoff(restart, rec.restarts);
    const SimTime at = backoff >= kTimeNever - sim_.now() ? kTimeNever : sim_.now() + backoff;
    sim_.schedule_at(at, requeue_handler_, job);
    if (next_behaviour_timer != kTimeNever) {
      // Its behaviour runs on without a pod: refused requests, the end of its lifetime.
      behaviours_[static_cast<std::size_t>(rec.behaviour)].timer =
          sim_.schedule_at(std::max(next_behaviour_timer, sim_.now()), timer_handler_, job);
    }
    return;
  }
  rec.state = JobState::Failed;
  rec.end = sim_.now();
  last_job_event_ = sim_.now();
  freed_by_kill_ = true;
  rec.failure = intern_text(failure_reasons_, failure_index_, reason);
  --counters_.running;
  ++counters_.failed;
  log("fail", job, reason);
  vacate(job);
}

void ClusterRuntime::schedule_pending() {
  SchedulingExecutor executor{*this};
  scheduler_.schedule_pending(executor);
}

void ClusterRuntime::on_repartitioned(std::uint32_t gpu, std::uint32_t trigger, SimTime drain_start,
                                      SimTime reconfigure_start, const std::string& detail) {
  if (gpu_usage_listener_ != nullptr) gpu_usage_listener_->repartitioned(gpu, drain_start, reconfigure_start, sim_.now());
  log("repartitioned", trigger, detail);
  schedule_pending();
}

void ClusterRuntime::finish(SimTime end) {
  for (JobRecord& rec : jobs_) {
    if (rec.state == JobState::Running) FluidProgress::advance(rec, end);
  }
}

void ClusterRuntime::log(const char* event, std::uint32_t job, const std::string& detail) {
  for (JobEventListener* listener : job_event_listeners_) listener->job_event(sim_.now(), event, job, detail);
}

}  // namespace sharesim
