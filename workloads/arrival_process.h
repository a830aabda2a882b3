#pragma once
// When a generator's jobs arrive: a point process in seconds since the generator's start.
// Poisson (constant rate) lives in poisson_generator.h; diurnal_generator.h and
// mmpp_generator.h add a sinusoidal rate and a Markov-modulated (bursty) rate.
#include "sim/core/random_stream.h"

namespace sharesim {

class ArrivalProcess {
 public:
  virtual ~ArrivalProcess() = default;
  // The next arrival, seconds after the generator's start; non-decreasing.
  virtual double next_s(RandomStream& rng) = 0;
  // Long-run mean arrivals per second (for documentation and tests).
  virtual double mean_rate_per_s() const = 0;
};

// Exponential gaps at a constant rate.
class PoissonArrivals final : public ArrivalProcess {
 public:
  explicit PoissonArrivals(double rate_per_s) : rate_(rate_per_s) {}
  double next_s(RandomStream& rng) override { return clock_s_ += rng.exponential(1.0 / rate_); }
  double mean_rate_per_s() const override { return rate_; }

 private:
  double rate_;
  double clock_s_ = 0;
};

}  // namespace sharesim
