#include "workloads/stream_generator.h"

#include <utility>

#include "workloads/arrival_scaling.h"

namespace sharesim {

StreamGenerator::StreamGenerator(StreamGeneratorConfig config, RandomStream arrivals, RandomStream durations,
                                 RandomStream classes)
    : config_(std::move(config)), arrivals_(arrivals), durations_(durations), classes_(classes) {
  for (const MixEntry& entry : config_.mix) total_weight_ += entry.weight;
}

bool StreamGenerator::next(JobSpec& out) {
  if (config_.on_first_read) std::exchange(config_.on_first_read, nullptr)();
  if (config_.count && emitted_ >= *config_.count) return false;
  SimTime offset = seconds_to_time(config_.arrivals->next_s(arrivals_));
  if (offset < kTimeNever) offset = scale_offset(offset, config_.time_scale);
  // Past the end of representable time (kTimeNever included): never comes (poisson_generator.cpp).
  if (offset >= kTimeNever - config_.start) return false;
  const SimTime arrival = config_.start + offset;
  if (arrival > config_.until) return false;
  out = config_.job_template;
  out.arrival = arrival;
  if (!config_.samples.empty()) {
    const JobSample& sample = config_.samples[classes_.uniform_index(config_.samples.size())];
    out.shape = sample.shape;
    out.pods = sample.pods;
    out.priority = sample.priority;
    out.work = sample.work;
  } else if (!config_.mix.empty()) {
    const MixEntry& entry = config_.mix[draw_mix_entry(config_.mix, total_weight_, classes_)];
    out.shape = entry.shape;
    out.pods = entry.pods;
    out.priority = entry.priority;
    out.preempts = entry.preempts;
    out.work = (entry.duration ? *entry.duration : config_.duration).draw(durations_);
  } else {
    out.work = config_.duration.draw(durations_);
  }
  out.sequence = static_cast<std::uint32_t>(emitted_);
  ++emitted_;
  return true;
}

}  // namespace sharesim
