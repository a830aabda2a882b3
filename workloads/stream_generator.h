#pragma once
// A generator with any arrival process (Poisson, diurnal, MMPP) whose jobs take one request
// shape, a weighted mix of shapes (job_mix.h) or a shape resampled from a trace
// (bootstrap_generator.h). Plain Poisson generators with one shape use PoissonGenerator,
// whose random draws this class repeats, so both give the same jobs for the same seed.
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/runtime/job_source.h"
#include "workloads/arrival_process.h"
#include "workloads/bootstrap_generator.h"
#include "workloads/duration_distribution.h"
#include "workloads/job_mix.h"

namespace sharesim {

struct StreamGeneratorConfig {
  std::optional<std::uint64_t> count;
  SimTime start = 0;
  SimTime until = kTimeNever;
  double time_scale = 1;  // load scaling: offsets from start multiplied (arrival_scaling.h)
  DurationDistribution duration;
  JobSpec job_template;  // origin, and shape/pods/priority without mix or samples
  std::unique_ptr<ArrivalProcess> arrivals;
  std::vector<MixEntry> mix;       // non-empty: draw the class of each job
  std::vector<JobSample> samples;  // non-empty: bootstrap from a trace
  // Called once, at the first next(): gives the resampled trace's warnings (skipped rows) then,
  // though the trace was read when the generator was built. validate and generate build the
  // run's sources and then their own; only the sources that are read speak, as a trace source
  // that is never read stays quiet (trace_import.cpp).
  std::function<void()> on_first_read;
};

class StreamGenerator final : public JobSource {
 public:
  StreamGenerator(StreamGeneratorConfig config, RandomStream arrivals, RandomStream durations, RandomStream classes);
  bool next(JobSpec& out) override;
  std::size_t expected_jobs() const override { return config_.count ? static_cast<std::size_t>(*config_.count) : 0; }

 private:
  StreamGeneratorConfig config_;
  RandomStream arrivals_, durations_, classes_;
  double total_weight_ = 0;
  std::uint64_t emitted_ = 0;
};

}  // namespace sharesim
