#include "workloads/diurnal_generator.h"

#include <cmath>
#include <numbers>

#include "sim/core/assert.h"
#include "sim/core/checked_conversion.h"

namespace sharesim {

DiurnalArrivals::DiurnalArrivals(double rate_per_s, double amplitude, double period_s, double peak_s, double start_s)
    : rate_(rate_per_s), amplitude_(amplitude), period_s_(period_s), peak_s_(peak_s), start_s_(start_s) {
  // A period of 0 makes the rate NaN everywhere, and thinning would never keep a candidate:
  // it must be refused at load, as an input error at the arrival's "period".
  SHARESIM_ASSERT(period_s > 0, "a diurnal period above 0");
}

double DiurnalArrivals::rate_at(double absolute_s) const {
  return rate_ * (1 + amplitude_ * std::cos(2 * std::numbers::pi * (absolute_s - peak_s_) / period_s_));
}

double DiurnalArrivals::next_s(RandomStream& rng) {
  const double peak_rate = rate_ * (1 + amplitude_);
  while (true) {
    clock_s_ += rng.exponential(1.0 / peak_rate);
    // A candidate past the end of simulated time (292 years) never comes, kept or not (the
    // generators stop there), so it is returned untested: at a rate so small that the mean gap
    // overflows to infinity, the rate's cosine is NaN there and no candidate would ever be kept.
    if (!(clock_s_ < static_cast<double>(kMaxTimeSeconds))) return clock_s_;
    if (rng.uniform01() * peak_rate < rate_at(start_s_ + clock_s_)) return clock_s_;
  }
}

}  // namespace sharesim
