#pragma once
// The usage integrals of every GPU (DESIGN.md "metrics/: collectors"): busy and held time,
// SM-weighted utilization, memory, context switches, repartitioning time, over the whole run and
// clipped to the measurement window. The meter listens to the runtime (GpuUsageListener) and
// never changes it; the summary (run_metrics.h) and gpus.csv (output_files.h) read it.
// Integrals are brought up to date lazily, whenever a GPU's residents or rates change.
#include <cstdint>
#include <vector>

#include "sim/runtime/cluster_runtime.h"
#include "sim/runtime/gpu_usage_listener.h"

namespace sharesim {

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
  // A repartitioning still under way when the run stops counts its time up to the end (finish).
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


class GpuUsageMeter final : public GpuUsageListener {
 public:
  // Listens to `runtime` from now on (make it before ClusterRuntime::start).
  explicit GpuUsageMeter(ClusterRuntime& runtime);
  GpuUsageMeter(const GpuUsageMeter&) = delete;
  GpuUsageMeter& operator=(const GpuUsageMeter&) = delete;

  // Closes the integrals at `end` (once, after the simulator stopped).
  void finish(SimTime end);
  // By GPU index.
  const std::vector<GpuUsage>& usage() const { return usage_; }

  void gpu_changed(const Gpu& gpu, SimTime now, const GpuState& state, const MeasurementWindow& window) override;
  void prefetch(std::uint32_t gpu) const override;
  void job_started_on(std::uint32_t gpu) override { ++usage_[gpu].jobs_started; }
  void context_switched(std::uint32_t gpu, SimTime now) override;
  void repartitioned(std::uint32_t gpu, SimTime drain_start, SimTime reconfigure_start, SimTime now) override;

 private:
  // Time draining over [drain_start, reconfigure_start, or `end` while still draining) and
  // reconfiguring over [reconfigure_start, end) (reconfigure_start -1: not begun), each also
  // clipped to the measurement window: a finished repartitioning, or one cut off by the end.
  void add_repartitioning(GpuUsage& usage, SimTime drain_start, SimTime reconfigure_start, SimTime end);
  // Adds the time since usage.last_change to the rate integrals (whole run and windowed).
  static void accumulate(GpuUsage& usage, SimTime now, const MeasurementWindow& window);

  const ClusterRuntime& runtime_;
  std::vector<GpuUsage> usage_;
};

}  // namespace sharesim
