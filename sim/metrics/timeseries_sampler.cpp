#include "sim/metrics/timeseries_sampler.h"

namespace sharesim {

TimeseriesSampler::TimeseriesSampler(Simulator& sim, const ClusterRuntime& runtime) : sim_(sim), runtime_(runtime) {
  handler_.sampler = this;
}

void TimeseriesSampler::start(SimTime interval) {
  adaptive_ = interval <= 0;
  interval_ = adaptive_ ? kSecond : interval;
  sim_.schedule_at(sim_.now(), handler_);
}

TimeseriesSample TimeseriesSampler::sample_at(SimTime time) const {
  // Pending: every submitted job not running, completed or failed, in the scheduler's queue or in
  // a restart back-off (the queue alone left the latter in no column: summary.json's
  // pending_at_end counts them).
  const RuntimeCounters& counters = runtime_.counters();
  return TimeseriesSample{time, counters.submitted - counters.running - counters.completed - counters.failed, counters};
}

void TimeseriesSampler::on_sample() {
  samples_.push_back(sample_at(sim_.now()));
  if (adaptive_ && samples_.size() >= kMaxSamples) {
    // Samples sit at multiples of the period from 0: keeping the even ones leaves multiples
    // of twice the period.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < samples_.size(); i += 2) samples_[kept++] = samples_[i];
    samples_.resize(kept);
    interval_ *= 2;
    // The next multiple of the period, unless it lies past the end of simulated time (jobs of a
    // trace can end near it): no sample is taken there.
    const SimTime periods = sim_.now() / interval_ + 1;
    if (sim_.pending_events() > 0 && periods <= kTimeNever / interval_) sim_.schedule_at(periods * interval_, handler_);
    return;
  }
  // Keep sampling only while something else can still happen.
  if (sim_.pending_events() > 0 && interval_ <= kTimeNever - sim_.now()) sim_.schedule_in(interval_, handler_);
}

void TimeseriesSampler::finish(SimTime end) {
  // A sample taken at `end` itself is taken again: it ran in insertion order among that
  // instant's events, before those scheduled after it (the placements of jobs arriving then,
  // say), and the last row is the state at the end.
  while (!samples_.empty() && samples_.back().time >= end) samples_.pop_back();
  samples_.push_back(sample_at(end));
}

}  // namespace sharesim
