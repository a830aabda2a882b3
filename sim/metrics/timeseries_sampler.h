#pragma once
// The time series of a run (timeseries.csv, docs/outputs.md): the pending jobs and the
// runtime's counters, sampled by an event of its own. A fixed interval (> 0) samples at that
// period; 0 picks one adaptively: start at 1 s and, each time kMaxSamples are held, keep every
// other sample and double the period. It reads the runtime and never changes it, so a run with
// or without it is the same run.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/simulator.h"
#include "sim/runtime/cluster_runtime.h"

namespace sharesim {

struct TimeseriesSample {
  SimTime time = 0;
  std::uint64_t pending = 0;  // jobs submitted and waiting to start: queued or in a restart back-off
  RuntimeCounters counters;
};

class TimeseriesSampler {
 public:
  static constexpr std::size_t kMaxSamples = 1000;

  TimeseriesSampler(Simulator& sim, const ClusterRuntime& runtime);
  TimeseriesSampler(const TimeseriesSampler&) = delete;
  TimeseriesSampler& operator=(const TimeseriesSampler&) = delete;

  // Takes the first sample now; call right after ClusterRuntime::start.
  void start(SimTime interval);
  // Drops the samples taken at or after `end` and takes a last one at `end`, the state once
  // every event at `end` has run (call after ClusterRuntime::finish).
  void finish(SimTime end);
  const std::vector<TimeseriesSample>& samples() const { return samples_; }

 private:
  struct SampleHandler : EventHandler {
    TimeseriesSampler* sampler = nullptr;
    void on_event(std::uint32_t) override { sampler->on_sample(); }
  };
  void on_sample();
  TimeseriesSample sample_at(SimTime time) const;

  Simulator& sim_;
  const ClusterRuntime& runtime_;
  SampleHandler handler_;
  std::vector<TimeseriesSample> samples_;
  SimTime interval_ = 0;
  bool adaptive_ = false;
};

}  // namespace sharesim
