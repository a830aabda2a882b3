#pragma once
// What the runtime tells the GPU usage meter (sim/metrics/gpu_usage_meter.h) about each GPU. The
// runtime keeps only the state it runs by (which GPUs are held and busy, the memory in use:
// RuntimeCounters); the usage integrals of the summary and gpus.csv (busy and held time,
// SM-weighted utilization, memory, context switches, repartitioning time) are the meter's.
#include <cstdint>

#include "sim/cluster/cluster.h"
#include "sim/core/sim_time.h"
#include "sim/runtime/measurement_window.h"

namespace sharesim {

// One GPU as the runtime counts it, after its last change.
struct GpuState {
  std::int64_t memory_mib = 0;  // device memory its residents hold
  bool allocated = false;       // some job holds it
  bool busy = false;            // some resident makes progress
  // Its policy runs slice-level: context switches come one by one (context_switched), not at
  // the policy's rate. Fixed for the run.
  bool slice_level = false;
};

class GpuUsageListener {
 public:
  // The GPU's residents, or their rates, changed at `now`; `state` is its state from now on.
  // `window` is the measurement window in force (its start moves once warm-up jobs arrived).
  virtual void gpu_changed(const Gpu& gpu, SimTime now, const GpuState& state, const MeasurementWindow& window) = 0;
  // The GPU is about to change (a job on it ends): a listener may start fetching its record
  // for the gpu_changed() that follows. Changes nothing.
  virtual void prefetch(std::uint32_t /*gpu*/) const {}
  // A job started on the GPU (one call per GPU it holds, however many of its pods or devices
  // are on it; again at each restart).
  virtual void job_started_on(std::uint32_t gpu) = 0;
  // One context switch at `now` on a GPU that runs slice-level (fluid GPUs switch at the
  // policy's rate, GpuSharing::context_switches_per_ns).
  virtual void context_switched(std::uint32_t gpu, SimTime now) = 0;
  // The GPU was laid out anew (dynamic repartitioning): it drained from `drain_start`, was
  // reconfigured from `reconfigure_start`, and offers its new resources from `now`.
  virtual void repartitioned(std::uint32_t gpu, SimTime drain_start, SimTime reconfigure_start, SimTime now) = 0;

 protected:
  ~GpuUsageListener() = default;  // not owned through this interface
};

}  // namespace sharesim
