#include "sim/metrics/gpu_usage_meter.h"

#include <algorithm>

#include "sim/core/prefetch_lines.h"

namespace sharesim {
namespace {

// A span (held, busy) that was open since `since` (-1: none) is open from `now` when `open`, and
// closed at `now` otherwise: its time is added to the whole-run and the windowed totals.
void track_span(bool open, SimTime now, const MeasurementWindow& window, SimTime& since, SimTime& total,
                SimTime& in_window) {
  if (open && since < 0) {
    since = now;
  } else if (!open && since >= 0) {
    total += now - since;
    in_window += window.overlap(since, now);
    since = -1;
  }
}

}  // namespace

GpuUsageMeter::GpuUsageMeter(ClusterRuntime& runtime)
    : runtime_(runtime), usage_(runtime.cluster().gpus().size()) {
  runtime.set_gpu_usage_listener(this);
}

void GpuUsageMeter::accumulate(GpuUsage& usage, SimTime now, const MeasurementWindow& window) {
  const auto elapsed = static_cast<double>(now - usage.last_change);
  usage.context_switches += usage.switch_rate * elapsed;
  usage.sm_busy_ns += usage.sm_load * elapsed;
  usage.memory_mib_ns += static_cast<double>(usage.memory_mib) * elapsed;
  const auto inside = static_cast<double>(window.overlap(usage.last_change, now));
  usage.in_window.context_switches += usage.switch_rate * inside;
  usage.in_window.sm_busy_ns += usage.sm_load * inside;
  usage.in_window.memory_mib_ns += static_cast<double>(usage.memory_mib) * inside;
  usage.last_change = now;
}

void GpuUsageMeter::gpu_changed(const Gpu& gpu, SimTime now, const GpuState& state, const MeasurementWindow& window) {
  GpuUsage& usage = usage_[gpu.index];
  accumulate(usage, now, window);
  // Slice-level GPUs count their switches one by one (context_switched); fluid ones at the
  // policy's rate, also in a cluster where other pools run slice-level.
  usage.switch_rate = state.slice_level ? 0.0 : gpu.sharing->context_switches_per_ns(gpu.residents);
  usage.sm_load = 0;
  for (const Resident& r : gpu.residents) {
    // SMs busy: its share of them while it has GPU work, for the share u of its progress
    // that is GPU work (duty cycle). At its job's rate, not the rate this GPU's policy gives
    // it: a job on several GPUs progresses at the slowest one's (FluidProgress), and works the
    // others only that much (the runtime calls this for its other GPUs when that rate changes).
    // On each of its devices of this GPU (MIG instances): its rate is each one's share.
    // Slice-level GPUs run one context at a time, and a context in a host phase progresses
    // without the GPU: there its SMs count while it runs on the GPU, all of them.
    const double share = state.slice_level ? (runtime_.runs_on_gpu_now(gpu.index, r) ? 1.0 : 0.0)
                                           : runtime_.jobs()[r.task].rate * r.demand.duty;
    usage.sm_load += share * r.demand.sm * static_cast<double>(devices_held(r));
  }
  usage.sm_load = std::min(usage.sm_load, 1.0);
  usage.memory_mib = state.memory_mib;
  usage.peak_memory_mib = std::max(usage.peak_memory_mib, usage.memory_mib);
  track_span(state.allocated, now, window, usage.allocated_since, usage.allocated_ns, usage.in_window.allocated_ns);
  track_span(state.busy, now, window, usage.busy_since, usage.busy_ns, usage.in_window.busy_ns);
}

void GpuUsageMeter::prefetch(std::uint32_t gpu) const {
  // gpu_changed() reads and writes the whole record, which spans several cache lines.
  prefetch_lines_for_write(&usage_[gpu], sizeof(GpuUsage));
}

void GpuUsageMeter::context_switched(std::uint32_t gpu, SimTime now) {
  usage_[gpu].context_switches += 1;
  if (runtime_.measurement_window().contains(now)) usage_[gpu].in_window.context_switches += 1;
}

void GpuUsageMeter::repartitioned(std::uint32_t gpu, SimTime drain_start, SimTime reconfigure_start, SimTime now) {
  ++usage_[gpu].reconfigurations;
  add_repartitioning(usage_[gpu], drain_start, reconfigure_start, now);
}

void GpuUsageMeter::add_repartitioning(GpuUsage& usage, SimTime drain_start, SimTime reconfigure_start, SimTime end) {
  const MeasurementWindow& window = runtime_.measurement_window();
  const SimTime drain_end = std::min(reconfigure_start >= 0 ? reconfigure_start : end, end);
  if (drain_end > drain_start) {
    usage.draining_ns += drain_end - drain_start;
    usage.in_window.draining_ns += window.overlap(drain_start, drain_end);
  }
  if (reconfigure_start >= 0 && end > reconfigure_start) {
    usage.reconfiguring_ns += end - reconfigure_start;
    usage.in_window.reconfiguring_ns += window.overlap(reconfigure_start, end);
  }
}

void GpuUsageMeter::finish(SimTime end) {
  const MeasurementWindow& window = runtime_.measurement_window();
  for (GpuUsage& usage : usage_) {
    track_span(false, end, window, usage.allocated_since, usage.allocated_ns, usage.in_window.allocated_ns);
    track_span(false, end, window, usage.busy_since, usage.busy_ns, usage.in_window.busy_ns);
    accumulate(usage, end, window);
  }
  // A GPU still draining or being reconfigured when the run stops (`until`) spent that time up to
  // the end: counted as repartitioned() counts a finished one, less the layout it never got.
  runtime_.for_each_repartitioning([&](std::uint32_t gpu, SimTime drain_start, SimTime reconfigure_start) {
    add_repartitioning(usage_[gpu], drain_start, reconfigure_start, end);
  });
}

}  // namespace sharesim
