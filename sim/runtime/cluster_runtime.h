#pragma once
// Executes jobs on the cluster: arrivals from the job sources, placement through the
// scheduler (which owns the scheduling loop), rates, completions, kills and restarts. It keeps
// the state it runs by (RuntimeCounters, GpuState); the collectors of sim/metrics observe it
// through listeners (GpuUsageListener, JobEventListener) and a read-only view. The concepts it
// composes each have their own file: FluidProgress (a job's remaining work and completion
// event), SliceLevelExecution, GpuRepartitioner, restart back-off (restart_backoff.h).
//
// When anything changes on one GPU, only that GPU's policy recomputes its residents' rates (or
// its slice-level execution runs them); each affected job gets its new rate through
// FluidProgress. A multi-GPU job progresses at the rate of its slowest GPU.
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/core/growing_array.h"
#include "sim/core/prefault_ahead.h"
#include "sim/core/random_stream.h"
#include "sim/core/simulator.h"
#include "sim/runtime/fluid_progress.h"
#include "sim/runtime/gpu_repartitioner.h"
#include "sim/runtime/job_behaviour.h"
#include "sim/runtime/gpu_usage_listener.h"
#include "sim/runtime/job_event_listener.h"
#include "sim/runtime/job_record.h"
#include "sim/runtime/job_origin.h"
#include "sim/runtime/job_source.h"
#include "sim/runtime/measurement_window.h"
#include "sim/runtime/slice_level.h"
#include "sim/sched/preemption.h"
#include "sim/sched/scheduler.h"

namespace sharesim {

// Requests (or notebook cells) of one origin's behaviour jobs.
// Counted over the measurement window only: requests that arrive (or are dropped) inside it,
// latencies of requests that arrived inside it.
struct RequestStats {
  // One value per finished request, in the order they finished: its latency (arrival to
  // completion, in seconds) and its slowdown (latency / standalone work). Contiguous, so that
  // compute_run_metrics selects their percentiles in place.
  GrowingArray<double> latency_s;
  GrowingArray<double> slowdown;
  std::uint64_t arrived = 0;
  std::uint64_t dropped = 0;  // refused as they arrived, or lost later with their pod
  std::uint64_t met_slo = 0;  // finished within the origin's SLO (counted in nanoseconds)
};

struct RuntimeCounters {
  std::uint64_t submitted = 0;
  std::uint64_t running = 0;
  std::uint64_t completed = 0;
  std::uint64_t failed = 0;
  std::uint64_t allocated_gpus = 0;
  std::uint64_t busy_gpus = 0;
  std::uint64_t killed_oom = 0;
  std::uint64_t killed_fault = 0;
  std::uint64_t killed_admission = 0;
  std::uint64_t killed_by_other = 0;   // of the above, jobs that died of another pod's OOM or fault
  std::uint64_t restarts = 0;          // kills after which the job was requeued (restart OnFailure)
  std::uint64_t killed_preempted = 0;  // jobs evicted by a higher-priority pod (scheduler.preemption)
  std::uint64_t preemptions = 0;       // pods placed by evicting others
  std::uint64_t peak_allocated_gpus = 0;
  std::int64_t memory_used_mib = 0;  // device memory the residents of every GPU hold
};

class ClusterRuntime {
 public:
  ClusterRuntime(Simulator& sim, Cluster& cluster, Scheduler& scheduler, const ShapeTable& shapes,
                 const std::vector<JobOrigin>& origins, std::vector<std::unique_ptr<JobSource>> sources);

  // Schedules the first arrival of every source.
  void start();
  // Brings the progress of running jobs up to `end` (call once, after the simulator stopped).
  void finish(SimTime end);
  // Tells `listener` of every job event from now on (sim/metrics/event_log.h); it must outlive
  // the run.
  void add_job_event_listener(JobEventListener& listener) { job_event_listeners_.push_back(&listener); }
  // Tells `listener` of every change of every GPU from now on (sim/metrics/gpu_usage_meter.h; one
  // at most, nullptr for none); it must outlive the run.
  void set_gpu_usage_listener(GpuUsageListener* listener) { gpu_usage_listener_ = listener; }
  // Injects fatal faults: each job that starts draws an exponential running time to its fault
  // (mean `mtbf`) from the stream "faults" of `seed`. Call before start().
  void set_faults(SimTime mtbf, std::uint64_t seed);
  // Clips the usage integrals and request statistics to [start, end] (call before start()).
  // With warmup_jobs N > 0 the window opens only when job N (counting arrivals from 0)
  // arrives: that arrival time is its start.
  void set_measurement_window(SimTime start, SimTime end, std::uint64_t warmup_jobs);
  // The window in force; with warm-up jobs still to come, start is kTimeNever.
  const MeasurementWindow& measurement_window() const { return window_; }
  // Seeds the run's other random streams (slice-level phases of contexts with duty cycles).
  void set_seed(std::uint64_t seed) { slice_level_.set_seed(seed); }

