#include "sim/runtime/slice_level.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/core/assert.h"

namespace sharesim {
namespace {

// Event delay for a positive duration in ns (at least 1 ns, so time moves on).
SimTime delay_of(double ns) { return std::max<SimTime>(1, static_cast<SimTime>(std::ceil(ns))); }

}  // namespace

SliceLevelExecution::SliceLevelExecution(Simulator& sim, Cluster& cluster, Callbacks callbacks)
    : sim_(sim), cluster_(cluster), callbacks_(std::move(callbacks)) {
  timer_handler_.owner = this;
  host_end_handler_.owner = this;
  const auto& gpus = cluster.gpus();
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const std::optional<SliceSchedule> schedule = gpus[g].sharing->traits().slice_schedule;
    if (!schedule) continue;
    if (gpus_.empty()) gpus_.resize(gpus.size());
    gpus_[g].schedule = *schedule;
  }
}

const SliceLevelExecution::DutyContext* SliceLevelExecution::context_of(std::uint32_t gpu, std::uint32_t task) const {
  for (const std::uint32_t c : gpus_[gpu].contexts) {
    if (contexts_[c].task == task) return &contexts_[c];
  }
  return nullptr;
}

SliceLevelExecution::DutyContext* SliceLevelExecution::context_of(std::uint32_t gpu, std::uint32_t task) {
  return const_cast<DutyContext*>(std::as_const(*this).context_of(gpu, task));
}

bool SliceLevelExecution::on_gpu(std::uint32_t gpu, const Resident& r) const { return r.rate > 0 && queued(gpu, r); }

bool SliceLevelExecution::queued(std::uint32_t gpu, const Resident& r) const {
  if (!is_active(r)) return false;
  if (r.demand.duty >= 1.0) return true;
  const DutyContext* context = context_of(gpu, r.task);
  return context == nullptr || context->queued;
}

void SliceLevelExecution::sync_contexts(std::uint32_t gpu) {
  GpuState& state = gpus_[gpu];
  const ResidentList& residents = cluster_.gpu(gpu).residents;
  const auto wants_context = [](const Resident& r) { return is_active(r) && r.demand.duty < 1.0; };
  // Drop the contexts of residents that left or no longer have a duty cycle.
  std::erase_if(state.contexts, [&](std::uint32_t c) {
    DutyContext& context = contexts_[c];
    const bool stays = std::any_of(residents.begin(), residents.end(),
                                   [&](const Resident& r) { return r.task == context.task && wants_context(r); });
    if (stays) return false;
    sim_.cancel(context.host_end);
    context = DutyContext{};
    free_contexts_.push_back(c);
    return true;
  });
  // New residents with a duty cycle start with GPU work queued.
  for (const Resident& r : residents) {
    if (!wants_context(r) || context_of(gpu, r.task) != nullptr) continue;
    std::uint32_t c = 0;
    if (free_contexts_.empty()) {
      c = static_cast<std::uint32_t>(contexts_.size());
      contexts_.emplace_back();
    } else {
      c = free_contexts_.back();
      free_contexts_.pop_back();
    }
    DutyContext& context = contexts_[c];
    context.gpu = gpu;
    context.task = r.task;
    context.queued = true;
    context.in_use = true;
    context.burst_left_ns = phases_.exponential(r.demand.duty * static_cast<double>(state.schedule.duty_period_ns));
    state.contexts.push_back(c);
  }
}

void SliceLevelExecution::account_holder(std::uint32_t gpu) {
  GpuState& state = gpus_[gpu];
  if (state.mode != Mode::Slice && state.mode != Mode::Solo) return;
  if (DutyContext* context = context_of(gpu, state.running)) {
    context->burst_left_ns -= static_cast<double>(sim_.now() - state.held_since);
  }
  state.held_since = sim_.now();
}

void SliceLevelExecution::start_running(std::uint32_t gpu, std::uint32_t task) {
  GpuState& state = gpus_[gpu];
  sim_.cancel(state.timer);
  state.running = task;
  state.held_since = sim_.now();
  const DutyContext* context = context_of(gpu, task);
  if (state.mode == Mode::Solo) {
    SHARESIM_ASSERT(context != nullptr, "a context running solo has a duty-cycle context");
    state.timer = sim_.schedule_in(delay_of(context->burst_left_ns), timer_handler_, gpu);
    return;
  }
  SimTime delay = state.schedule.slice_ns;
  if (context != nullptr) delay = std::min(delay, delay_of(context->burst_left_ns));
  state.timer = sim_.schedule_in(delay, timer_handler_, gpu);
}

void SliceLevelExecution::start_gap(std::uint32_t gpu) {
  GpuState& state = gpus_[gpu];
  sim_.cancel(state.timer);
  state.mode = Mode::Gap;
  callbacks_.switched(gpu);
  state.timer = sim_.schedule_in(state.schedule.gap_ns, timer_handler_, gpu);
}

void SliceLevelExecution::end_gpu_phase(std::uint32_t gpu) {
  DutyContext* context = context_of(gpu, gpus_[gpu].running);
  SHARESIM_ASSERT(context != nullptr, "the context ending its GPU phase has a duty-cycle context");
  const ResidentList& residents = cluster_.gpu(gpu).residents;
  const auto it =
      std::find_if(residents.begin(), residents.end(), [&](const Resident& r) { return r.task == context->task; });
  SHARESIM_ASSERT(it != residents.end(), "a duty-cycle context belongs to a resident of its GPU");
  const double period = static_cast<double>(gpus_[gpu].schedule.duty_period_ns);
  context->queued = false;
  context->burst_left_ns = 0;
  const std::uint32_t index = static_cast<std::uint32_t>(context - contexts_.data());
  context->host_end =
      sim_.schedule_in(delay_of(phases_.exponential((1.0 - it->demand.duty) * period)), host_end_handler_, index);
}

