#pragma once
// Executes jobs on the cluster: arrivals from the job sources, placement through the
// scheduler, fluid progress of running jobs (DESIGN.md "Fluid progress, lazily updated"),
// completions, and the usage integrals the metrics are computed from.
//
// A running job has remaining work (ns of standalone work) and a rate. When anything changes
// on one GPU, only that GPU's policy recomputes its residents' rates; each affected job's
// remaining work is brought up to date and its completion event moved. A multi-GPU job
// progresses at the rate of its slowest GPU.
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
#include "sim/core/random_stream.h"
#include "sim/core/simulator.h"
#include "sim/runtime/gpu_repartitioner.h"
#include "sim/runtime/job_behaviour.h"
#include "sim/runtime/job_event_listener.h"
#include "sim/runtime/job_origin.h"
#include "sim/runtime/job_source.h"
#include "sim/runtime/measurement_window.h"
#include "sim/runtime/slice_level.h"
#include "sim/sched/preemption.h"
#include "sim/sched/scheduler.h"

namespace sharesim {

enum class JobState : std::uint8_t { Pending, Running, Completed, Failed };
std::string_view job_state_name(JobState state);

struct JobRecord {
  JobSpec spec;
  JobState state = JobState::Pending;
  // The behaviour and restart fields sit in what was padding, so the record stays 128 bytes
  // (a million jobs are held at once).
  bool idle = false;            // its behaviour's current demand is idle (no progress)
  bool backing_off = false;     // pending in its restart backoff, not yet back in the queue
  std::int32_t behaviour = -1;  // index into the runtime's behaviour slots; -1 = steady work
  SimTime start = -1;
  SimTime end = -1;
  double remaining_work = 0;  // ns of standalone work left as of last_update
  double rate = 0;            // current progress rate, 1.0 = standalone speed
  SimTime last_update = 0;
  EventId completion;
  std::uint32_t first_pod = 0;  // range in ClusterRuntime::pods()
  std::uint32_t pod_count = 0;
  std::uint32_t gpu_devices = 0;  // device allocations it holds (0 for CPU-only jobs)
  std::int32_t failure = -1;      // index into failure_reasons() when Failed
  std::int32_t note = -1;         // index into notes(): a policy's remark on its placement
  EventId fault;                  // its pending fatal fault, when faults are injected
  KillCause kill_cause = KillCause::None;
  bool killed_by_other = false;  // died of another pod's OOM or fault (blast radius)
  std::uint16_t restarts = 0;    // times it was requeued after a kill (restart: OnFailure; at most 65535)
};

// Requests (or notebook cells) of one origin's behaviour jobs.
// Counted over the measurement window only: requests that arrive (or are dropped) inside it,
// latencies of requests that arrived inside it.
struct RequestStats {
  std::vector<SimTime> latency_ns;  // arrival to completion, one per finished request
  std::vector<double> slowdown;     // latency / standalone work of the request, same order
  std::uint64_t arrived = 0;
  std::uint64_t dropped = 0;  // queued in a pod when it was killed
};

struct GpuUsage {
  SimTime allocated_since = -1;  // -1 while no job holds the GPU
  SimTime busy_since = -1;       // -1 while no resident makes progress
  SimTime allocated_ns = 0;
  SimTime busy_ns = 0;
  std::uint64_t jobs_started = 0;
  // Integrals since the start, brought up to date whenever the GPU's residents or rates change.
  SimTime last_change = 0;
  double switch_rate = 0;  // context switches per ns (fluid), as of last_change
  double sm_load = 0;      // sum of rate x sm over residents, capped at 1 (SM-weighted utilization)
  std::int64_t memory_mib = 0;
  double context_switches = 0;
  double sm_busy_ns = 0;     // integral of sm_load
  double memory_mib_ns = 0;  // integral of memory_mib
  std::int64_t peak_memory_mib = 0;
  // Dynamic repartitioning (GpuSharing::repartitioning): layouts applied, time spent
  // draining (taking no new pods while its pods finish) and reconfiguring (offering nothing).
  std::uint32_t reconfigurations = 0;
  SimTime draining_ns = 0;
  SimTime reconfiguring_ns = 0;
  // The integrals above clipped to the measurement window (the summary's figures; gpus.csv
  // keeps the whole run). With the default window, [0, never), they equal the whole-run ones
  // bit for bit: the same products are added in the same order.
  struct Windowed {
    SimTime allocated_ns = 0;
    SimTime busy_ns = 0;
    double sm_busy_ns = 0;
    double memory_mib_ns = 0;
    double context_switches = 0;
    SimTime draining_ns = 0;
    SimTime reconfiguring_ns = 0;
  };
  Windowed in_window;
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
  std::uint64_t killed_by_other = 0;   // of the above, pods that died of another pod's OOM or fault
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
  // Closes the usage integrals at `end` (call once, after the simulator stopped).
  void finish(SimTime end);
  // Tells `listener` of every job event from now on (sim/metrics/event_log.h); it must outlive
  // the run.
  void add_job_event_listener(JobEventListener& listener) { job_event_listeners_.push_back(&listener); }
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
  const std::vector<GpuUsage>& gpu_usage() const { return gpu_usage_; }
  const std::vector<JobOrigin>& origins() const { return origins_; }
  const std::vector<std::string>& failure_reasons() const { return failure_reasons_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const RuntimeCounters& counters() const { return counters_; }
  // By origin index; shorter than origins() when the last origins have no behaviour jobs.
  const std::vector<RequestStats>& request_stats() const { return request_stats_; }
  // Time of the latest arrival, completion or failure: the end of a run without `until`.
  SimTime last_job_event() const { return last_job_event_; }
  const Cluster& cluster() const { return cluster_; }
  const ShapeTable& shapes() const { return shapes_; }
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

  std::string job_name(const JobRecord& job) const;
  // Why a pending job waits, as kube-scheduler words it: the filters' reasons and, when
  // scheduler.preemption is on, DefaultPreemption's ("... preemption: 0/2 nodes are available:
  // 2 No preemption victims found for incoming pod."). The preemption part is a dry run on the
  // cluster as it stands; the cluster is left exactly as it was.
  std::string explain_pending(const JobSpec& job) const;

 private:
  struct ArrivalHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t source) override { runtime->on_arrival(static_cast<std::size_t>(source)); }
  };
  struct CompletionHandler : EventHandler {
    ClusterRuntime* runtime = nullptr;
    void on_event(std::uint32_t job) override { runtime->on_completion(job); }
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
  // Behaviour jobs (job_behaviour.h): a step's effects, its timer, the end of its work.
  void apply_step(std::uint32_t job, const BehaviourStep& step);
  void on_behaviour_timer(std::uint32_t job);
  void complete(std::uint32_t job);
  // Restart OnFailure: back into the pending queue after its backoff.
  void on_requeue(std::uint32_t job);
  // Dynamic repartitioning (gpu_repartitioner.h) for the jobs waiting now.
  void plan_repartitions() {
    repartitioner_.plan([this](std::uint32_t job) { return jobs_[job].spec.shape; });
  }
  void on_repartitioned(std::uint32_t gpu, std::uint32_t trigger, SimTime drain_start, SimTime reconfigure_start,
                        const std::string& detail);
  std::int32_t intern_text(std::vector<std::string>& table, std::unordered_map<std::string, std::int32_t>& index,
                           const std::string& text);
  // Recomputes rates on one GPU and moves the completion events of its residents.
  void refresh_gpu(std::uint32_t gpu);
  // Brings the job's progress up to now and moves its completion to its new rate: the lowest
  // over its GPUs, or, for a job on one GPU, that resident's rate when it is given.
  void refresh_job(std::uint32_t job, const Resident* resident_on_changed_gpu = nullptr);
  // Brings remaining work up to `time` at the job's current rate.
  static void advance_progress(JobRecord& rec, SimTime time);
  void update_gpu_usage(std::uint32_t gpu);
  // Adds the time since usage.last_change to the rate integrals (whole run and windowed).
  void accumulate_usage(GpuUsage& usage, SimTime now) const;
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
  std::vector<GpuUsage> gpu_usage_;
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
  // Adds the requests of one behaviour step that fall inside the measurement window.
  void record_requests(std::uint32_t origin, const BehaviourStep& step);
  SimTime fault_mtbf_ = 0;
  RandomStream fault_stream_{0};
  RuntimeCounters counters_;
  std::vector<JobEventListener*> job_event_listeners_;

  ArrivalHandler arrival_handler_;
  CompletionHandler completion_handler_;
  FaultHandler fault_handler_;
  TimerHandler timer_handler_;
  RequeueHandler requeue_handler_;
  Casualties casualties_scratch_;
  std::vector<std::uint32_t> vacated_gpus_scratch_;
  std::vector<std::uint32_t> newly_held_scratch_;
  // Preemption bookkeeping, kept only when scheduler.preemption is on.
  bool preemption_ = false;
  std::vector<std::vector<std::uint32_t>> jobs_on_node_;  // running jobs with a pod on each node
  std::unordered_map<std::uint32_t, SimTime> run_start_;  // start of the current run of restarted jobs
};

}  // namespace sharesim