  const std::vector<JobRecord>& jobs() const { return jobs_; }
  const std::vector<PodPlacement>& pods() const { return pods_; }
  const std::vector<DeviceAllocation>& devices() const { return devices_; }
  // The state of each GPU as of its last change, by GPU index.
  const std::vector<GpuState>& gpu_states() const { return gpu_state_; }
  // The repartitionings under way (GpuRepartitioner::for_each_under_way).
  template <typename Visit>
  void for_each_repartitioning(Visit&& visit) const {
    repartitioner_.for_each_under_way(std::forward<Visit>(visit));
  }
  const std::vector<JobOrigin>& origins() const { return origins_; }
  const std::vector<std::string>& failure_reasons() const { return failure_reasons_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const RuntimeCounters& counters() const { return counters_; }
  // The request figures by origin index (shorter than origins() when the last origins have no
  // behaviour jobs), handed over: compute_run_metrics reorders the samples, the runtime keeps none.
  std::vector<RequestStats> take_request_stats() { return std::exchange(request_stats_, {}); }
  // Time of the latest arrival, completion or failure: the end of a run without `until`.
  SimTime last_job_event() const { return last_job_event_; }
  const Cluster& cluster() const { return cluster_; }
  const ShapeTable& shapes() const { return shapes_; }
  // Whether resident `r` of GPU `gpu`, whose policy runs slice-level (GpuState::slice_level),
  // runs on it now (SliceLevelExecution::on_gpu): the usage meter counts its SMs then only.
  bool runs_on_gpu_now(std::uint32_t gpu, const Resident& r) const { return slice_level_.on_gpu(gpu, r); }
  Scheduler& scheduler() { return scheduler_; }
  const Scheduler& scheduler() const { return scheduler_; }
  // Calls visit(device) for every GPU allocation of every pod of the job.
  template <typename Visit>
  void for_each_device(const JobRecord& rec, Visit&& visit) const {
    for (std::uint32_t p = rec.first_pod; p < rec.first_pod + rec.pod_count; ++p) {
      const PodPlacement& pod = pods_[p];
      for (std::uint32_t d = pod.first_device; d < pod.first_device + pod.device_count; ++d) visit(devices_[d]);
    }
  }

  // "<origin>-<sequence>": the job's name in every output. append_job_name() writes it into a
  // buffer the caller reuses (jobs.csv: no string per job).
  std::string job_name(const JobRecord& job) const;
  void append_job_name(std::string& out, const JobRecord& job) const;
  // Why a pending job waits, as kube-scheduler words it: the filters' reasons and, when
  // scheduler.preemption is on, DefaultPreemption's ("... preemption: 0/2 nodes are available:
  // 2 No preemption victims found for incoming pod."). The preemption part is a dry run on the
  // cluster as it stands; the cluster is left exactly as it was.
  std::string explain_pending(const JobSpec& job) const;

 private:
  // The job's record, whose cache lines a completion reads first (a million records do not fit
  // in the caches).
  void prefetch_job(std::uint32_t job) const;
  // What a completion of `rec` reads next: its first pod, device and GPU (the record's first
  // line and its residents'), and the GPU's state and usage record. Asked for together, the
  // loads overlap; followed from the pod, they were a chain of dependent cache misses (1M jobs
  // on 10,000 GPUs: vacate and the usage meter took 20% of the samples; docs/ci.md).
  // Only in clusters of kPrefetchMinGpus or more: in small ones all of it stays in the caches,
  // and M/M/8 (8 GPUs) ran slower with it (docs/ci.md).
  void prefetch_placement(const JobRecord& rec) const;
  // prefetch_placement() of a running job, from its record (prefetched one event earlier). The
  // job is noted, so that its completion does not ask again.
  void prefetch_placement_of(std::uint32_t job) const;
  // The job prefetch_placement_of() last asked for, until a completion runs.
  mutable std::uint32_t placement_prefetched_ = UINT32_MAX;
  bool prefetch_placements_ = false;
  static constexpr std::size_t kPrefetchMinGpus = 1024;
  struct ArrivalHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t source) override { runtime->on_arrival(static_cast<std::size_t>(source)); }
  };
  struct CompletionHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t job) override { runtime->on_completion(job); }
    void prefetch(std::uint32_t job) const override { runtime->prefetch_job(job); }
    void prefetch_followed(std::uint32_t job) const override { runtime->prefetch_placement_of(job); }
  };
  struct FaultHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t job) override { runtime->on_fault(job); }
  };
  struct TimerHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t job) override { runtime->on_behaviour_timer(job); }
  };
  struct RequeueHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t job) override { runtime->on_requeue(job); }
  };
  // Repartitioning's events, logged and counted in the GPU's usage.
  struct RepartitionEvents final : GpuRepartitioner::Listener {
    ClusterRuntime* runtime = nullptr;
    void draining(std::uint32_t trigger, const std::string& detail) override {
      runtime->log("repartition", trigger, detail);
    }
    void repartitioned(std::uint32_t gpu, std::uint32_t trigger, SimTime drain_start, SimTime reconfigure_start,
                       const std::string& detail) override {
      runtime->on_repartitioned(gpu, trigger, drain_start, reconfigure_start, detail);
    }
  };

  void pull_next_arrival(std::size_t source);
  // Schedules the earliest buffered arrival over all sources; simultaneous arrivals go in
  // source order, the order `sharesim generate` writes them in.
  void schedule_next_arrival();
  void on_arrival(std::size_t source);
  void on_completion(std::uint32_t job);

  // The runtime's side of the scheduling loop (Scheduler::arrive, requeue, schedule_pending).
  struct SchedulingExecutor {
    ClusterRuntime& runtime;
    const JobSpec& spec(std::uint32_t job) const { return runtime.jobs_[job].spec; }
    bool start(std::uint32_t job) { return runtime.try_start(job); }
    bool preempt(std::uint32_t job) { return runtime.try_preempt(job); }
    bool take_freed() { return std::exchange(runtime.freed_by_kill_, false); }
    void jobs_waiting() { runtime.plan_repartitions(); }
  };

  // Places and starts the job; on `nominated_node` only, when given.
  bool try_start(std::uint32_t job, std::optional<std::uint32_t> nominated_node = std::nullopt);
  void schedule_pending();
  // Priority preemption (runtime_preemption.cpp, sim/sched/preemption.h).
  struct PreemptionPlan {
    std::optional<PreemptionCandidate> chosen;
    std::string failure;  // kube-scheduler's PostFilter message when there is no candidate
  };
  PreemptionPlan plan_preemption(const JobSpec& spec) const;
  // Evicts the chosen victims and starts the job on their node; false when there is no candidate.
  bool try_preempt(std::uint32_t job);
  // The jobs holding pods on the node, as possible victims.
  void victims_on_node(std::uint32_t node, std::vector<PreemptionVictim>& out) const;
  bool freed_by_kill_ = false;  // a kill freed resources: pending jobs get another try
  // Removes the job from its GPUs and gives its resources back; refreshes those GPUs.
  void vacate(std::uint32_t job);
  void kill(std::uint32_t job, const std::string& reason, KillCause cause, bool by_other);
  // Kills what a policy decided (after a join or a fault) on one GPU; `trigger` caused it.
  void apply_casualties(const Gpu& gpu, const Casualties& casualties, std::uint32_t trigger);
  void on_fault(std::uint32_t job);
  void cancel_fault(std::uint32_t job);
  // Behaviour jobs (job_behaviour.h): a step's effects, its timer, the end of its work.
  // `rate_settled`: the job has run since its GPUs' rates were last computed (not at its
  // start), so its rate is still its GPUs' residents' rate.
  void apply_step(std::uint32_t job, const BehaviourStep& step, bool rate_settled = true);
  void on_behaviour_timer(std::uint32_t job);
  // The job's pods are gone (killed, or ended by its step): cancels its timer, counts the
  // requests its behaviour held as dropped, and returns its behaviour's next timer without a pod.
  SimTime stop_behaviour(std::uint32_t job);
  // A job waiting for its restart whose behaviour ended (a service's lifetime, a notebook's
  // session, both wall time): it completes without being placed again.
  void end_waiting(std::uint32_t job);
  void complete(std::uint32_t job);
  // Restart OnFailure: back into the pending queue after its backoff.
  void on_requeue(std::uint32_t job);
  // Dynamic repartitioning (gpu_repartitioner.h) for the jobs waiting now.
  void plan_repartitions() {
    repartitioner_.plan([this](std::uint32_t job) -> const JobSpec& { return jobs_[job].spec; });
  }
  void on_repartitioned(std::uint32_t gpu, std::uint32_t trigger, SimTime drain_start, SimTime reconfigure_start,
                        const std::string& detail);
  std::int32_t intern_text(std::vector<std::string>& table, std::unordered_map<std::string, std::int32_t>& index,
                           const std::string& text);
  // Recomputes rates on one GPU and moves the completion events of its residents.
  void refresh_gpu(std::uint32_t gpu);
  // refresh_gpu for several GPUs that changed at once (a job's, as it starts, ends or changes
  // its demand): every GPU's rates first, then every resident job once, then every GPU's state.
  // `gpus` may repeat a GPU (two pods of a gang on one); it is refreshed once.
  // Inline, as the one-GPU case is every start and end of most runs: out of line (with
  // gpus_of and compute_gpu_rates), the M/M/8 run's simulation took 2% more instructions
  // (callgrind, docs/ci.md "stop 44").
  void refresh_gpus(std::vector<std::uint32_t>& gpus) {
    if (gpus.size() == 1) {
      refresh_gpu(gpus.front());
    } else {
      refresh_several_gpus(gpus);
    }
  }
  void refresh_several_gpus(std::vector<std::uint32_t>& gpus);
  // The policy's (or the slice-level execution's) rates for the residents of one GPU.
  void compute_gpu_rates(std::uint32_t gpu_index) {
    if (slice_level_.runs(gpu_index)) {
      slice_level_.refresh(gpu_index);
    } else {
      Gpu& gpu = cluster_.gpu(gpu_index);
      gpu.sharing->compute_rates(gpu.residents);
    }
  }
  // The GPUs of the job's devices, in device order, into `out` (cleared first).
  void gpus_of(const JobRecord& rec, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (rec.gpu_devices == 1) {
      out.push_back(rec.first_gpu);  // most jobs: no walk over pods and devices
      return;
    }
    for_each_device(rec, [&out](const DeviceAllocation& device) { out.push_back(device.gpu); });
  }
  // Brings the job's progress up to now and moves its completion to its new rate: the lowest
  // over its GPUs, or, for a job on one GPU, that resident's rate when it is given.
  void refresh_job(std::uint32_t job, const Resident* resident_on_changed_gpu = nullptr);
  // The rate refresh_job would set.
  double rate_from_residents(std::uint32_t job, const Resident* resident_on_changed_gpu) const;
  // Brings the GPU's state and the counters up to date and tells the usage listener.
  void update_gpu_state(std::uint32_t gpu);
  // Tells the job event listeners; callers that build the detail text check
  // has_job_event_listeners() first.
  void log(const char* event, std::uint32_t job, const std::string& detail);
  bool has_job_event_listeners() const { return !job_event_listeners_.empty(); }

  Simulator& sim_;
  Cluster& cluster_;
  Scheduler& scheduler_;
  const ShapeTable& shapes_;
  const std::vector<JobOrigin>& origins_;  // grows while a trace streams in
  std::vector<std::unique_ptr<JobSource>> sources_;
  std::vector<JobSpec> next_arrival_;  // one buffered job per source
  std::vector<bool> source_has_next_;
  SimTime last_job_event_ = 0;  // latest arrival, completion or failure

  std::vector<JobRecord> jobs_;
  std::vector<PodPlacement> pods_;
  std::vector<DeviceAllocation> devices_;
  // Declared after jobs_, so it stops before the table is freed.
  PrefaultAhead jobs_prefault_;
  static constexpr std::size_t kPrefaultMinJobs = std::size_t{1} << 16;
  // 16 MiB of records, about 0.2 s of a million-job run: the thread's 2 MiB steps stay ahead.
  static constexpr std::size_t kPrefaultLeadJobs = std::size_t{1} << 17;
  std::vector<GpuState> gpu_state_;
  GpuUsageListener* gpu_usage_listener_ = nullptr;
  std::vector<std::string> failure_reasons_;
  std::unordered_map<std::string, std::int32_t> failure_index_;
  std::vector<std::string> notes_;
  std::unordered_map<std::string, std::int32_t> note_index_;
  SliceLevelExecution slice_level_;  // GPUs whose policy runs slice-level
  RepartitionEvents repartition_events_;
  GpuRepartitioner repartitioner_;
  // One per job with a behaviour: its program and its pending timer.
  struct BehaviourSlot {
    std::unique_ptr<JobBehaviour> program;
    EventId timer;
  };
  std::vector<BehaviourSlot> behaviours_;
  // Standalone work saved by the last checkpoint, for restarted jobs that checkpoint.
  std::unordered_map<std::uint32_t, double> checkpointed_work_;
  std::vector<RequestStats> request_stats_;
  MeasurementWindow window_;
  std::uint64_t warmup_jobs_ = 0;
  // What one behaviour step tells of its origin's requests (BehaviourStep's fields).
  struct RequestEvent {
    std::uint32_t origin = 0;
    std::uint32_t arrivals = 0;
    std::uint32_t dropped = 0;
    SimTime latency = -1;
    double request_work = 0;
  };
  // Adds the requests of one behaviour step that fall inside the measurement window, each
  // where it arrived (a finished one at now - latency, a refused one now).
  void record_requests(std::uint32_t origin, const BehaviourStep& step) {
    record_requests(RequestEvent{origin, step.arrivals, step.dropped, step.latency, step.request_work});
  }
  void record_requests(const RequestEvent& event);
  // A request that arrived at `arrival` was lost with its pod: dropped, where it arrived.
  void record_lost_request(std::uint32_t origin, SimTime arrival);
  // The window waits for warm-up job N to arrive; it may open at this very instant, after
  // requests that arrive now were seen. Those (and only those: earlier arrivals lie before any
  // start it can get) are held and counted once it opens at their instant, so that a request
  // counts as arrived exactly when its completion or drop counts (audit: a notebook showed 71
  // cells completed of 69 that arrived, those of time 0 before job N's arrival missing).
  bool window_awaits_warmup() const { return warmup_jobs_ > 0 && window_.start == kTimeNever; }
  void hold_request_event(const RequestEvent& event);
  std::vector<RequestEvent> held_requests_;  // what arrived at held_at_ while the window awaited warm-up
  SimTime held_at_ = -1;
  SimTime fault_mtbf_ = 0;
  RandomStream fault_stream_{0};
  // Each job's pending fatal fault, by job (grown as jobs start; empty when no faults are injected).
  std::vector<EventId> faults_;
  RuntimeCounters counters_;
  std::vector<JobEventListener*> job_event_listeners_;

  ArrivalHandler arrival_handler_;
  CompletionHandler completion_handler_;
  FluidProgress fluid_{sim_, completion_handler_};
  FaultHandler fault_handler_;
  TimerHandler timer_handler_;
  RequeueHandler requeue_handler_;
  Casualties casualties_scratch_;
  std::vector<std::uint32_t> vacated_gpus_scratch_;
  std::vector<std::uint32_t> newly_held_scratch_;
  std::vector<std::uint32_t> refreshed_gpus_scratch_;                // the GPUs refresh_gpus is given
  std::vector<std::pair<std::uint32_t, const Resident*>> refreshed_jobs_scratch_;  // their residents' jobs
  // Preemption bookkeeping, kept only when scheduler.preemption is on.
  bool preemption_ = false;
  std::vector<std::vector<std::uint32_t>> jobs_on_node_;  // running jobs with a pod on each node
  std::unordered_map<std::uint32_t, SimTime> run_start_;  // start of the current run of restarted jobs
};

}  // namespace sharesim