void SliceLevelExecution::decide(std::uint32_t gpu) {
  GpuState& state = gpus_[gpu];
  Gpu& device = cluster_.gpu(gpu);
  std::size_t waiting = 0;
  const Resident* first = nullptr;
  for (const Resident& r : device.residents) {
    if (!queued(gpu, r)) continue;
    if (first == nullptr) first = &r;
    ++waiting;
  }
  if (waiting < 2 && state.contexts.empty()) {
    // Alone, and no duty cycles: no slices to take turns in.
    sim_.cancel(state.timer);
    state.mode = Mode::Idle;
    state.running = GpuState::kNobody;
    device.sharing->compute_rates(device.residents);
    return;
  }
  if (waiting == 0) {
    sim_.cancel(state.timer);
    state.mode = Mode::Idle;
    state.running = GpuState::kNobody;
  } else if (waiting == 1) {
    // One context has the GPU to itself: no switches. With a duty cycle it runs until its GPU
    // phase ends; without, until something changes.
    sim_.cancel(state.timer);
    if (context_of(gpu, first->task) != nullptr) {
      state.mode = Mode::Solo;
      start_running(gpu, first->task);
    } else {
      state.mode = Mode::Idle;
      state.running = GpuState::kNobody;
    }
  } else if (state.mode == Mode::Idle) {
    // Two or more contexts now: the first queued one starts a slice.
    state.mode = Mode::Slice;
    start_running(gpu, first->task);
  } else if (state.mode == Mode::Solo) {
    // Someone else has work now: the context that had the GPU to itself starts its slice.
    const std::uint32_t holder = state.running;
    const bool still_queued = std::any_of(device.residents.begin(), device.residents.end(),
                                          [&](const Resident& r) { return r.task == holder && queued(gpu, r); });
    state.mode = Mode::Slice;
    start_running(gpu, still_queued ? holder : first->task);
  } else if (state.mode == Mode::Slice) {
    const bool holder_queued = std::any_of(device.residents.begin(), device.residents.end(), [&](const Resident& r) {
      return r.task == state.running && queued(gpu, r);
    });
    // The slice holder left (or has no work) mid-slice: the GPU switches to the next context.
    if (!holder_queued) start_gap(gpu);
  }
  set_rates(gpu);
}

void SliceLevelExecution::set_rates(std::uint32_t gpu) {
  const GpuState& state = gpus_[gpu];
  std::size_t waiting = 0;
  for (const Resident& r : cluster_.gpu(gpu).residents) waiting += queued(gpu, r) ? 1u : 0u;
  for (Resident& r : cluster_.gpu(gpu).residents) {
    if (!is_active(r)) {
      r.rate = 0.0;
    } else if (!queued(gpu, r)) {
      r.rate = 1.0;  // host phase: it progresses without the GPU
    } else if (state.mode == Mode::Idle) {
      r.rate = waiting == 1 ? 1.0 : 0.0;
    } else {
      r.rate = ((state.mode == Mode::Slice || state.mode == Mode::Solo) && r.task == state.running) ? 1.0 : 0.0;
    }
  }
}

void SliceLevelExecution::refresh(std::uint32_t gpu) {
  account_holder(gpu);
  sync_contexts(gpu);
  decide(gpu);
}

void SliceLevelExecution::on_timer(std::uint32_t gpu) {
  GpuState& state = gpus_[gpu];
  const ResidentList& residents = cluster_.gpu(gpu).residents;
  account_holder(gpu);
  state.timer = EventId{};
  if (state.mode == Mode::Gap) {
    // Round robin in resident (arrival) order: the next queued context after the last holder.
    auto it =
        std::find_if(residents.begin(), residents.end(), [&](const Resident& r) { return r.task == state.running; });
    const auto next_queued = [&](auto from) {
      for (auto i = from; i != residents.end(); ++i) {
        if (queued(gpu, *i)) return i;
      }
      return std::find_if(residents.begin(), residents.end(), [&](const Resident& r) { return queued(gpu, r); });
    };
    it = it == residents.end() ? next_queued(residents.begin()) : next_queued(std::next(it));
    state.mode = Mode::Idle;
    if (it != residents.end()) {
      state.mode = Mode::Slice;
      start_running(gpu, it->task);
    }
    decide(gpu);
  } else {
    const DutyContext* context = context_of(gpu, state.running);
    if (context != nullptr && context->burst_left_ns < 1.0) {
      // The holder's GPU phase is done: it yields the GPU before its slice ends.
      end_gpu_phase(gpu);
      decide(gpu);
    } else {
      start_gap(gpu);  // the slice is over
      set_rates(gpu);
    }
  }
  callbacks_.after(gpu);
}

void SliceLevelExecution::on_host_end(std::uint32_t c) {
  DutyContext& context = contexts_[c];
  const std::uint32_t gpu = context.gpu;
  account_holder(gpu);
  context.host_end = EventId{};
  context.queued = true;
  const ResidentList& residents = cluster_.gpu(gpu).residents;
  const auto it =
      std::find_if(residents.begin(), residents.end(), [&](const Resident& r) { return r.task == context.task; });
  SHARESIM_ASSERT(it != residents.end(), "a duty-cycle context belongs to a resident of its GPU");
  context.burst_left_ns =
      phases_.exponential(it->demand.duty * static_cast<double>(gpus_[gpu].schedule.duty_period_ns));
  decide(gpu);
  callbacks_.after(gpu);
}

}  // namespace sharesim
