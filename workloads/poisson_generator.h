#pragma once
// A generator: Poisson arrivals (exponential inter-arrival times at rate_per_s) of jobs
// with drawn durations and one request shape, from `start` until `count` jobs or the
// generator's `until`, whichever comes first. Its random stream is its own, named after
// the generator, so adding a generator never changes another's jobs.
#include <cstdint>
#include <optional>

#include "sim/core/random_stream.h"
#include "sim/runtime/job_source.h"
#include "workloads/duration_distribution.h"

namespace sharesim {

struct PoissonGeneratorConfig {
  double rate_per_s = 1;
  std::optional<std::uint64_t> count;
  SimTime start = 0;
  SimTime until = kTimeNever;
  double time_scale = 1;  // load scaling: offsets from start multiplied (arrival_scaling.h)
  DurationDistribution duration;
  JobSpec job_template;  // shape, pods, priority, origin
};

class PoissonGenerator final : public JobSource {
 public:
  PoissonGenerator(PoissonGeneratorConfig config, RandomStream arrivals, RandomStream durations);
  bool next(JobSpec& out) override;
  std::size_t expected_jobs() const override { return config_.count ? static_cast<std::size_t>(*config_.count) : 0; }

 private:
  PoissonGeneratorConfig config_;
  RandomStream arrivals_;  // separate streams: changing the duration law keeps arrival times
  RandomStream durations_;
  double clock_s_ = 0;  // time of the last arrival, in seconds since start
  std::uint64_t emitted_ = 0;
};

}  // namespace sharesim
