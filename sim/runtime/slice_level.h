#pragma once
// Slice-level execution of GPUs whose policy asks for it (SharingTraits::slice_schedule;
// DESIGN.md: time-slicing "also has a slice-level mode that runs each slice as events"): the
// contexts that have GPU work queued run one at a time, in resident order, for a slice each,
// with a gap between two slices in which none runs (the switch cost).
//
// A context with a duty cycle u < 1 (PhaseDemand::duty) alternates host phases (no GPU work
// queued; it progresses on its own) and GPU phases (it needs u of its standalone time as GPU
// time). Phase lengths are exponential with means (1 - u) P and u P, P being the policy's
// SliceSchedule::duty_period_ns, drawn from the run's stream "slice-phases". A context with
// u = 1 always has work queued, as before duty cycles existed. docs/models.md "Duty cycles"
// explains why the fluid model's closed form is the long-run mean of this.
//
// It sets the GPU's residents' rates: 1 for the context whose slice it is and for contexts in
// a host phase, 0 for contexts waiting for their turn and during gaps.
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/core/random_stream.h"
#include "sim/core/simulator.h"

namespace sharesim {

class SliceLevelExecution {
 public:
  // The runtime's side: `after` is called after every rate change this class makes on its own
  // (slice ends, host phases ending) and passes the new rates on to the jobs and the usage
  // integrals (which close the old rates' span lazily, at that update); `switched` counts one
  // context switch on the GPU.
  struct Callbacks {
    std::function<void(std::uint32_t gpu)> after;
    std::function<void(std::uint32_t gpu)> switched;
  };

  SliceLevelExecution(Simulator& sim, Cluster& cluster, Callbacks callbacks);
  SliceLevelExecution(const SliceLevelExecution&) = delete;
  SliceLevelExecution& operator=(const SliceLevelExecution&) = delete;

  void set_seed(std::uint64_t seed) { phases_ = RandomStream(seed, "slice-phases"); }
  // Whether this GPU runs slice-level (its policy has a slice schedule).
  bool runs(std::uint32_t gpu) const { return !gpus_.empty() && gpus_[gpu].schedule.slice_ns > 0; }
  // The GPU's residents changed: brings the slice state up to date and sets their rates.
  void refresh(std::uint32_t gpu);
  // Whether resident `r` of slice-level GPU `gpu` runs on it now: in a GPU phase and served. A
  // context in a host phase progresses (rate 1) without the GPU, so its rate does not say.
  bool on_gpu(std::uint32_t gpu, const Resident& r) const;

 private:
  enum class Mode : std::uint8_t {
    Idle,   // fewer than two contexts queued, and none of them with a duty cycle running alone
    Solo,   // one context with a duty cycle has the GPU to itself until its GPU phase ends
    Slice,  // `running` holds a slice while others wait
    Gap,    // switching away from `running`
  };
  // A context with a duty cycle below 1 on a slice-level GPU.
  struct DutyContext {
    std::uint32_t gpu = 0;
    std::uint32_t task = 0;
    bool queued = true;        // in a GPU phase (else in a host phase)
    double burst_left_ns = 0;  // GPU time its current GPU phase still needs
    EventId host_end;          // end of its host phase
    bool in_use = false;
  };
  struct GpuState {
    SliceSchedule schedule;  // slice_ns == 0: fluid GPU
    Mode mode = Mode::Idle;
    EventId timer;
    std::uint32_t running = kNobody;      // task whose slice (or solo phase) it is, or was during a gap
    SimTime held_since = 0;               // when `running` last started to run
    std::vector<std::uint32_t> contexts;  // indices into contexts_
    static constexpr std::uint32_t kNobody = 0xffffffffu;
  };
  struct TimerHandler : EventHandler {
    SliceLevelExecution* owner = nullptr;
    void on_event(std::uint32_t gpu) override { owner->on_timer(gpu); }
  };
  struct HostEndHandler : EventHandler {
    SliceLevelExecution* owner = nullptr;
    void on_event(std::uint32_t context) override { owner->on_host_end(context); }
  };

  void on_timer(std::uint32_t gpu);
  void on_host_end(std::uint32_t context);
  // Adds contexts for new residents with a duty cycle, drops those of residents gone.
  void sync_contexts(std::uint32_t gpu);
  DutyContext* context_of(std::uint32_t gpu, std::uint32_t task);
  const DutyContext* context_of(std::uint32_t gpu, std::uint32_t task) const;
  bool queued(std::uint32_t gpu, const Resident& r) const;
  // GPU time the holder used since it last started, taken off its GPU phase.
  void account_holder(std::uint32_t gpu);
  // Starts a slice (or a solo phase) for `task`: the timer fires at the slice's end or when
  // the task's GPU phase is done, whichever comes first.
  void start_running(std::uint32_t gpu, std::uint32_t task);
  void start_gap(std::uint32_t gpu);
  // The holder finished its GPU phase: it goes to a host phase.
  void end_gpu_phase(std::uint32_t gpu);
  // From the state and the queued contexts: the next mode, and the residents' rates.
  void decide(std::uint32_t gpu);
  void set_rates(std::uint32_t gpu);

  Simulator& sim_;
  Cluster& cluster_;
  Callbacks callbacks_;
  std::vector<GpuState> gpus_;  // by GPU; empty when no GPU runs slice-level
  std::vector<DutyContext> contexts_;
  std::vector<std::uint32_t> free_contexts_;
  RandomStream phases_{0};
  TimerHandler timer_handler_;
  HostEndHandler host_end_handler_;
};

}  // namespace sharesim
