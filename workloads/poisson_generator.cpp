#include "workloads/poisson_generator.h"

#include "workloads/arrival_scaling.h"

namespace sharesim {

PoissonGenerator::PoissonGenerator(PoissonGeneratorConfig config, RandomStream arrivals, RandomStream durations)
    : config_(std::move(config)), arrivals_(arrivals), durations_(durations) {}

bool PoissonGenerator::next(JobSpec& out) {
  if (config_.count && emitted_ >= *config_.count) return false;
  // Accumulate in double seconds and round once per job, so rounding never drifts.
  clock_s_ += arrivals_.exponential(1.0 / config_.rate_per_s);
  SimTime offset = seconds_to_time(clock_s_);
  if (offset < kTimeNever) offset = scale_offset(offset, config_.time_scale);
  // Arrivals past the end of representable time (292 years) never come, like those past `until`;
  // one at kTimeNever itself (a saturated offset from start 0) is such an arrival, not one that
  // arrives "never" and waits in the queue.
  if (offset >= kTimeNever - config_.start) return false;
  const SimTime arrival = config_.start + offset;
  if (arrival > config_.until) return false;
  out = config_.job_template;
  out.arrival = arrival;
  out.work = config_.duration.draw(durations_);
  out.sequence = static_cast<std::uint32_t>(emitted_);
  ++emitted_;
  return true;
}

}  // namespace sharesim
